import type { Queryable } from '../../db/introspect.js';
import { quoteIdent, quoteLiteral } from '../../db/quote.js';
import { currentProcess, processState, type ProcessIdentity } from '../../util/process/process-identity.js';

// What a database turnkit made for a process of its own says about it (its comment): who made it and for what, so
// that gc can tell one a killed process left from one in use.
interface OwnerNote {
  turnkit: 'owned-database';
  purpose: string;
  /** The database it was made from (the project's): gc of that database looks after it, not gc of another. */
  from: string;
  owner: Omit<ProcessIdentity, 'startedAt'> & { startedAt: string };
}

/** A database a killed process left, as gc reports it. */
export interface OrphanDatabase {
  name: string;
  purpose: string;
  reason: string;
}

/**
 * Creates a database for this process alone (an upgrade's scratch database) and records in its comment who made it,
 * so that `gc` finds it if the process is killed before it drops it.
 */
export async function createOwnedDatabase(client: Queryable, name: string, purpose: string): Promise<void> {
  await client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE template0`);
  const owner = currentProcess();
  const from = (await client.query<{ name: string }>('SELECT current_database()::text AS name')).rows[0]!.name;
  const note: OwnerNote = {
    turnkit: 'owned-database',
    purpose,
    from,
    owner: { ...owner, startedAt: owner.startedAt.toISOString() },
  };
  await client.query(`COMMENT ON DATABASE ${quoteIdent(name)} IS ${quoteLiteral(JSON.stringify(note))}`);
}

/**
 * Drops the databases made by createOwnedDatabase from the connected database whose process is gone: an upgrade
 * killed with -9 leaves its scratch database on the server. One whose process may still run on another host is
 * dropped only with `all`; one whose process runs here never is (it is in use).
 */
export async function dropOrphanDatabases(
  client: Queryable,
  options: { all?: boolean } = {},
): Promise<OrphanDatabase[]> {
  const { rows } = await client.query<{ name: string; note: string | null; here: string }>(
    `SELECT datname::text AS name, shobj_description(oid, 'pg_database') AS note, current_database()::text AS here
     FROM pg_database WHERE datname LIKE 'turnkit\\_%' ORDER BY datname`,
  );
  const dropped: OrphanDatabase[] = [];
  for (const { name, note, here } of rows) {
    const parsed = parseNote(note);
    if (!parsed || parsed.from !== here) continue;
    const state = processState(parsed.owner);
    if (state === 'alive' || (state === 'unknown' && !options.all)) continue;
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    dropped.push({
      name,
      purpose: parsed.purpose,
      reason:
        state === 'gone'
          ? `process ${parsed.owner.pid} on ${parsed.owner.host} is gone`
          : `--all (${parsed.owner.host})`,
    });
  }
  return dropped;
}

function parseNote(note: string | null): OwnerNote | undefined {
  if (!note) return undefined;
  try {
    const parsed = JSON.parse(note) as OwnerNote;
    return parsed?.turnkit === 'owned-database' && typeof parsed.owner?.pid === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
