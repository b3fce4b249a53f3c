import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { runQuestion, type RunResult } from '../app/run-question.js';
import { TurnkitError } from '../errors.js';
import { buildReport } from '../report/build-report.js';
import { judgeChecks, CHECKS_MARKS_FILE } from '../judge/judge-checks.js';
import type { RolloutReport } from '../report/rollout-report.js';
import { shownPath } from '../util/shown-path.js';

/** Turns the demo's rollout plays from the captured turn (its fixture is captured with `--ahead` this many). */
export const DEMO_ROLLOUT_TURNS = 4;
/** Reps per fixture of the demo's rollout: few, to keep the demo short. */
const ROLLOUT_REPS = 3;

/** What the demo's rollout made: its run and its survival per fixture and per turn. */
export interface DemoRollout {
  run: RunResult;
  survival: RolloutReport;
}

/**
 * The demo's short rollout: the sample question again, for `DEMO_ROLLOUT_TURNS` turns from the captured one with the
 * live session's recorded inputs ahead, each turn checked. A wrong deck at turn 23 goes into the campaign as the SUT's
 * own narration, so it misleads the turns after it; the constructed fix keeps them right.
 */
export async function demoRollout(
  dir: string,
  common: { cwd: string; embedded: true },
  questionFile: string,
): Promise<DemoRollout> {
  const document = parseDocument(await readFile(questionFile, 'utf8'));
  document.set('id', 'places-rollout');
  document.set('reps', ROLLOUT_REPS);
  document.set('turns', DEMO_ROLLOUT_TURNS);
  document.set('players', { type: 'recorded' });
  const file = join(dir, 'questions', 'places-rollout.yaml');
  await writeFile(file, document.toString());
  const run = await runQuestion({ ...common, question: file });
  if (run.status !== 'complete')
    throw new TurnkitError(
      'INCOMPLETE_RUN',
      `${shownPath(run.dir)}: the demo's rollout did not complete (${run.pending} rep(s) not run)`,
    );
  await judgeChecks({ cwd: common.cwd, paths: { baseDir: common.cwd } }, { dir: run.dir });
  const report = await buildReport(run.dir, { marks: CHECKS_MARKS_FILE, cwd: common.cwd });
  return { run, survival: report.rollout! };
}
