import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { TurnkitError } from '../errors.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/**
 * The embedded server's password: made anew each time a server starts, kept in its data directory readable by its
 * owner only (0600), so that turnkit processes of the same user (guests, `turnkit db url`) can join and no other
 * local user can. It goes to SUTs inside their DATABASE_URL and is never printed or written anywhere else.
 */
const PASSWORD_FILE = 'turnkit-password';

/** Path of the password file inside an embedded data directory. */
export function serverPasswordPath(dataDir: string): string {
  return join(dataDir, PASSWORD_FILE);
}

/** Makes a new password (192 random bits, URL-safe) and writes it owner-only into the data directory. */
export async function newServerPassword(dataDir: string): Promise<string> {
  const password = randomBytes(24).toString('base64url');
  await writeFileAtomic(serverPasswordPath(dataDir), `${password}\n`, { mode: 0o600 });
  return password;
}

/** Reads the running server's password; a one-line error naming the file when it cannot. */
export async function readServerPassword(dataDir: string): Promise<string> {
  const path = serverPasswordPath(dataDir);
  try {
    const password = (await readFile(path, 'utf8')).trim();
    if (password) return password;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new TurnkitError('DATABASE', `${path}: cannot read the embedded database's password (${code})`);
  }
  throw new TurnkitError('DATABASE', `${path}: the embedded database's password file is empty`);
}

/** Removes the password file as its server closes: a data directory at rest holds no password. */
export async function removeServerPassword(dataDir: string): Promise<void> {
  await rm(serverPasswordPath(dataDir), { force: true });
}
