import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { TurnkitError } from '../../errors.js';
import { writeFileAtomic } from '../../util/process/atomic-write.js';
import { acquireFileLock, type HeldLock } from '../../util/process/file-lock.js';
import { serverAccount } from './server-account.js';
import { findServerBinaries } from './server-binaries.js';
import {
  type ClusterPlace,
  clusterExists,
  initCluster,
  ownDataDir,
  runningCluster,
  SUPERUSER,
  startCluster,
  stopCluster,
} from './server-cluster.js';
import { placeCluster } from './server-place.js';
import { isKept, joinUsers, leaveUsers, liveUsers, setKept } from './server-users.js';

/** The embedded server as one turnkit process uses it. */
export interface EmbeddedServer {
  /** The URL with the server's password in it: for turnkit's pool and its SUTs' DATABASE_URL, never printed. */
  url: string;
  port: number;
  /** The postmaster's pid. */
  pid: number;
  /** True when this process started the server (it was not running). */
  started: boolean;
  /** Kept running by `turnkit db start` (when this process opened it): else it stops when its last user leaves. */
  kept: boolean;
  /** Leaves the server; the last user of a server not kept by `db start` stops it. */
  close(): Promise<void>;
}

/** Where and how to run the embedded server. */
export interface EmbeddedOptions {
  /** The project's folder for the server (the config's `database.embedded.dataDir`): data, password, users. */
  stateDir: string;
  /** TCP port on 127.0.0.1; 0 picks a free one each time the server starts. */
  port: number;
  /** Keep the server running after this process leaves it, until `db stop` (`db start`). */
  keep?: boolean | undefined;
  /** How long to wait for another turnkit process that is starting or stopping the server (default 120 s). */
  waitMs?: number | undefined;
  /** The uid turnkit runs as (the command line passes the process's): 0 runs the server as another account. */
  uid?: number | undefined;
}

/** What `db status` says of the embedded server. */
export interface EmbeddedStatus {
  running: boolean;
  pid?: number | undefined;
  port?: number | undefined;
  /** Kept by `db start` (else it stops when its last command ends). */
  kept: boolean;
  /** turnkit processes using it now. */
  users: number;
  /** The server's data directory (under the state folder, or elsewhere as root: see server-place.ts). */
  dataDir: string;
  /** The npm package of the server's programs, with its version. */
  server: string;
}

/** The URL of the embedded server: its superuser on loopback, the server's own database `postgres`. */
export function embeddedUrl(port: number, password: string): string {
  return `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;
}

/**
 * Opens the project's embedded server: joins the one running on its data directory (another turnkit's, or one left
 * by a turnkit that was killed), or starts it, making the cluster first when there is none. Starting and stopping
 * happen under the state folder's lock, so two commands at once share one server and never start two.
 */
export async function openEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const place = await prepare(options);
  const held = await lockState(options);
  let entry: string | undefined;
  try {
    await dropOrphanCluster(options.stateDir, place);
    let running = await runningCluster(place.dataDir);
    const started = running === undefined;
    if (!running) {
      if (!clusterExists(place.dataDir)) await initCluster(place, await newPassword(options.stateDir));
      else await ownDataDir(place);
      running = await startCluster(place, options.port);
    }
    if (options.keep) await setKept(options.stateDir, true);
    entry = await joinUsers(options.stateDir);
    const password = await readPassword(options.stateDir);
    const server = running;
    const joined = entry;
    let closing: Promise<void> | undefined;
    return {
      url: embeddedUrl(server.port, password),
      port: server.port,
      pid: server.pid,
      started,
      kept: isKept(options.stateDir),
      close: () => {
        closing ??= leave(options, place, joined);
        return closing;
      },
    };
  } catch (error) {
    if (entry) await leaveUsers(entry).catch(() => {});
    // A server this call started is stopped again, unless someone else uses it or db start keeps it.
    if (!isKept(options.stateDir) && (await liveUsers(options.stateDir)) === 0)
      await stopCluster(place).catch(() => {});
    throw error;
  } finally {
    await held.release();
  }
}

/**
 * A cluster kept outside the project (as root, server-place.ts) whose state folder has no password any more (the
 * folder was removed, or the project cloned anew to the same path): nobody can connect to it, and it holds the old
 * project's data. It is stopped and removed, so that the project starts afresh as a new one would.
 */
async function dropOrphanCluster(stateDir: string, place: ClusterPlace): Promise<void> {
  if (place.dataDir === join(stateDir, 'data') || existsSync(join(stateDir, 'password'))) return;
  if (!clusterExists(place.dataDir)) return;
  await stopCluster(place);
  await rm(place.dataDir, { recursive: true, force: true });
}

/**
 * Stops the embedded server: not kept any more; stopped now when no turnkit process uses it (or `force`), else by
 * the last of them as it ends. Returns whether it stopped and how many users it waits for.
 */
export async function stopEmbedded(
  options: EmbeddedOptions & { force?: boolean | undefined },
): Promise<{ wasRunning: boolean; stopped: boolean; users: number }> {
  const place = await prepare(options);
  const held = await lockState(options);
  try {
    await setKept(options.stateDir, false);
    const running = await runningCluster(place.dataDir);
    if (!running) return { wasRunning: false, stopped: false, users: 0 };
    const users = await liveUsers(options.stateDir);
    if (users > 0 && !options.force) return { wasRunning: true, stopped: false, users };
    await stopCluster(place);
    return { wasRunning: true, stopped: true, users };
  } finally {
    await held.release();
  }
}

/** The embedded server's state, without starting it. */
export async function embeddedStatus(options: EmbeddedOptions): Promise<EmbeddedStatus> {
  const binaries = await findServerBinaries();
  const place = await prepare(options);
  const running = await runningCluster(place.dataDir);
  return {
    running: running !== undefined,
    pid: running?.pid,
    port: running?.port,
    kept: isKept(options.stateDir),
    users: await liveUsers(options.stateDir),
    dataDir: place.dataDir,
    server: binaries.packageId,
  };
}

/** The running embedded server's URL (password included), or undefined when none runs. */
export async function runningEmbeddedUrl(options: EmbeddedOptions): Promise<string | undefined> {
  const place = await prepare(options);
  const running = await runningCluster(place.dataDir);
  return running ? embeddedUrl(running.port, await readPassword(options.stateDir)) : undefined;
}

async function leave(options: EmbeddedOptions, place: ClusterPlace, entry: string): Promise<void> {
  const held = await lockState(options);
  try {
    await leaveUsers(entry);
    if (isKept(options.stateDir) || (await liveUsers(options.stateDir)) > 0) return;
    await stopCluster(place);
  } finally {
    await held.release();
  }
}

async function prepare(options: EmbeddedOptions): Promise<ClusterPlace> {
  // The folders above keep the usual mode (a 0700 `.turnkit` would shut the server's account out as root); the
  // state folder itself is owner-only (placeCluster opens it to 0711 as root).
  await mkdir(dirname(options.stateDir), { recursive: true });
  await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
  const binaries = await findServerBinaries();
  const account = await serverAccount(options.uid);
  if (!account) await chmod(options.stateDir, 0o700);
  return placeCluster(options.stateDir, binaries, account);
}

/** Takes the state folder's lock, waiting while another turnkit holds it (it starts or stops the server). */
async function lockState(options: EmbeddedOptions): Promise<HeldLock> {
  const deadline = Date.now() + (options.waitMs ?? 120_000);
  const file = join(options.stateDir, 'lock');
  for (;;) {
    try {
      return await acquireFileLock(file, 'the embedded database', (owner) => `held by pid ${owner.pid}`);
    } catch (error) {
      if (!(error instanceof TurnkitError && error.code === 'EXISTS')) throw error;
      if (Date.now() > deadline)
        throw new TurnkitError(
          'DATABASE',
          `${file}: the embedded database is being started or stopped by another turnkit (${error.message}) for too long`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

// The superuser's password: made once with the cluster (192 random bits, URL-safe), kept owner-only beside it, so
// that turnkit processes of the same user (and `turnkit db url --show-password`) can connect and no other user can.
async function newPassword(stateDir: string): Promise<string> {
  const password = randomBytes(24).toString('base64url');
  await writeFileAtomic(join(stateDir, 'password'), `${password}\n`, { mode: 0o600 });
  return password;
}

async function readPassword(stateDir: string): Promise<string> {
  const path = join(stateDir, 'password');
  try {
    const password = (await readFile(path, 'utf8')).trim();
    if (password) return password;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new TurnkitError('DATABASE', `${path}: cannot read the embedded database's password (${code})`);
  }
  throw new TurnkitError('DATABASE', `${path}: the embedded database's password file is empty`);
}
