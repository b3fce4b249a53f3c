import type { RepRecord } from '../run-dir/rep-record.js';
import type { EffectsSummary, UpdatedRow } from '../scratch/effects/scratch-effects.js';
import { checkRegex, shownPattern } from './check-regex.js';
import type { AddScreen, ScreenOutcome } from './check-screens.js';
import type { StateChecks, TableExpectation, ValuePredicate } from './checks-format.js';

/**
 * Adds the screens of `checks.state`, read from the rep's recorded effects: one per table named (`state-TABLE`), and
 * `state-only-changes` when no other table may change. A change to a volatile column is no change.
 */
export function addStateScreens(state: StateChecks, base: readonly PropertyKey[], add: AddScreen): void {
  const volatile = (table: string, column: string): boolean =>
    state.volatile.includes(column) || state.volatile.includes(`${table}.${column}`);
  for (const [table, expectation] of Object.entries(state.tables)) {
    const named = expectation === 'unchanged' ? undefined : expectation;
    add(`state-${table}`, named?.name, {
      at: [...base, 'state', 'tables', table],
      applies: named?.applies,
      test: (record) => withEffects(record, (effects) => tableFailures(table, expectation, effects, volatile)),
    });
  }
  if (state.onlyChanges !== false) {
    const named = state.onlyChanges === true ? undefined : state.onlyChanges;
    const allowed = new Set(Object.keys(state.tables));
    add('state-only-changes', named?.name, {
      at: [...base, 'state', 'onlyChanges'],
      applies: named?.applies,
      test: (record) =>
        withEffects(record, (effects) => {
          const failures: string[] = [];
          for (const table of changedTables(effects)) {
            if (allowed.has(table)) continue;
            const change = changeOf(table, effects, volatile);
            if (change)
              failures.push(
                `${table}: ${change}, and the question lets only ${[...allowed].join(', ') || 'no table'} change`,
              );
          }
          return failures;
        }),
    });
  }
}

function withEffects(record: RepRecord, failuresOf: (effects: EffectsSummary) => string[]): ScreenOutcome {
  if (!record.effects) return { failures: ["the rep recorded no effects (its SUT's changes were not read)"], count: 1 };
  return { failures: failuresOf(record.effects), count: 1 };
}

type Volatile = (table: string, column: string) => boolean;

function tableFailures(
  table: string,
  expectation: TableExpectation,
  effects: EffectsSummary,
  volatile: Volatile,
): string[] {
  if (expectation === 'unchanged') {
    const change = changeOf(table, effects, volatile);
    return change ? [`${table}: ${change}, expected unchanged`] : [];
  }
  const failures: string[] = [];
  const counts = {
    inserted: effects.inserted[table] ?? 0,
    updated: realUpdates(table, effects, volatile).count,
    deleted: effects.deleted[table] ?? 0,
  };
  for (const kind of ['inserted', 'updated', 'deleted'] as const) {
    const wanted = expectation[kind];
    if (wanted === undefined) continue;
    const problem = countProblem(counts[kind], wanted);
    if (problem) failures.push(`${table}: ${kind} ${counts[kind]} row(s), expected ${problem}`);
  }
  for (const row of expectation.rows ?? []) failures.push(...rowFailures(table, row, effects));
  return failures;
}

// What changed of a table, ignoring volatile columns: "1 row inserted; [id=3] updated (location_id)"; undefined
// when nothing did. Values are never shown: a column the game scrubs would print a player's data.
function changeOf(table: string, effects: EffectsSummary, volatile: Volatile): string | undefined {
  const parts: string[] = [];
  const inserted = effects.inserted[table] ?? 0;
  if (inserted > 0) parts.push(`${inserted} row(s) inserted`);
  const updates = realUpdates(table, effects, volatile);
  if (updates.count > 0)
    parts.push(
      updates.rows.length > 0
        ? `${updates.count} row(s) updated (${updates.rows
            .slice(0, 3)
            .map(
              (row) =>
                `${keyText(row.key)} ${Object.keys(row.changed)
                  .filter((c) => !volatile(table, c))
                  .join(', ')}`,
            )
            .join('; ')})`
        : `${updates.count} row(s) updated`,
    );
  const deleted = effects.deleted[table] ?? 0;
  if (deleted > 0) {
    const keys = (effects.deletedRows?.[table] ?? []).slice(0, 3).map(keyText);
    parts.push(`${deleted} row(s) deleted${keys.length > 0 ? ` (${keys.join(', ')})` : ''}`);
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

// Updated rows that changed more than volatile columns. Rows beyond those recorded count as changed: their columns
// are unknown, and a check that cannot tell must not pass them.
function realUpdates(
  table: string,
  effects: EffectsSummary,
  volatile: Volatile,
): { count: number; rows: UpdatedRow[] } {
  const total = effects.updated[table] ?? 0;
  const recorded = effects.updatedRows?.[table];
  if (!recorded) return { count: total, rows: [] };
  const rows = recorded.filter((row) => Object.keys(row.changed).some((column) => !volatile(table, column)));
  return { count: rows.length + Math.max(0, total - recorded.length), rows };
}

function changedTables(effects: EffectsSummary): string[] {
  return [
    ...new Set([...Object.keys(effects.inserted), ...Object.keys(effects.updated), ...Object.keys(effects.deleted)]),
  ].sort();
}

function countProblem(
  found: number,
  wanted: number | { min?: number | undefined; max?: number | undefined },
): string | undefined {
  if (typeof wanted === 'number') return found === wanted ? undefined : String(wanted);
  const { min, max } = wanted;
  if ((min === undefined || found >= min) && (max === undefined || found <= max)) return undefined;
  return min === undefined ? `at most ${max}` : max === undefined ? `at least ${min}` : `${min} to ${max}`;
}

type ExpectedRow = NonNullable<Exclude<TableExpectation, 'unchanged'>['rows']>[number];

// A keyed row: the inserted row of that key, or the updated one with each expected column among those it set. An
// unkeyed row: some inserted row holding every expected value; else the closest one's mismatches are named.
function rowFailures(table: string, expected: ExpectedRow, effects: EffectsSummary): string[] {
  const { key, ...columns } = expected;
  const predicates = Object.entries(columns) as [string, ValuePredicate][];
  const inserted = effects.insertedRows[table] ?? [];
  if (key) {
    const where = `${table}${keyText(key)}`;
    const insertedRow = inserted.find((row) => sameKey(row, key));
    if (insertedRow) return mismatches(where, predicates, (column) => ({ found: true, value: insertedRow[column] }));
    const updated = effects.updatedRows?.[table]?.find((row) => sameKey(row.key, key));
    if (!updated) return [`${where}: not inserted or updated by the SUT`];
    return mismatches(where, predicates, (column) =>
      Object.hasOwn(updated.changed, column)
        ? { found: true, value: updated.changed[column]!.after }
        : { found: false },
    );
  }
  if (inserted.length === 0) return [`${table}: no row inserted, expected one with ${describe(predicates)}`];
  const tried = inserted.map((row) =>
    mismatches(`${table}[inserted]`, predicates, (column) => ({ found: true, value: row[column] })),
  );
  if (tried.some((problems) => problems.length === 0)) return [];
  return tried.reduce((best, problems) => (problems.length < best.length ? problems : best));
}

function mismatches(
  where: string,
  predicates: readonly [string, ValuePredicate][],
  read: (column: string) => { found: boolean; value?: unknown },
): string[] {
  const failures: string[] = [];
  for (const [column, predicate] of predicates) {
    const got = read(column);
    if (!got.found) failures.push(`${where}.${column}: expected ${describeValue(predicate)}, not changed by the SUT`);
    else if (!holds(predicate, got.value))
      failures.push(`${where}.${column}: expected ${describeValue(predicate)}, found ${shownValue(got.value)}`);
  }
  return failures;
}

/** Whether a value meets a predicate; numbers compare by value, so `25` and `"25.0"` (a numeric column) are equal. */
function holds(predicate: ValuePredicate, value: unknown): boolean {
  if (predicate === null || typeof predicate !== 'object') return sameValue(predicate, value);
  if ('matches' in predicate) return typeof value === 'string' && checkRegex(predicate.matches).test(value);
  if ('oneOf' in predicate) return predicate.oneOf.some((option) => sameValue(option, value));
  return value !== null && value !== undefined && !(typeof value === 'string' && value.trim() === '');
}

function sameValue(expected: string | number | boolean | null, value: unknown): boolean {
  if (expected === null) return value === null || value === undefined;
  if (expected === value) return true;
  const numeric = (x: unknown): number | undefined =>
    typeof x === 'number'
      ? x
      : typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))
        ? Number(x)
        : undefined;
  const a = numeric(expected);
  const b = numeric(value);
  if (a !== undefined && b !== undefined) return a === b;
  return typeof value === 'object' && value !== null ? false : String(value) === String(expected);
}

function sameKey(row: Record<string, unknown>, key: Record<string, string | number | boolean | null>): boolean {
  return Object.entries(key).every(([column, value]) => sameValue(value, row[column]));
}

function keyText(key: Record<string, unknown>): string {
  return `[${Object.entries(key)
    .map(([column, value]) => `${column}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ')}]`;
}

function describe(predicates: readonly [string, ValuePredicate][]): string {
  return predicates.map(([column, predicate]) => `${column} ${describeValue(predicate)}`).join(', ') || 'any values';
}

function describeValue(predicate: ValuePredicate): string {
  if (predicate === null || typeof predicate !== 'object') return JSON.stringify(predicate);
  if ('matches' in predicate) return `matching ${shownPattern(predicate.matches)}`;
  if ('oneOf' in predicate) return `one of ${predicate.oneOf.map((v) => JSON.stringify(v)).join(', ')}`;
  return 'a non-empty value';
}

// What the SUT wrote, shown short: a long narration is cut (the screen's reason is capped anyway).
function shownValue(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
