import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { CHECKS_MARKS_FILE, judgeChecks } from '../judge/judge-checks.js';
import type { ProjectContext } from '../project/project-context.js';
import { readRun } from '../run-dir/read-run.js';
import { shownPath } from '../util/shown-path.js';
import type { ArmCounts } from './rank-variants.js';

/** The checks mark the look's reps; each arm's passes and fails (n/a and errored reps count in neither). */
export async function countArms(
  project: ProjectContext,
  runDir: string,
  armNames: readonly string[],
  look: number,
  onWarning: ((message: string) => void) | undefined,
): Promise<ArmCounts[]> {
  await judgeChecks(project, { dir: runDir });
  const run = await readRun(runDir);
  const marks = await run.marks(CHECKS_MARKS_FILE);
  const counts = new Map(armNames.map((name) => [name, { pass: 0, fail: 0 }]));
  let errors = 0;
  for (const mark of marks.values()) {
    const arm = counts.get(mark.fixture);
    if (!arm) continue;
    if (mark.mark === 'pass') arm.pass++;
    else if (mark.mark === 'fail') arm.fail++;
    else if (mark.mark === 'error') errors++;
  }
  const counted = [...counts.values()].reduce((sum, arm) => sum + arm.pass + arm.fail, 0);
  if (counted === 0)
    throw new TurnkitError(
      'SUT_FAILED',
      `${shownPath(runDir)}: no rep of look ${look} was marked pass or fail (${errors} errored); see its reps`,
    );
  if (errors > 0) onWarning?.(`look ${look}: ${errors} rep(s) errored and count in no arm (${shownPath(runDir)})`);
  return armNames.map((name) => counts.get(name)!);
}

/** The run directory of a look begun earlier: the one folder under looks/look-K/QUESTION/. */
export async function lookRun(lookRoot: string): Promise<string | undefined> {
  if (!existsSync(lookRoot)) return undefined;
  for (const question of await readdir(lookRoot)) {
    const runs = (await readdir(join(lookRoot, question))).sort();
    if (runs.length > 0) return join(lookRoot, question, runs[runs.length - 1]!);
  }
  return undefined;
}
