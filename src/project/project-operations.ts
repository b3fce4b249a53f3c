import { agree as agreeFiles, type AgreeOptions, type AgreeResult } from '../marks/agree-command.js';
import {
  judgeChecks as judgeRunChecks,
  type JudgeChecksOptions,
  type JudgeChecksResult,
} from '../marks/judge-checks.js';
import { judgeWithModel, type JudgeModelOptions, type JudgeModelResult } from '../marks/judge-model.js';
import { report as reportRun, type ReportCommandOptions, type ReportResult } from '../marks/report-command.js';
import { materialize as materializeFile, type MaterializeOptions } from '../construct/materialize-command.js';
import { rebase as rebaseFile, type RebaseOptions, type RebaseResult } from '../construct/rebase-command.js';
import { show as showFile, type FixtureSummary, type ShowOptions } from '../fixture/show-fixture.js';
import type { Fixture } from '../fixture/format.js';
import { mergeRuns, type MergeOptions, type MergeResult } from '../pipeline/merge-runs.js';
import type { ProjectContext } from './project-context.js';

// The operations that read and write files only: relative paths of their input are the project's (or the context's
// cwd), the same rules as every other operation that takes a project.
const at = (project: ProjectContext): string => project.cwd ?? project.paths.baseDir;

/**
 * Materializes a constructed fixture (checking its base's hash and every old value).
 * @example
 * const fixture = await materialize(project, { constructed: 'constructed/meridian-turn-23-deck-fixed.json' });
 */
export function materialize(project: ProjectContext, input: Omit<MaterializeOptions, 'cwd'>): Promise<Fixture> {
  return materializeFile({ ...input, cwd: at(project) });
}

/**
 * Re-applies a constructed fixture's changes to its recaptured base (or `onto`), or lists the conflicts.
 * @example
 * const { rewritten } = await rebase(project, { constructed: 'constructed/fixed.json' });
 */
export function rebase(project: ProjectContext, input: Omit<RebaseOptions, 'cwd'>): Promise<RebaseResult> {
  return rebaseFile({ ...input, cwd: at(project) });
}

/**
 * Summarizes what a fixture holds: tables with row counts, turns, input (a constructed one's changes too).
 * @example
 * const { tables } = await show(project, { fixture: 'fixtures/meridian-turn-23.json' });
 */
export function show(project: ProjectContext, input: Omit<ShowOptions, 'cwd'>): Promise<FixtureSummary> {
  return showFile({ ...input, cwd: at(project) });
}

/**
 * Reads a run (and another to compare with) into a report: per fixture counts, pass rate, interval and verdict.
 * @example
 * const { report: numbers } = await report(project, { dir: result.dir });
 */
export function report(project: ProjectContext, input: Omit<ReportCommandOptions, 'cwd'>): Promise<ReportResult> {
  return reportRun({ ...input, cwd: at(project) });
}

/**
 * Measures how far two marks files of one run agree (Cohen's kappa and the disagreements).
 * @example
 * const { kappa } = await agree(project, { a: 'runs/q/1/marks.csv', b: 'runs/q/1/marks.checks.csv' });
 */
export function agree(project: ProjectContext, input: Omit<AgreeOptions, 'cwd'>): Promise<AgreeResult> {
  return agreeFiles({ ...input, cwd: at(project) });
}

/**
 * Marks every rep of a run with an LLM judge (`settings`) and writes `marks.judge-MODEL.csv`.
 * @example
 * const judged = await judge(project, { dir: result.dir, settings });
 */
export function judge(
  project: ProjectContext,
  input: Omit<JudgeModelOptions, 'cwd' | 'configPath' | 'projectDir'>,
): Promise<JudgeModelResult> {
  return judgeWithModel({ ...input, cwd: at(project), projectDir: project.paths.baseDir });
}

/**
 * Marks every rep of a run with the question's deterministic checks and writes `marks.checks.csv`.
 * @example
 * const { pass, fail } = await judgeChecks(project, { dir: result.dir });
 */
export function judgeChecks(
  project: ProjectContext,
  input: Omit<JudgeChecksOptions, 'cwd'>,
): Promise<JudgeChecksResult> {
  return judgeRunChecks({ ...input, cwd: at(project) });
}

/**
 * Combines the shard directories of one run into one run directory, as if it had run unsharded.
 * @example
 * const merged = await merge(project, { dirs: ['runs/q/a-shard-1-of-2', 'runs/q/b-shard-2-of-2'] });
 */
export function merge(project: ProjectContext, input: Omit<MergeOptions, 'cwd'>): Promise<MergeResult> {
  return mergeRuns({ ...input, cwd: at(project) });
}
