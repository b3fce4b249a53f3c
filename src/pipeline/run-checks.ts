import { checkRegex, type Checks, type RegexEntry } from '../question/checks-format.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from '../run-dir/screen-result.js';

/** What the checks made of one rep: its mark and the reason, one line. */
export interface CheckVerdict {
  mark: 'pass' | 'fail' | 'error';
  reason: string;
}

/**
 * Whether a term occurs in a text as a whole word or phrase, ignoring case: `Go` matches "GO." but not "ongoing".
 * Letters and digits of any script count as word characters, so "café" is not found inside "cafés".
 */
export function containsTerm(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * Applies a question's checks to a rep, with the results of its other screens (tool rules, hidden rows: see
 * rep-screens.ts) folded in: a failed screen fails the rep and is named. Every failed check is named; an errored rep
 * stays an error; an unscored screen counts neither way.
 */
export function applyChecks(
  checks: Checks | undefined,
  record: RepRecord,
  screens: readonly ScreenResult[] = [],
): CheckVerdict {
  if (record.error)
    return {
      mark: 'error',
      reason: `${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200),
    };
  const response = record.response ?? '';
  const failed: string[] = [];
  let count = 0;
  const expect = (ok: boolean, description: string): void => {
    count++;
    if (!ok) failed.push(description);
  };
  for (const screen of screens)
    if (screen.mark !== 'unscored') expect(screen.mark === 'pass', `${screen.screen}: ${screen.reason}`);
  const unscored = screens.filter((screen) => screen.mark === 'unscored').length;
  if (!checks) return verdictOf(failed, count, unscored);
  for (const term of checks.mustContain) expect(containsTerm(response, term), `does not contain "${term}"`);
  for (const term of checks.mustNotContain) expect(!containsTerm(response, term), `contains "${term}"`);
  for (const entry of checks.matches) expect(checkRegex(entry).test(response), `does not match ${shown(entry)}`);
  for (const entry of checks.mustNotMatch) expect(!checkRegex(entry).test(response), `matches ${shown(entry)}`);
  for (const expectation of checks.effects.inserted)
    expect(
      insertedWith(record, expectation.table, expectation.nonEmpty),
      describeInserted(expectation.table, expectation.nonEmpty),
    );
  if (checks.effects.noOutsideChanges) {
    if (record.outsideUnchecked !== undefined)
      expect(false, `changes outside its campaign could not be checked (${record.outsideUnchecked})`);
    else
      expect(
        (record.outside ?? []).length === 0,
        `changed rows outside its campaign (${(record.outside ?? [])[0] ?? ''})`,
      );
  }
  return verdictOf(failed, count, unscored);
}

// An unscored screen is said, never counted among the passed ones.
function verdictOf(failed: readonly string[], count: number, unscored: number): CheckVerdict {
  if (failed.length > 0) return { mark: 'fail', reason: failed.join('; ') };
  return { mark: 'pass', reason: `${count} check(s) passed${unscored > 0 ? `, ${unscored} unscored` : ''}` };
}

function shown(entry: RegexEntry): string {
  return typeof entry === 'string' ? `/${entry}/` : `/${entry.pattern}/${entry.flags ?? ''}`;
}

// The run keeps a few inserted rows per table as the SUT wrote them; the counts cover the rest.
function insertedWith(record: RepRecord, table: string, nonEmpty: readonly string[]): boolean {
  if ((record.effects?.inserted[table] ?? 0) === 0) return false;
  if (nonEmpty.length === 0) return true;
  return (record.effects?.insertedRows[table] ?? []).some((row) => nonEmpty.every((column) => isNonEmpty(row[column])));
}

function describeInserted(table: string, nonEmpty: readonly string[]): string {
  return nonEmpty.length === 0
    ? `inserted no ${table} row`
    : `inserted no ${table} row with non-empty ${nonEmpty.join(', ')}`;
}

function isNonEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
