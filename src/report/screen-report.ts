import { join } from 'node:path';
import type { Manifest } from '../run-dir/manifest.js';
import type { RepKey, RunState } from '../run-dir/run-state.js';
import { repId } from '../run-dir/run-state.js';
import type { Run } from '../run-dir/read-run.js';
import { CHECKS_SCREENS_FILE, parseScreens, type ScreenRow } from '../run-dir/screens-file.js';
import { shownPath } from '../util/shown-path.js';

/** How errored reps count in a rate: left out (`exclude`, ev2's reading) or as failed tasks (`fail`). */
export type ErrorsPolicy = 'exclude' | 'fail';

/**
 * One screen's counts over some reps. Its denominator is its own: pass + fail (+ error under `errors: fail`);
 * unscored reps (the screen does not apply) are never in it, nor counted as passes.
 */
export interface ScreenCounts {
  screen: string;
  pass: number;
  fail: number;
  unscored: number;
  /** Reps that errored where the screen applies. */
  error: number;
  /** Reps with no record, or not judged yet. */
  blank: number;
  /** The denominator under the run's errors policy. */
  denominator: number;
  /** pass / denominator; null when it is 0. */
  rate: number | null;
  /** Both readings, whatever the policy: errors left out, and errors counted as fails. */
  rates: { exclude: number | null; fail: number | null };
}

/** Reps that completed (a record without an error) over the reps planned: seed 000's "completed 30/30". */
interface Completed {
  completed: number;
  reps: number;
}

/** The screens of one fixture, or of a tag's fixtures pooled. */
export interface ScreenGroup {
  name: string;
  tag: 'dev' | 'heldout' | 'untagged';
  completed: Completed;
  screens: ScreenCounts[];
}

/** The screens section of a report: per fixture and per tag, each screen with its own denominator. */
export interface ScreenReport {
  /** The screens file read (screens.checks.jsonl). */
  file: string;
  errors: ErrorsPolicy;
  /** The screen names in the order the question gives them. */
  screens: string[];
  fixtures: ScreenGroup[];
  tags: ScreenGroup[];
  /** Hints, not errors: screens no rep failed over the whole run, fixtures where every screen passed every rep. */
  neverFailed: string[];
  allPassed: string[];
}

/** The run's errors policy, from its manifest (absent: `exclude`). */
export function errorsPolicyOf(manifest: Manifest): ErrorsPolicy {
  return manifest.question.errors ?? 'exclude';
}

/** Reads the run's screens file into the screens section; undefined when `judge --checks` has not written one. */
export async function screenReport(
  run: Run,
  state: RunState,
  keys: readonly RepKey[],
): Promise<ScreenReport | undefined> {
  if (!(await run.fileNames()).includes(CHECKS_SCREENS_FILE)) return undefined;
  const file = join(run.dir, CHECKS_SCREENS_FILE);
  return screenReportOf(file, state, keys, await parseScreens(await run.text(CHECKS_SCREENS_FILE), shownPath(file)));
}

/** The screens section from the screens file's rows (pure: screenReport reads and parses the file). */
function screenReportOf(
  file: string,
  state: RunState,
  keys: readonly RepKey[],
  rows: readonly ScreenRow[],
): ScreenReport {
  const { manifest } = state;
  const errors = errorsPolicyOf(manifest);
  const byRep = new Map(rows.map((row) => [repId(row), row]));
  const names = [...new Set(rows.flatMap((row) => row.screens.map((entry) => entry.screen)))];
  const fixtures = manifest.fixtures.flatMap((entry): ScreenGroup[] => {
    const ids = keys.filter((key) => key.fixture === entry.name).map(repId);
    if (ids.length === 0) return [];
    return [
      {
        name: entry.name,
        tag: entry.tag ?? 'untagged',
        completed: completedOf(ids, state),
        screens: names.map((name) => countScreen(name, ids, byRep, errors)),
      },
    ];
  });
  const tags = (['dev', 'heldout', 'untagged'] as const).flatMap((tag): ScreenGroup[] => {
    const members = fixtures.filter((fixture) => fixture.tag === tag);
    if (members.length === 0) return [];
    return [
      {
        name: `total (${members.length} fixture${members.length === 1 ? '' : 's'})`,
        tag,
        completed: {
          completed: members.reduce((sum, member) => sum + member.completed.completed, 0),
          reps: members.reduce((sum, member) => sum + member.completed.reps, 0),
        },
        screens: names.map((name, index) =>
          pooled(
            name,
            members.map((member) => member.screens[index]!),
            errors,
          ),
        ),
      },
    ];
  });
  const everywhere = names.map((name, index) =>
    pooled(
      name,
      fixtures.map((fixture) => fixture.screens[index]!),
      errors,
    ),
  );
  return {
    file,
    errors,
    screens: names,
    fixtures,
    tags,
    neverFailed: everywhere.filter((counts) => counts.fail === 0 && counts.pass > 0).map((counts) => counts.screen),
    allPassed: fixtures
      .filter(
        (fixture) =>
          fixture.screens.some((counts) => counts.pass > 0) &&
          fixture.screens.every((counts) => counts.fail === 0 && counts.error === 0 && counts.blank === 0),
      )
      .map((fixture) => fixture.name),
  };
}

function completedOf(ids: readonly string[], state: RunState): Completed {
  return {
    completed: ids.filter((id) => {
      const record = state.records.get(id);
      return record !== undefined && !record.error;
    }).length,
    reps: ids.length,
  };
}

function countScreen(
  screen: string,
  ids: readonly string[],
  byRep: ReadonlyMap<string, ScreenRow>,
  errors: ErrorsPolicy,
): ScreenCounts {
  const counts = { pass: 0, fail: 0, unscored: 0, error: 0, blank: 0 };
  for (const id of ids) {
    const row = byRep.get(id);
    const entry = row?.screens.find((result) => result.screen === screen);
    if (!row) counts.blank++;
    // An errored rep lists the screens that apply to it; one left out did not apply.
    else if (!entry) counts.unscored++;
    else counts[entry.mark]++;
  }
  return withRates(screen, counts, errors);
}

function pooled(screen: string, parts: readonly ScreenCounts[], errors: ErrorsPolicy): ScreenCounts {
  const sum = (field: 'pass' | 'fail' | 'unscored' | 'error' | 'blank'): number =>
    parts.reduce((total, part) => total + part[field], 0);
  return withRates(
    screen,
    { pass: sum('pass'), fail: sum('fail'), unscored: sum('unscored'), error: sum('error'), blank: sum('blank') },
    errors,
  );
}

function withRates(
  screen: string,
  counts: { pass: number; fail: number; unscored: number; error: number; blank: number },
  errors: ErrorsPolicy,
): ScreenCounts {
  const { n, rate, rates } = ratesOf(counts, errors);
  return { screen, ...counts, denominator: n, rate, rates };
}

/** A rate's denominator under a policy (pass + fail, and error under `errors: fail`), the rate, and both readings. */
export function ratesOf(
  counts: { pass: number; fail: number; error: number },
  errors: ErrorsPolicy,
): { n: number; rate: number | null; rates: { exclude: number | null; fail: number | null } } {
  const excluded = counts.pass + counts.fail;
  const counted = excluded + counts.error;
  const rates = {
    exclude: excluded > 0 ? counts.pass / excluded : null,
    fail: counted > 0 ? counts.pass / counted : null,
  };
  return { n: errors === 'fail' ? counted : excluded, rate: rates[errors], rates };
}
