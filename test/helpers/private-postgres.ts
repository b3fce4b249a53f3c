import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where Debian keeps PostgreSQL 15's server binaries (TURNKIT_PG_BIN to point elsewhere). */
const PG_BIN = process.env.TURNKIT_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL cluster of one test's own, on a free port of 127.0.0.1 with trust auth: a test may restart or stop it,
 * which it must never do to the shared server at 5432.
 */
export interface PrivatePostgres {
  /** Admin URL (user postgres, database postgres). */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back when this resolves. */
  restart(): Promise<void>;
  /** Stops the cluster at once and removes its folder. */
  destroy(): Promise<void>;
}

/** Why a private cluster cannot be made here (undefined when it can): the server binaries are missing. */
export function privatePostgresMissing(): string | undefined {
  for (const tool of ['initdb', 'pg_ctl', 'postgres'])
    if (!existsSync(join(PG_BIN, tool))) return `${join(PG_BIN, tool)} is not installed (set TURNKIT_PG_BIN)`;
  return undefined;
}

/** initdb into a temporary folder and start the cluster (as the postgres user when this process is root). */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-pg-'));
  const data = join(dir, 'data');
  // initdb refuses root: hand the folder to the postgres user and run the tools as it.
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
  }
  const tool = (name: string, args: string[]): Promise<{ stdout: string; stderr: string }> =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(PG_BIN, name), ...args]) : run(join(PG_BIN, name), args);
  await tool('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  // Fast and local: no fsync (the data is thrown away), a socket in the cluster's own folder, TCP on 127.0.0.1 only.
  await appendFile(
    join(data, 'postgresql.conf'),
    `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${dir}'\nfsync = off\nsynchronous_commit = off\nfull_page_writes = off\nmax_connections = 60\nshared_buffers = 16MB\n`,
  );
  const log = join(dir, 'server.log');
  await tool('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async restart() {
      await tool('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-m', 'fast', 'restart']);
    },
    async destroy() {
      await tool('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A TCP port of 127.0.0.1 that nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
