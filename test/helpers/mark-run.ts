import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseMarksText } from '../../src/run-dir/marks/read-marks.js';
import { makeJudgeRun } from './judge-run.js';
import type { MarkRow } from '../../src/run-dir/marks/marks-file.js';

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

export const MARK_RUBRIC =
  '# Rubric: places\n\nPASS-RULE: the game master names deck 2 for the mess hall.\nFAIL-RULE: anything else.\n';

/**
 * The standard run of these tests: 2 fixtures x 3 reps; alpha rep 2 errored (sut), beta rep 3 never run.
 * Interleaved plan: alpha 1, beta 1, alpha 2 (errored), beta 2, alpha 3, beta 3 (not run); 4 reps to mark.
 */
export function standardRun(dir: string, options: { longAlpha1?: boolean; rubricVersion?: string } = {}): MarkRunSpec {
  const long = Array.from({ length: 60 }, (_, i) => `LONGLINE-${String(i + 1).padStart(2, '0')} the lift hums`).join(
    '\n',
  );
  return {
    dir,
    rubricVersion: options.rubricVersion ?? 'v3',
    fixtures: [
      {
        name: 'alpha',
        caseFile: '# Case alpha\n\nCASE-ALPHA: the mess hall is on deck 2.\n',
        reps: [
          options.longAlpha1 ? `RESP-ALPHA-1 first line\n${long}` : 'RESP-ALPHA-1 deck 2, aft.',
          { error: 'sut', message: 'BOOM-ALPHA-2 exited with code 1' },
          'RESP-ALPHA-3 deck 5.',
        ],
      },
      {
        name: 'beta',
        caseFile: '# Case beta\n\nCASE-BETA: the mess hall is on deck 2.\n',
        reps: ['RESP-BETA-1 deck 2.', 'RESP-BETA-2 no idea.', { notRun: true }],
      },
    ],
  };
}

/** Writes a run directory by hand, as the judge's tests do, with the marker tests' own rubric and texts. */
export async function makeMarkRun(spec: MarkRunSpec): Promise<string> {
  return makeJudgeRun({
    ...spec,
    rubric: spec.rubric ?? MARK_RUBRIC,
    questionText: spec.questionText ?? 'QUESTION-TEXT: where is the mess hall?',
    fixtures: spec.fixtures.map((fixture) => ({
      ...fixture,
      caseFile: fixture.caseFile ?? `# Case ${fixture.name}\n`,
    })),
  });
}

/**
 * Reads a marks file as the marker wrote it and checks it with the project's own reader (header, marks, no rep
 * twice, no foreign rep): a torn file throws here. Rows by `fixture/rep`; the run is the standard one unless `scope`
 * says.
 */
export async function readMarks(
  file: string,
  scope: { fixtures: string[]; reps: number } = { fixtures: ['alpha', 'beta'], reps: 3 },
): Promise<Record<string, MarkRow>> {
  const text = await readFile(file, 'utf8');
  const rows = parseMarksText(text, file, scope);
  return Object.fromEntries([...rows.values()].map(({ line: _line, ...row }) => [`${row.fixture}/${row.rep}`, row]));
}

/** The temporary files an atomic write leaves when it dies before its rename. */
export async function tempFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
}

/** The demo's two fixtures: a captured base and the constructed fixture that corrects its turn 19. */
export const DEMO_FIXTURES = ['meridian-turn-23', 'meridian-turn-23-deck-fixed'] as const;

/**
 * A run like the demo's: the base and its constructed fix (its base recorded in the manifest as a run records it),
 * case files rendered from the demo's template (a heading naming the fixture), and the sample SUT's two answers.
 */
export async function demoLikeRun(dir: string, reps: number): Promise<string> {
  const right = 'You take the lift up from engineering to deck 2 and walk past the crew berths to the mess hall.';
  const wrong = 'You step out of engineering and walk the short corridor: the mess hall is right here on deck 3.';
  const caseFile = (name: string, narration: string): string =>
    `# Case: ${name}\n\n## Player input, turn 23\n\nHow do I get to the mess hall?\n\n## Recent turns\n\n- turn 19: ${narration}\n`;
  await makeMarkRun({
    dir,
    fixtures: [
      {
        name: DEMO_FIXTURES[0],
        caseFile: caseFile(DEMO_FIXTURES[0], 'the mess hall, here on deck 3'),
        reps: Array.from({ length: reps }, (_, i) => (i % 3 === 0 ? right : wrong)),
      },
      {
        name: DEMO_FIXTURES[1],
        caseFile: caseFile(DEMO_FIXTURES[1], 'the mess hall, up on deck 2'),
        reps: Array.from({ length: reps }, (_, i) => (i % 4 === 3 ? wrong : right)),
      },
    ],
  });
  // The constructed fixture stands on the base, as buildManifest records it.
  const file = join(dir, 'manifest.json');
  const manifest = JSON.parse(await readFile(file, 'utf8'));
  manifest.fixtures[1].file.path = `constructed/${DEMO_FIXTURES[1]}.json`;
  manifest.fixtures[1].bases = [manifest.fixtures[0].file];
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
  return dir;
}
