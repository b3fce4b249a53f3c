import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  appendFile,
  chmod,
  chown,
  lchown,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { basename, dirname, join, resolve } from 'node:path';
import { TurnkitError } from '../../errors.js';
import { processAlive } from '../../util/process/process-identity.js';
import type { ServerAccount } from './server-account.js';
import { serverProgram } from './server-binaries.js';

/** Where one embedded PostgreSQL cluster is and who runs it. */
export interface ClusterPlace {
  /** The server's data directory (PGDATA). */
  dataDir: string;
  /** The package's `native/` folder the programs run from. */
  nativeDir: string;
  /** The account the server runs as (turnkit is root), else undefined: the user running turnkit. */
  account: ServerAccount | undefined;
}

/** A running server, as its `postmaster.pid` says. */
export interface RunningCluster {
  pid: number;
  port: number;
}

/** The superuser turnkit connects as. */
export const SUPERUSER = 'postgres';

/**
 * Settings of the embedded server, written into its postgresql.conf once: loopback only and no Unix socket (no
 * other machine, and no socket folder that may not exist or be writable, such as /var/run/postgresql), a small
 * shared memory (a development server beside other programs; the sample game's working set is a few MB), and UTC.
 * Commits wait for the disk as on any server: turnkit's scratch transactions alone skip that wait (scratch-begin.ts).
 */
const SETTINGS = [
  "listen_addresses = '127.0.0.1'",
  "unix_socket_directories = ''",
  'max_connections = 100',
  "shared_buffers = '32MB'",
  "timezone = 'UTC'",
  "log_timezone = 'UTC'",
  "log_min_messages = 'warning'",
];

/** Whether a data directory holds an initialised cluster. */
export function clusterExists(dataDir: string): boolean {
  return existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Runs initdb with the given superuser password (scram-sha-256 for every connection). It works in a sibling folder
 * renamed into place when complete, so that an interrupted initdb never leaves a data directory that looks made.
 */
export async function initCluster(place: ClusterPlace, password: string): Promise<void> {
  const parent = dirname(place.dataDir);
  await mkdir(parent, { recursive: true });
  // Under the state folder's lock: what an initdb killed part-way left beside it is nobody's any more.
  for (const name of await readdir(parent))
    if (name.startsWith(`.${basename(place.dataDir)}.init-`))
      await rm(join(parent, name), { recursive: true, force: true });
  const building = join(parent, `.${basename(place.dataDir)}.init-${process.pid}`);
  await mkdir(building, { mode: 0o700 });
  // initdb reads the password from a file: one beside the data directory (a folder the server's account reaches,
  // unlike a private TMPDIR), owner-only, removed after.
  const pwfile = join(parent, `.initdb-password-${process.pid}`);
  try {
    await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (place.account) {
      for (const path of [building, pwfile]) await chown(path, place.account.uid, place.account.gid);
    }
    await runAs(place, serverProgram(place.nativeDir, 'initdb'), [
      `--pgdata=${building}`,
      `--username=${SUPERUSER}`,
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--no-locale',
      '--no-sync',
      '--no-instructions',
    ]);
    await appendFile(join(building, 'postgresql.conf'), `\n# turnkit's embedded server\n${SETTINGS.join('\n')}\n`);
    await rm(place.dataDir, { recursive: true, force: true });
    await rename(building, place.dataDir);
  } catch (error) {
    await rm(building, { recursive: true, force: true }).catch(() => {});
    throw error;
  } finally {
    await rm(pwfile, { force: true });
  }
}

/**
 * The server running on a data directory, from its `postmaster.pid`, when its process is alive and its port answers
 * (a pid file left by a server that died with the machine may name a pid reused since).
 */
export async function runningCluster(dataDir: string): Promise<RunningCluster | undefined> {
  const pidFile = await readPidFile(dataDir);
  if (!pidFile?.ours) return undefined;
  const pid = Number(pidFile.lines[0]);
  const port = Number(pidFile.lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  return processAlive(pid) && (await portAnswers(port)) ? { pid, port } : undefined;
}

// The lines of a data directory's `postmaster.pid` (PostgreSQL's pidfile.h: 1 the pid, 2 the data directory, 4 the
// port), and whether it names this directory: one naming another came with a copy of the folder made while that
// one's server ran, and is not this folder's server.
async function readPidFile(dataDir: string): Promise<{ lines: string[]; ours: boolean } | undefined> {
  const text = await readFile(join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  return { lines, ours: resolve(lines[1] ?? '') === resolve(dataDir) };
}

// A copied pid file left would make the server think a postmaster runs here; one naming this directory is the
// server's own business (it knows a dead one's from a live one).
async function removeCopiedPidFile(dataDir: string): Promise<void> {
  if ((await readPidFile(dataDir))?.ours === false) await rm(join(dataDir, 'postmaster.pid'), { force: true });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolveAnswer(true);
    });
    socket.once('error', () => resolveAnswer(false));
  });
}

/**
 * Starts the server in the background (`pg_ctl start`, which detaches it from turnkit's process group: a Ctrl-C
 * meant for turnkit does not reach it, and turnkit stops it itself) and waits until it accepts connections. The port
 * is the one asked for, or a free one; a port taken between the choice and the bind is chosen again.
 */
export async function startCluster(place: ClusterPlace, port: number): Promise<RunningCluster> {
  const log = join(place.dataDir, 'server.log');
  await removeCopiedPidFile(place.dataDir);
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const chosen = port || (await freePort());
    try {
      await runAs(place, serverProgram(place.nativeDir, 'pg_ctl'), [
        'start',
        '--pgdata',
        place.dataDir,
        '--wait',
        '--timeout=120',
        '--silent',
        '--log',
        log,
        '--options',
        `-p ${chosen}`,
      ]);
      const running = await runningCluster(place.dataDir);
      if (running) return running;
      lastError = new Error('the server started but wrote no postmaster.pid');
    } catch (error) {
      lastError = error;
      if (port) break;
    }
  }
  const tailOfLog = await lastLogLine(log);
  const message = (lastError as Error)?.message?.split('\n')[0] ?? String(lastError);
  throw new TurnkitError(
    'DATABASE',
    `${place.dataDir}: the embedded PostgreSQL server did not start: ${tailOfLog ?? message}`,
  );
}

/** Stops the server (fast shutdown: open sessions are ended, their transactions rolled back) and waits for it. */
export async function stopCluster(place: ClusterPlace): Promise<void> {
  if (!(await runningCluster(place.dataDir))) return;
  await runAs(place, serverProgram(place.nativeDir, 'pg_ctl'), [
    'stop',
    '--pgdata',
    place.dataDir,
    '--mode=fast',
    '--wait',
    '--timeout=60',
    '--silent',
  ]);
}

/**
 * As root, gives a data directory that is not the server account's to it, with everything in it (a folder copied by
 * `cp -r`, or moved out of a project the account cannot reach), and makes it owner-only: PostgreSQL refuses to start
 * on a data directory of another owner, or one that others can read.
 */
export async function ownDataDir(place: ClusterPlace): Promise<void> {
  const account = place.account;
  if (!account || (await stat(place.dataDir)).uid === account.uid) return;
  const walk = async (path: string): Promise<void> => {
    await lchown(path, account.uid, account.gid);
    for (const entry of await readdir(path, { withFileTypes: true })) {
      const child = join(path, entry.name);
      if (entry.isDirectory()) await walk(child);
      else await lchown(child, account.uid, account.gid);
    }
  };
  await walk(place.dataDir);
  await chmod(place.dataDir, 0o700);
}

function runAs(place: ClusterPlace, program: string, args: string[]): Promise<void> {
  // A fixed environment: the messages in English (they end up in errors), no PG* variable of the caller's steering
  // the server, and the server's own account when turnkit is root.
  const env = { LC_ALL: 'C', LANG: 'C', PATH: '/usr/bin:/bin' };
  const ids = place.account ? { uid: place.account.uid, gid: place.account.gid } : {};
  return new Promise((resolvePromise, reject) => {
    execFile(program, args, { env, ...ids, cwd: dirname(place.dataDir), timeout: 180_000 }, (error, _out, stderr) => {
      if (!error) return resolvePromise();
      const detail = String(stderr).trim().split('\n').filter(Boolean).pop();
      reject(new Error(detail || error.message));
    });
  });
}

async function lastLogLine(log: string): Promise<string | undefined> {
  try {
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    return lines.filter((line) => /FATAL|ERROR|PANIC/.test(line)).pop() ?? undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}
