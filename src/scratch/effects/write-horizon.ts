import { quoteIdent } from '../../db/quote.js';

// What "written since" means, for each reader of it: a rollout turn's effects, the turn row turnkit writes with
// them, and the rows a rep wrote outside its campaign.

/** The write horizon now, a 32-bit transaction id: a row whose `xmin` is at or past it was written after this moment. */
export const HORIZON_NOW = `(pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296)`;

/** The horizon just past the current transaction (its id + 1): its own writes fall before it, later ones' at or past. */
export const HORIZON_PAST_OWN = `((pg_current_xact_id()::text::bigint + 1) % 4294967296)`;

/** The horizon alone (no parameters), for a simple query of several statements to end with (`horizonFrom`). */
export const WRITE_HORIZON_SQL = `SELECT ${HORIZON_NOW}::text AS h`;

/** The horizon from the results of a simple query whose last statement is `WRITE_HORIZON_SQL`. */
export function horizonFrom(results: { rows: unknown[] } | readonly { rows: unknown[] }[]): string {
  const last = Array.isArray(results) ? results.at(-1)! : (results as { rows: unknown[] });
  return (last.rows[0] as { h: string }).h;
}

/** Row `t`'s key as the readers of written rows spell it: its identity columns as text, joined by commas. */
export function rowKeySql(columns: readonly string[]): string {
  return columns.map((column) => `t.${quoteIdent(column)}::text`).join(` || ',' || `);
}

/** Row `t` written at or past the horizon in `parameter`, modulo 2^32 (wraparound-safe); ids 0-2 are older than any. */
export function writtenSince(parameter: string): string {
  return `t.xmin::text::bigint > 2 AND ((t.xmin::text::bigint - ${parameter}::bigint) % 4294967296 + 4294967296) % 4294967296 < 2147483648`;
}
