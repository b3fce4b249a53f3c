import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { promisify } from 'node:util';
import { TurnkitError } from '../../errors.js';

const run = promisify(execFile);

/** The user the server runs as when turnkit runs as root (PostgreSQL refuses to run as root). */
export interface ServerAccount {
  name: string;
  uid: number;
  gid: number;
}

/** The account the embedded server runs as as root: PostgreSQL's customary one. */
const SERVER_ACCOUNT_NAME = 'postgres';

/**
 * Who the server runs as: undefined when turnkit is not root (the server runs as the user who runs turnkit); as root,
 * the `postgres` account, created as a system account without a home or a login shell when the machine has none.
 */
export async function serverAccount(currentUid: number | undefined): Promise<ServerAccount | undefined> {
  if (currentUid !== 0) return undefined;
  const found = await lookup(SERVER_ACCOUNT_NAME);
  if (found) return found;
  try {
    await run('useradd', [
      '--system',
      '--user-group',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      SERVER_ACCOUNT_NAME,
    ]);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    throw new TurnkitError(
      'DATABASE',
      `PostgreSQL does not run as root and the user ${SERVER_ACCOUNT_NAME} could not be created (${message}): create it, or run turnkit as another user`,
    );
  }
  const made = await lookup(SERVER_ACCOUNT_NAME);
  if (!made) throw new TurnkitError('DATABASE', `the user ${SERVER_ACCOUNT_NAME} was created but cannot be found`);
  return made;
}

async function lookup(name: string): Promise<ServerAccount | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * Whether the account can reach `path`: it may enter every folder above it (by owner, group or others' search bit;
 * ACLs and supplementary groups are not consulted, so the answer errs on "no"). A folder that does not exist yet
 * counts as reachable: turnkit makes it, traversable.
 */
export function reachableBy(path: string, account: ServerAccount): boolean {
  let dir = dirname(resolve(path));
  for (;;) {
    let stats: ReturnType<typeof statSync> | undefined;
    try {
      stats = statSync(dir);
    } catch {
      stats = undefined;
    }
    if (stats) {
      const bits =
        stats.uid === account.uid
          ? (stats.mode >> 6) & 1
          : stats.gid === account.gid
            ? (stats.mode >> 3) & 1
            : stats.mode & 1;
      if (!bits) return false;
    }
    const up = dirname(dir);
    if (up === dir) return true;
    dir = up;
  }
}
