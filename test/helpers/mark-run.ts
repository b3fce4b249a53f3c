import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMarksText } from '../../src/pipeline/read-marks.js';
import { manifestSchema, sha256 } from '../../src/pipeline/manifest.js';
import type { MarkRow } from '../../src/pipeline/marks-file.js';
import type { RepRecord } from '../../src/pipeline/rep-record.js';

/** A rep of a hand-made run: the SUT's response, an errored rep, or no record at all. */
export type MarkRepSpec = string | { error: 'seed' | 'sut'; message?: string } | { notRun: true };

/** A hand-made run directory for the marker: fixtures with case files and one spec per rep. */
export interface MarkRunSpec {
  dir: string;
  questionId?: string;
  questionText?: string;
  rubric?: string;
  rubricVersion?: string;
  fixtures: { name: string; caseFile?: string; reps: MarkRepSpec[] }[];
}

export const MARK_RUBRIC = '# Rubric: places\n\nPASS-RULE: the game master names deck 2 for the mess hall.\nFAIL-RULE: anything else.\n';

/**
 * The standard run of these tests: 2 fixtures x 3 reps; alpha rep 2 errored (sut), beta rep 3 never run.
 * Interleaved plan: alpha 1, beta 1, alpha 2 (errored), beta 2, alpha 3, beta 3 (not run); 4 reps to mark.
 */
export function standardRun(dir: string, options: { longAlpha1?: boolean; rubricVersion?: string } = {}): MarkRunSpec {
  const long = Array.from({ length: 60 }, (_, i) => `LONGLINE-${String(i + 1).padStart(2, '0')} the lift hums`).join('\n');
  return {
    dir,
    rubricVersion: options.rubricVersion ?? 'v3',
    fixtures: [
      { name: 'alpha', caseFile: '# Case alpha\n\nCASE-ALPHA: the mess hall is on deck 2.\n', reps: [options.longAlpha1 ? `RESP-ALPHA-1 first line\n${long}` : 'RESP-ALPHA-1 deck 2, aft.', { error: 'sut', message: 'BOOM-ALPHA-2 exited with code 1' }, 'RESP-ALPHA-3 deck 5.'] },
      { name: 'beta', caseFile: '# Case beta\n\nCASE-BETA: the mess hall is on deck 2.\n', reps: ['RESP-BETA-1 deck 2.', 'RESP-BETA-2 no idea.', { notRun: true }] },
    ],
  };
}

/** Writes a run directory by hand (manifest checked against manifestSchema, rubric.md, case-files/, reps/). */
export async function makeMarkRun(spec: MarkRunSpec): Promise<string> {
  const dir = spec.dir;
  const rubric = spec.rubric ?? MARK_RUBRIC;
  const reps = spec.fixtures[0]!.reps.length;
  const manifest = manifestSchema.parse({
    format: 'turnkit.run/1',
    status: 'complete',
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    turnkit: '0.1.0',
    node: 'v20.0.0',
    question: { id: spec.questionId ?? 'places', text: spec.questionText ?? 'QUESTION-TEXT: where is the mess hall?', file: { path: 'questions/places.yaml', sha256: sha256('q') }, target: 0.9, reps },
    rubric: { path: 'questions/places-rubric.md', version: spec.rubricVersion ?? '1', sha256: sha256(rubric) },
    caseFileTemplate: { path: 'questions/case-file.md', sha256: sha256('t') },
    fixtures: spec.fixtures.map((f) => ({ name: f.name, file: { path: `fixtures/${f.name}.json`, sha256: sha256(f.name) } })),
    sut: { type: 'command', command: ['node', 'sut.mjs'] },
    database: { backend: 'embedded', serverVersion: '18', strategy: 'remap' },
    concurrency: 1,
    order: [],
  });
  await mkdir(join(dir, 'case-files'), { recursive: true });
  await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(join(dir, 'rubric.md'), rubric);
  for (const f of spec.fixtures) {
    await writeFile(join(dir, 'case-files', `${f.name}.md`), f.caseFile ?? `# Case ${f.name}\n`);
    await mkdir(join(dir, 'reps', f.name), { recursive: true });
    for (const [index, rep] of f.reps.entries()) {
      if (typeof rep === 'object' && 'notRun' in rep) continue;
      const number = index + 1;
      const error = typeof rep === 'object' ? rep : undefined;
      const record: RepRecord = {
        fixture: f.name,
        rep: number,
        attempt: 1,
        startedAt: '2026-01-01T00:00:01.000Z',
        request: { campaign: '4', turn: 23, input: { player_input: 'Where is the mess hall?' }, caseFile: '# case', fixture: f.name, rep: number },
        response: typeof rep === 'string' ? rep : null,
        error: error ? { stage: error.error, cause: 'exit', message: error.message ?? 'exited with code 1' } : null,
        exit: error?.error === 'seed' ? null : { code: error ? 1 : 0, signal: null },
        timings: { seedMs: 5, sutMs: 100, teardownMs: 5, totalMs: 110 },
        scratch: { id: `s-${number}`, strategy: 'remap' },
        effects: null,
      };
      await writeFile(join(dir, 'reps', f.name, `rep-${String(number).padStart(2, '0')}.json`), `${JSON.stringify(record, null, 2)}\n`);
    }
  }
  return dir;
}

/**
 * Reads a marks file as the marker wrote it and checks it with the project's own reader (header, marks, no rep
 * twice, no foreign rep): a torn file throws here. Rows by `fixture/rep`.
 */
export async function readMarks(file: string): Promise<Record<string, MarkRow>> {
  const text = await readFile(file, 'utf8');
  const rows = parseMarksText(text, file, { fixtures: ['alpha', 'beta'], reps: 3 });
  return Object.fromEntries([...rows.values()].map(({ line: _line, ...row }) => [`${row.fixture}/${row.rep}`, row]));
}

/** The temporary files an atomic write leaves when it dies before its rename. */
export async function tempFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
}
