import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/connect.js';
import { sharesOneSession } from '../db/backend-traits.js';
import { quoteIdent } from '../db/quote.js';
import { inTransaction, type BeginResult } from '../db/transaction.js';

/** The most statements one connection keeps prepared for scratch campaigns; later new ones go unnamed. */
export const MAX_NAMED_PER_CONNECTION = 128;
/** The most statement texts counted per connection while deciding which to name. */
const MAX_COUNTED_PER_CONNECTION = 1_024;

/** What a connection has prepared for scratch campaigns, and which texts it has seen. */
interface ConnectionNames {
  /** Unique to this connection (and renewed when its names are dropped): PGlite runs every connection, of every
   * process, in its one session. */
  token: string;
  /** Texts seen once, by hash. */
  seen: Set<string>;
  /** Texts prepared under a name, by hash. */
  named: Set<string>;
  /** Set when the server lost or clashed with a name: from then on every statement here goes unnamed. */
  unnamed: boolean;
}

const connections = new WeakMap<object, ConnectionNames>();
// Per database, what its connections named: on a server whose connections share one session, the names outlive the
// connections that made them, and `dropNamedStatements` drops them when the work that made them ends.
const byDb = new WeakMap<Db, Set<ConnectionNames>>();

function namesOf(db: Db, client: object): ConnectionNames {
  let names = connections.get(client);
  if (!names) {
    names = { token: randomBytes(4).toString('hex'), seen: new Set(), named: new Set(), unnamed: false };
    connections.set(client, names);
    if (sharesOneSession(db)) {
      let all = byDb.get(db);
      if (!all) byDb.set(db, (all = new Set()));
      all.add(names);
    }
  }
  return names;
}

/**
 * Drops the statements this process's connections named on a server whose connections share one session (the
 * embedded server, where a run's names would otherwise stay in PGlite's one session after the run, and a guest
 * process's after it exits). Best effort: a connection whose name is gone later prepares it again. Call it when no
 * scratch transaction of this process is running on `db` (a scratch session's close).
 */
export async function dropNamedStatements(db: Db): Promise<void> {
  const all = byDb.get(db);
  if (!all) return;
  const names = [...all].flatMap((entry) => [...entry.named].map((hash) => `tk_${entry.token}_${hash}`));
  // The connections stay known: what they name from now on is dropped at the next close. Under a new token, because
  // node-postgres remembers which names a client has parsed and would bind a dropped one without parsing it again.
  for (const entry of all) {
    entry.named.clear();
    entry.token = randomBytes(4).toString('hex');
  }
  if (names.length === 0) return;
  // Only those the server still holds (a SUT's DEALLOCATE ALL may have dropped some): one missing would end the list.
  try {
    const held = await db.pool.query<{ name: string }>(
      'SELECT name FROM pg_prepared_statements WHERE name = ANY($1::text[])',
      [names],
    );
    if (held.rows.length > 0)
      await db.pool.query(held.rows.map((row) => `DEALLOCATE ${quoteIdent(row.name)}`).join('; '));
  } catch {
    // Left in the session: later connections name theirs with tokens of their own.
  }
}

/**
 * Runs `fn` inside a transaction opened with `begin` (as `inTransaction`), where every statement with parameters
 * that this connection has sent before goes as a named statement: the server keeps it parsed, analysed and planned
 * for the session, and the next rep only binds and executes it. A rep sends the same twenty statements every time
 * (the key lists travel as parameters), and on the embedded database parsing and planning them was about a third of
 * their CPU (bench:rep: a seed 13.2 against 9.2 ms, a teardown 22.8 against 14.8, named). A text is named on its
 * second use, so a statement sent once (a one-off shape) never takes room on the server, and at most
 * MAX_NAMED_PER_CONNECTION are kept per connection.
 *
 * Names carry a token of the connection's: on the embedded server every connection (turnkit's, its SUTs', another
 * turnkit process's) shares PGlite's one session, so two connections must never prepare the same name. When the
 * server does not hold a name the connection prepared (a SUT's `DEALLOCATE ALL` in that shared session, a pooler
 * that moved the connection) or holds it already, the statement fails, the transaction rolls back whole, and `fn`
 * runs again, on a connection whose statements go unnamed from then on (at most three times more: the pool may hand
 * out another connection that lost a name too). `fn` must be safe to run again after a rollback (every transaction
 * of a seed or a teardown is).
 */
export async function inScratchTransaction<T>(
  db: Db,
  begin: string,
  fn: (client: pg.PoolClient, opened: BeginResult) => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    let lost: ConnectionNames | undefined;
    try {
      return await inTransaction(db, begin, (client, opened) =>
        fn(
          naming(db, client, (names) => {
            lost = names;
          }),
          opened,
        ),
      );
    } catch (error) {
      // Whatever the error became on its way out (a combined write's, a seed's message), a lost name started it.
      if (!lost || attempt >= 3) throw error;
      lost.unnamed = true;
    }
  }
}

/** The client, with its `query` sending statements named where it can; `onLost` hears a name the server lost. */
function naming(db: Db, client: pg.PoolClient, onLost: (names: ConnectionNames) => void): pg.PoolClient {
  const names = namesOf(db, client);
  const query = (...args: unknown[]): unknown => {
    const named = names.unnamed ? undefined : withName(names, args);
    if (!named) return (client.query as (...a: unknown[]) => unknown)(...args);
    const result = client.query(named) as Promise<unknown>;
    return result.catch((error: unknown) => {
      if (isNameError(error)) onLost(names);
      throw error;
    });
  };
  return new Proxy(client, {
    get(target, property) {
      if (property === 'query') return query;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The query config of a call with parameters (text and values, or a config with both) given the name of its text,
 * when that text was seen before on this connection; undefined to send the call as it is. A call without
 * parameters goes as it is: it may hold several statements, which only the simple protocol runs.
 */
function withName(names: ConnectionNames, args: unknown[]): pg.QueryConfig | undefined {
  if (args.some((arg) => typeof arg === 'function')) return undefined;
  const [first, second] = args;
  let config: pg.QueryConfig;
  if (typeof first === 'string') config = { text: first, values: second as unknown[] };
  else if (first && typeof first === 'object' && typeof (first as pg.QueryConfig).text === 'string')
    config = { ...(first as pg.QueryConfig), ...(Array.isArray(second) ? { values: second } : {}) };
  else return undefined;
  if (config.name || !Array.isArray(config.values) || config.values.length === 0) return undefined;
  const hash = createHash('sha256').update(config.text).digest('hex').slice(0, 24);
  if (!names.named.has(hash)) {
    if (!names.seen.has(hash)) {
      if (names.seen.size < MAX_COUNTED_PER_CONNECTION) names.seen.add(hash);
      return undefined;
    }
    if (names.named.size >= MAX_NAMED_PER_CONNECTION) return undefined;
    names.named.add(hash);
  }
  return { ...config, name: `tk_${names.token}_${hash}` };
}

// 26000 invalid_sql_statement_name (the server has no such statement), 42P05 duplicate_prepared_statement, and a
// kept plan whose tables changed shape under it (feature_not_supported, "cached plan must not change result type").
function isNameError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    code === '26000' ||
    code === '42P05' ||
    (code === '0A000' && typeof message === 'string' && /cached plan/.test(message))
  );
}
