import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { CHECKS_MARKS_FILE, judgeChecks } from '../judge/judge-checks.js';
import type { ProjectContext } from '../project/project-context.js';
import { readRun } from '../run-dir/read-run.js';
import { shownPath } from '../util/shown-path.js';
import type { ArmCounts } from './rank-variants.js';

/**
 * The checks mark the look's reps; each arm's passes and fails. N/a reps count in neither; an errored rep counts as a
 * fail under the question's `errors: fail` (as in the report's rates), else in neither.
 */
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
  const { arms, errors } = tallyArms(marks.values(), armNames, run.manifest.question.errors ?? 'exclude');
  const counted = arms.reduce((sum, arm) => sum + arm.pass + arm.fail, 0);
  if (counted === 0)
    throw new TurnkitError(
      'SUT_FAILED',
      `${shownPath(runDir)}: no rep of look ${look} was marked pass or fail (${errors} errored); see its reps`,
    );
  if (errors > 0) onWarning?.(`look ${look}: ${errors} rep(s) errored and count in no arm (${shownPath(runDir)})`);
  return arms;
}

/** Each arm's passes and fails from a look's marks under the question's errors policy, and the errors left out. */
export function tallyArms(
  marks: Iterable<{ fixture: string; mark: string }>,
  armNames: readonly string[],
  policy: 'exclude' | 'fail',
): { arms: ArmCounts[]; errors: number } {
  const counts = new Map(armNames.map((name) => [name, { pass: 0, fail: 0 }]));
  let errors = 0;
  for (const mark of marks) {
    const arm = counts.get(mark.fixture);
    if (!arm) continue;
    if (mark.mark === 'pass') arm.pass++;
    else if (mark.mark === 'fail' || (mark.mark === 'error' && policy === 'fail')) arm.fail++;
    else if (mark.mark === 'error') errors++;
  }
  return { arms: armNames.map((name) => counts.get(name)!), errors };
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
