import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/** Where a project's embedded server keeps its folder (the config's default `database.embedded.dataDir`). */
export const EMBEDDED_STATE = join('.turnkit', 'postgres');

/**
 * Gives a project folder the embedded server's folder of the global setup's template (`sample`: the sample game's
 * schema migrated; `empty`: nothing yet), so that its first command starts a server rather than running initdb.
 * `cp -a` keeps the data directory's owner (as root, the server's account) and modes, which PostgreSQL checks; the
 * project folder is opened to that account (0755), as a test folder of mkdtemp's is not (0700).
 */
export async function copyEmbedded(project: string, kind: 'sample' | 'empty' = 'sample'): Promise<void> {
  await chmod(project, 0o755);
  await mkdir(join(project, '.turnkit'), { recursive: true, mode: 0o755 });
  await run('cp', [
    '-a',
    inject(kind === 'sample' ? 'embeddedSampleTemplate' : 'embeddedTemplate'),
    join(project, EMBEDDED_STATE),
  ]);
}
