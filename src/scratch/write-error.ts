import { TurnkitError } from '../errors.js';
import { formatJsonPath } from '../util/json/json-source.js';
import type { FixtureRow } from '../fixture/format.js';

/** The fields of a Postgres error that say what went wrong and where. */
interface PgError {
  message?: string;
  code?: string;
  constraint?: string;
  detail?: string;
}

/**
 * Turns a failed write of a fixture table into a one-line error: the fixture file and the JSON path of the row
 * when it can be found (a unique conflict names its key values), the constraint, and Postgres's own detail.
 */
export function describeRowWriteError(
  error: unknown,
  action: string,
  table: string,
  file: string,
  rows: readonly FixtureRow[],
  rowsKey = 'rows',
): TurnkitError {
  if (error instanceof TurnkitError) return error;
  const err = (error ?? {}) as PgError;
  const message = err.message ?? String(error);
  let where = formatJsonPath(['tables', table]);
  const conflict = err.code === '23505' ? conflictingRow(err.detail, rows) : undefined;
  if (conflict !== undefined) where = formatJsonPath(['tables', table, rowsKey, conflict]);
  const why =
    err.code === '23505'
      ? `unique constraint "${err.constraint}" conflicts with a row already in the database${err.detail ? ` (${err.detail})` : ''}`
      : `${message}${err.constraint ? ` (constraint "${err.constraint}")` : ''}${err.detail ? ` (${err.detail})` : ''}`;
  return new TurnkitError(
    'DATABASE',
    `${file}: ${where}: ${action} "${table}": ${why}${err.code ? ` [SQLSTATE ${err.code}]` : ''}`,
  );
}

/** Index of the fixture row whose values match `Key (a, b)=(1, x) already exists.`, when there is exactly one. */
function conflictingRow(detail: string | undefined, rows: readonly FixtureRow[]): number | undefined {
  const match = /^Key \((.+)\)=\((.*)\) already exists\.?$/.exec(detail ?? '');
  if (!match) return undefined;
  const columns = match[1]!.split(', ').map((name) => name.replace(/^"|"$/g, ''));
  const values = match[2]!.split(', ');
  if (columns.length !== values.length) return undefined;
  const hits = rows.flatMap((row, i) => (columns.every((column, j) => String(row[column]) === values[j]) ? [i] : []));
  return hits.length === 1 ? hits[0] : undefined;
}
