import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/** Where a project's embedded server keeps its folder (the config's default `database.embedded.dataDir`). */
export const EMBEDDED_STATE = join('.turnkit', 'postgres');

/**
 * Gives a project folder the embedded server's folder of the global setup's template (`sample`: the sample game's
 * schema migrated; `empty`: nothing yet), so that its first command starts a server rather than running initdb.
 * `cp -a` keeps the data directory's owner (as root, the server's account) and modes, which PostgreSQL checks; the
 * project folder is opened to that account (0755), as a test folder of mkdtemp's is not (0700): else, as root,
 * turnkit would move the cluster out to /var/lib/turnkit (see server-place.ts), which its own tests cover.
 */
export async function copyEmbedded(project: string, kind: 'sample' | 'empty' = 'sample'): Promise<void> {
  // The test's own folders up to the system's temporary folder (a runner folder inside a test's root, say).
  for (let dir = resolve(project); dir.startsWith(`${tmpdir()}${sep}`); dir = dirname(dir)) await chmod(dir, 0o755);
  await mkdir(join(project, '.turnkit'), { recursive: true, mode: 0o755 });
  await run('cp', [
    '-a',
    inject(kind === 'sample' ? 'embeddedSampleTemplate' : 'embeddedTemplate'),
    join(project, EMBEDDED_STATE),
  ]);
}
