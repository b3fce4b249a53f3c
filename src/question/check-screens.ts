import type { RepRecord } from '../run-dir/rep-record.js';
import type { ScreenResult } from './screen-result.js';
import { checkRegex, shownPattern, termsOf } from './check-regex.js';
import type { Checks, TermList } from './checks-format.js';
import { addStateScreens } from './state-screens.js';

/** What a screen's test made of one record: the failures (none: it passed) and how many expectations it tested. */
export interface ScreenOutcome {
  failures: string[];
  count: number;
}

/** One check of a question as a named screen, with its own result per rep and so its own denominator. */
export interface Screen {
  name: string;
  /** Where the screen's definition sits in the question (`checks.mustContain`), for messages. */
  at: readonly PropertyKey[];
  /** The fixtures it applies to (names, `*` for any characters); absent: every fixture. */
  applies?: readonly string[] | undefined;
  test(record: RepRecord): ScreenOutcome;
}

/** Adds a screen: its own name when given (`named`), else `fallback`, numbered when it repeats. */
export type AddScreen = (fallback: string, named: string | undefined, screen: Omit<Screen, 'name'>) => void;

/**
 * Whether a term occurs in a text as a whole word or phrase, ignoring case: `Go` matches "GO." but not "ongoing".
 * Letters and digits of any script count as word characters, so "café" is not found inside "cafés".
 */
export function containsTerm(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * The screens of a question's checks, in order. One without a `name` gets its check's (`matches-2`), after `prefix`
 * (`transcript-`); a default name that repeats gets `-2`, `-3`.
 */
export function screensOf(checks: Checks, prefix = '', base: readonly PropertyKey[] = ['checks']): Screen[] {
  const screens: Screen[] = [];
  const taken = new Map<string, number>();
  const add: AddScreen = (fallback, named, screen) => {
    let name = named ?? `${prefix}${fallback}`;
    if (named === undefined) {
      const seen = (taken.get(name) ?? 0) + 1;
      taken.set(name, seen);
      if (seen > 1) name = `${name}-${seen}`;
    }
    screens.push({ name, ...screen });
  };
  const termScreen = (key: 'mustContain' | 'mustNotContain', fallback: string, present: boolean): void => {
    const list: TermList = checks[key];
    const terms = termsOf(list);
    if (terms.length === 0) return;
    const named = Array.isArray(list) ? undefined : (list as { name?: string; applies?: string[] });
    add(fallback, named?.name, {
      at: [...base, key],
      applies: named?.applies,
      test: (record) => {
        const response = record.response ?? '';
        const failures = terms
          .filter((term) => containsTerm(response, term) !== present)
          .map((term) => (present ? `does not contain "${term}"` : `contains "${term}"`));
        return { failures, count: terms.length };
      },
    });
  };
  termScreen('mustContain', 'must-contain', true);
  termScreen('mustNotContain', 'must-not-contain', false);
  const patternScreens = (key: 'matches' | 'mustNotMatch', fallback: string, present: boolean): void => {
    const entries = checks[key];
    for (const [index, entry] of entries.entries()) {
      const regex = checkRegex(entry);
      const named = typeof entry === 'string' ? undefined : entry;
      add(entries.length === 1 ? fallback : `${fallback}-${index + 1}`, named?.name, {
        at: [...base, key, index],
        applies: named?.applies,
        test: (record) => {
          const ok = regex.test(record.response ?? '') === present;
          return { failures: ok ? [] : [`${present ? 'does not match' : 'matches'} ${shownPattern(entry)}`], count: 1 };
        },
      });
    }
  };
  patternScreens('matches', 'matches', true);
  patternScreens('mustNotMatch', 'must-not-match', false);
  for (const [index, expectation] of checks.effects.inserted.entries())
    add(`inserted-${expectation.table}`, expectation.name, {
      at: [...base, 'effects', 'inserted', index],
      applies: expectation.applies,
      test: (record) => ({
        failures: insertedWith(record, expectation.table, expectation.nonEmpty)
          ? []
          : [describeInserted(expectation.table, expectation.nonEmpty)],
        count: 1,
      }),
    });
  for (const [index, rule] of (checks.facts ?? []).entries())
    add(`fact-${rule.fact}`, rule.name, {
      at: [...base, 'facts', index],
      applies: rule.applies,
      test: (record) => ({ failures: factFailures(rule, record), count: 1 }),
    });
  if (checks.state) addStateScreens(checks.state, base, add);
  const outside = checks.effects.noOutsideChanges;
  if (outside !== false) {
    const named = outside === true ? undefined : outside;
    add('no-outside-changes', named?.name, {
      at: [...base, 'effects', 'noOutsideChanges'],
      applies: named?.applies,
      test: (record) => {
        const changed = record.outside ?? [];
        const failures =
          record.outsideUnchecked !== undefined
            ? [`changes outside its campaign could not be checked (${record.outsideUnchecked})`]
            : changed.length > 0
              ? [`changed rows outside its campaign (${changed[0] ?? ''})`]
              : [];
        return { failures, count: 1 };
      },
    });
  }
  return screens;
}

// A fact rule against the response: the fact as the rep read it before its SUT call, stated, and no alternative named.
function factFailures(rule: NonNullable<Checks['facts']>[number], record: RepRecord): string[] {
  const read = record.facts?.[rule.fact];
  if (!read) return [`the fact ${rule.fact} was not read in this rep (the question's facts name it?)`];
  return factRuleFailures(rule, read.before, record.response ?? '');
}

/**
 * What a response gets wrong of a fact: not stating it (`mustState`), naming another of its alternatives
 * (`mustNotContradict`); empty when it agrees. A rep's fact rule and a rollout's probe read facts the same way.
 */
export function factRuleFailures(
  rule: { fact: string; mustState: boolean; mustNotContradict: boolean },
  read: { value: string | null; alternatives?: string[] },
  response: string,
): string[] {
  const value = read.value;
  const failures: string[] = [];
  if (rule.mustState && (value === null || !containsTerm(response, value)))
    failures.push(
      value === null ? `${rule.fact} is empty in the campaign` : `does not state ${rule.fact} ("${value}")`,
    );
  if (rule.mustNotContradict) {
    const others = (read.alternatives ?? []).filter(
      (alternative) => value === null || alternative.toLowerCase() !== value.toLowerCase(),
    );
    const named = others.filter((alternative) => containsTerm(response, alternative));
    if (named.length > 0)
      failures.push(
        `contradicts ${rule.fact}: names ${named.map((n) => `"${n}"`).join(', ')} where the campaign has "${value ?? ''}"`,
      );
  }
  return failures;
}

/** Whether a screen applies to a fixture: its `applies` list names it (or a `*` pattern matches) and no skip does. */
export function screenApplies(
  screen: Pick<Screen, 'name' | 'applies'>,
  fixture: string,
  skip: readonly string[] = [],
): boolean {
  if (skip.includes(screen.name)) return false;
  return screen.applies === undefined || screen.applies.some((pattern) => fixtureMatches(pattern, fixture));
}

/** A fixture name against an `applies` entry: the name itself, or a pattern whose `*` matches any characters. */
function fixtureMatches(pattern: string, fixture: string): boolean {
  if (!pattern.includes('*')) return pattern === fixture;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 'u').test(fixture);
}

/**
 * Each screen's result on one record (one that did not error): unscored where the screen does not apply to the
 * record's fixture, else pass or fail with the reason a person reads.
 */
export function screenResults(
  screens: readonly Screen[],
  record: RepRecord,
  skip: readonly string[] = [],
): (ScreenResult & { count: number })[] {
  return screens.map((screen) => {
    if (!screenApplies(screen, record.fixture, skip))
      return {
        screen: screen.name,
        mark: 'unscored' as const,
        reason: skip.includes(screen.name)
          ? `the question skips it for ${record.fixture}`
          : `applies to ${screen.applies!.join(', ')} only`,
        count: 0,
      };
    const { failures, count } = screen.test(record);
    const failed = failures.length > 0;
    const reason = failed ? failures.join('; ') : `${count} check(s) passed`;
    return { screen: screen.name, mark: failed ? ('fail' as const) : ('pass' as const), reason, count };
  });
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
