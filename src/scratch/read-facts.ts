import type { Queryable } from '../db/introspect.js';
import { TurnkitError } from '../errors.js';

/** A named fact of a question: read-only SQL over the campaign (`$1` its root key), and its alternatives' SQL. */
export interface FactQuery {
  sql: string;
  /** SQL whose rows' first column are the values the fact could have held (the other decks, the other places). */
  alternatives?: string | undefined;
}

/** A fact as read from a campaign: its value (the one row's first column, as text) and its alternatives. */
export interface FactValue {
  /** Never null as read (a NULL fact is the rep's error); null only where a probe could not read it. */
  value: string | null;
  alternatives?: string[];
}

/** How long one fact's SQL may run, in milliseconds: a fact is a lookup, not a report. */
const FACT_TIMEOUT_MS = 5_000;

/**
 * Reads each fact on a client already in a read-only transaction (the caller's), under a statement timeout: one row
 * exactly, or the fact is the rep's error, named (`fact "mess_hall_deck": returned 2 rows; a fact is one row`).
 */
export async function readFacts(
  client: Queryable,
  facts: Readonly<Record<string, FactQuery>>,
  rootKey: string,
): Promise<Record<string, FactValue>> {
  await client.query(`SET LOCAL statement_timeout = ${FACT_TIMEOUT_MS}`);
  const out: Record<string, FactValue> = {};
  for (const [name, fact] of Object.entries(facts)) {
    const rows = await query(client, name, fact.sql, rootKey);
    if (rows.length !== 1)
      throw new TurnkitError('BAD_INPUT', `fact "${name}": returned ${rows.length} rows; a fact is one row`);
    const value = firstColumn(rows[0]!);
    if (value === null) throw new TurnkitError('BAD_INPUT', `fact "${name}": is NULL; a fact is a value`);
    out[name] = { value };
    if (fact.alternatives !== undefined) {
      const alternatives = (await query(client, `${name}.alternatives`, fact.alternatives, rootKey))
        .map(firstColumn)
        .filter((value): value is string => value !== null);
      out[name].alternatives = [...new Set(alternatives)];
    }
  }
  return out;
}

/**
 * Runs each fact's SQL (and its alternatives') once before any rep, in a read-only transaction on the project's
 * database with `$1` NULL (no campaign: no row is read): SQL that does not parse, names a table or column the game
 * lacks, writes, or runs past the time limit is refused in one line naming the fact, `at(name)` its place.
 */
export async function checkFactQueries(
  pool: { connect(): Promise<Queryable & { release(): void }> },
  facts: Readonly<Record<string, FactQuery>>,
  at: (name: string) => string,
): Promise<void> {
  const client = await pool.connect();
  try {
    for (const [name, fact] of Object.entries(facts))
      for (const sql of [fact.sql, ...(fact.alternatives !== undefined ? [fact.alternatives] : [])]) {
        await client.query('BEGIN READ ONLY');
        try {
          await client.query(`SET LOCAL statement_timeout = ${FACT_TIMEOUT_MS}`);
          await client.query(sql, /\$1\b/.test(sql) ? [null] : []);
        } catch (error) {
          throw new TurnkitError('BAD_INPUT', `${at(name)}: ${(error as Error).message}`);
        } finally {
          await client.query('ROLLBACK');
        }
      }
  } finally {
    client.release();
  }
}

async function query(
  client: Queryable,
  name: string,
  sql: string,
  rootKey: string,
): Promise<Record<string, unknown>[]> {
  try {
    // $1 is given only to SQL that uses it: Postgres refuses a parameter a statement does not use.
    const result = await client.query(sql, /\$1\b/.test(sql) ? [rootKey] : []);
    return result.rows as Record<string, unknown>[];
  } catch (error) {
    throw new TurnkitError('BAD_INPUT', `fact "${name}": ${(error as Error).message}`);
  }
}

function firstColumn(row: Record<string, unknown>): string | null {
  const value = Object.values(row)[0];
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : JSON.stringify(value);
}
