import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { manifestSchema } from '../../src/run-dir/manifest.js';
import { sha256 } from '../../src/util/sha256.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

/** A rep of a hand-made run: the SUT's response, an errored rep, or no record at all. */
export type RepSpec = string | { error: 'seed' | 'sut'; message?: string } | { notRun: true };

/** A hand-made run for judging: fixtures with their case file and one spec per rep. */
export interface JudgeRunSpec {
  /** Where the run directory goes (created). */
  dir: string;
  questionId?: string;
  questionText?: string;
  rubric?: string;
  rubricVersion?: string;
  startedAt?: string;
  /** Recorded in the manifest as the SUT (`{ type: 'http', model }` to make the judge the SUT's own model). */
  sut?: Record<string, unknown>;
  fixtures: { name: string; caseFile?: string; reps: RepSpec[] }[];
  /** Skip writing RUN/rubric.md (a run whose kept rubric is missing). */
  noRubricCopy?: boolean;
}

export const DEFAULT_RUBRIC =
  '# Rubric: places\n\nPass when the game master names deck 2 for the mess hall. Fail otherwise.\n';

const fakeSha = (name: string): string => sha256(name);

/** Writes a run directory by hand (manifest checked against manifestSchema, rubric.md, case-files/, reps/); the marker's tests use it too. */
export async function makeJudgeRun(spec: JudgeRunSpec): Promise<string> {
  const dir = spec.dir;
  const rubric = spec.rubric ?? DEFAULT_RUBRIC;
  const reps = spec.fixtures[0]!.reps.length;
  const manifest = manifestSchema.parse({
    format: 'turnkit.run/1',
    status: 'complete',
    startedAt: spec.startedAt ?? '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    turnkit: '0.1.0',
    node: 'v20.0.0',
    question: {
      id: spec.questionId ?? 'places',
      text: spec.questionText ?? 'Does the game master say where the mess hall is?',
      file: { path: 'questions/places.yaml', sha256: fakeSha('question') },
      target: 0.9,
      reps,
    },
    rubric: { path: 'questions/places-rubric.md', version: spec.rubricVersion ?? '1', sha256: sha256(rubric) },
    caseFileTemplate: { path: 'questions/case-file.md', sha256: fakeSha('template') },
    fixtures: spec.fixtures.map((f) => ({
      name: f.name,
      file: { path: `fixtures/${f.name}.json`, sha256: fakeSha(f.name) },
    })),
    sut: spec.sut ?? { type: 'command', command: ['node', 'sut.mjs'] },
    database: { backend: 'embedded', serverVersion: '18.6', strategy: 'remap' },
    concurrency: 1,
    order: spec.fixtures.flatMap((f) => f.reps.map((_, i) => ({ fixture: f.name, rep: i + 1, attempt: 1 }))),
  });
  await mkdir(join(dir, 'case-files'), { recursive: true });
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (!spec.noRubricCopy) await writeFile(join(dir, 'rubric.md'), rubric);
  for (const f of spec.fixtures) {
    await writeFile(
      join(dir, 'case-files', `${f.name}.md`),
      f.caseFile ?? `# Case ${f.name}\n\nThe mess hall of the ${f.name} is on deck 2.\n`,
    );
    await mkdir(join(dir, 'reps', f.name), { recursive: true });
    for (const [index, rep] of f.reps.entries()) {
      if (typeof rep === 'object' && 'notRun' in rep) continue;
      const number = index + 1;
      const failure = typeof rep === 'object' && 'error' in rep ? rep : undefined;
      const stage = failure?.error;
      const record: RepRecord = {
        fixture: f.name,
        rep: number,
        attempt: 1,
        startedAt: '2026-01-01T00:00:01.000Z',
        request: {
          campaign: '4',
          turn: 23,
          input: { player_input: 'Where is the mess hall?' },
          caseFile: '# case',
          fixture: f.name,
          rep: number,
        },
        response: typeof rep === 'string' ? rep : null,
        error: stage ? { stage, cause: 'exit', message: failure?.message ?? 'exited with code 1' } : null,
        exit: stage === 'seed' ? null : { code: stage ? 1 : 0, signal: null },
        timings: { seedMs: 5, sutMs: 100, teardownMs: 5, totalMs: 110 },
        scratch: { id: `s-${number}`, strategy: 'remap' },
        effects: null,
      };
      await writeFile(
        join(dir, 'reps', f.name, `rep-${String(number).padStart(2, '0')}.json`),
        `${JSON.stringify(record, null, 2)}\n`,
      );
    }
  }
  return dir;
}

/** Every file under a folder with its bytes, by path relative to the folder (to show nothing changed). */
export async function folderBytes(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out[relative(dir, path)] = (await readFile(path)).toString('base64');
    }
  };
  await walk(dir);
  return out;
}

/** Every file under a folder as text (to search them all for a secret). */
export async function folderText(dir: string): Promise<string> {
  const bytes = await folderBytes(dir);
  return Object.entries(bytes)
    .map(([path, base64]) => `${path}\n${Buffer.from(base64, 'base64').toString('utf8')}`)
    .join('\n');
}
