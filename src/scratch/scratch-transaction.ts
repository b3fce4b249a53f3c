import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/connect.js';
import { inTransaction, type BeginResult } from '../db/transaction.js';

/** The most statements one connection keeps prepared for scratch campaigns; later new ones go unnamed. */
const MAX_NAMED_PER_CONNECTION = 128;
/** The most statement texts counted per connection while deciding which to name. */
const MAX_COUNTED_PER_CONNECTION = 1_024;

/** What a connection has prepared for scratch campaigns, and which texts it has seen. */
interface ConnectionNames {
  /** Texts seen once, by hash. */
  seen: Set<string>;
  /** Texts prepared under a name, by hash. */
  named: Set<string>;
  /** Set when the server lost or clashed with a name: from then on every statement here goes unnamed. */
  unnamed: boolean;
}

const connections = new WeakMap<object, ConnectionNames>();

function namesOf(client: object): ConnectionNames {
  let names = connections.get(client);
  if (!names) {
    names = { seen: new Set(), named: new Set(), unnamed: false };
    connections.set(client, names);
  }
  return names;
}

/**
 * Runs `fn` inside a transaction opened with `begin` (as `inTransaction`), where a statement with parameters this
 * connection sent before goes named (its text's hash), so the server parses and plans it once per session: a rep
 * sends the same twenty statements every time, and planning them was about a third of their CPU (bench:rep). A text
 * is named on its second use, at most MAX_NAMED_PER_CONNECTION per connection. When the server lost or already holds
 * a name (a pooler moved the connection), the transaction rolls back and `fn` runs again, up to three times more, on
 * a connection whose statements go unnamed from then on: `fn` must be safe to run again after a rollback.
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
          naming(client, (names) => {
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
function naming(client: pg.PoolClient, onLost: (names: ConnectionNames) => void): pg.PoolClient {
  const names = namesOf(client);
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
  return { ...config, name: `tk_${hash}` };
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
