import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { inProcessConnector } from './in-process-stream.js';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { TurnkitError } from '../errors.js';
import { embeddedOwnerHook } from './owner-hooks.js';
import { openPglite, preloadPglite } from './pglite-open.js';
import { seedDataDir } from './pgdata-template.js';
import { type GatedSocket, serveGated } from './gated-socket.js';
import { newServerPassword, readServerPassword, removeServerPassword } from './server-password.js';
import {
  lockOwnerAlive,
  lockPathFor,
  publishPort,
  readLock,
  releaseLock,
  removeStaleLock,
  tryTakeLock,
} from './server-lock.js';

/** A running embedded server: either owned by this process or another turnkit process's, reached by its socket. */
export interface EmbeddedServer {
  /** The URL with the server's password in it: for turnkit's pool and its SUTs' DATABASE_URL, never printed. */
  url: string;
  port: number;
  /** True when this process opened the data directory and must close it. */
  owner: boolean;
  /**
   * The owner's own connections, in memory to the server's handler rather than through the socket (in-process-stream.ts);
   * absent for a guest.
   */
  connectInProcess?: (() => Duplex) | undefined;
  /**
   * Stops the server and closes PGlite (owner), once every other connection to it has closed; does nothing (guest).
   */
  close(): Promise<void>;
}

/** Connections the embedded server accepts: turnkit's own, its SUTs', and those of guests and their SUTs. */
const MAX_CONNECTIONS = 100;

/** Where and how to run the embedded database. */
export interface EmbeddedOptions {
  dataDir: string;
  port: number;
  /** How long to wait for another process that holds the lock to publish its port. */
  waitMs?: number;
  /**
   * Close and exit on SIGINT/SIGTERM when the command line asked for it (setEmbeddedOwnerHook; default on). Off when
   * the command stops itself gracefully and closes after.
   */
  handleSignals?: boolean;
  /** A pre-initialized data directory (pgdata-template.ts) that a new, empty `dataDir` starts from, not initdb. */
  template?: string | undefined;
  /**
   * Load PGlite's contrib extensions (uuid-ossp, pgcrypto, citext) as the server starts (default true). Off only
   * for a data directory known to use none of them, such as the demo's sample game: they can only be loaded at start.
   */
  extensions?: boolean | undefined;
  /** Hears, as the owner closes, how many other connections it waits for (another turnkit process's, say). */
  onGuests?: ((connections: number) => void) | undefined;
}

/**
 * Embedded connections always use the superuser and the default database PGlite creates, with the server's password
 * (server-password.ts; URL-safe characters, so it needs no escaping).
 */
export function embeddedUrl(port: number, password: string): string {
  return `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
}

/** Opens the embedded database, or joins the turnkit process that already has it open. */
export async function openEmbedded(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const lockPath = lockPathFor(options.dataDir);
  await mkdir(dirname(options.dataDir), { recursive: true });
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    if (await tryTakeLock(lockPath)) return startOwnServer(options, lockPath);
    const lock = await readLock(lockPath);
    if (lock && !lockOwnerAlive(lock)) {
      // Re-read before removing so that we never delete a lock someone else just took.
      const again = await readLock(lockPath);
      if (again && again.pid === lock.pid && again.startedAt === lock.startedAt) await removeStaleLock(lockPath);
      continue;
    }
    if (lock?.port && (await portAnswers(lock.port))) {
      const password = await readServerPassword(options.dataDir);
      return { url: embeddedUrl(lock.port, password), port: lock.port, owner: false, close: async () => {} };
    }
    if (Date.now() > deadline) {
      throw new TurnkitError(
        'DATABASE',
        `${options.dataDir}: embedded database is held by process ${lock?.pid ?? '?'}, which does not answer; stop it or remove ${lockPath}`,
      );
    }
    await sleep(100);
  }
}

async function startOwnServer(options: EmbeddedOptions, lockPath: string): Promise<EmbeddedServer> {
  let db: PGlite | undefined;
  let served: GatedSocket | undefined;
  try {
    // Under the lock: no other process opens or fills this data directory meanwhile. PGlite loads meanwhile.
    preloadPglite();
    if (options.template) await seedDataDir(options.dataDir, options.template);
    db = await openPglite(options.dataDir, { extensions: options.extensions !== false });
    const password = await newServerPassword(options.dataDir);
    // The default of one connection would refuse the SUT while turnkit is connected; another turnkit process using
    // this server (a guest) brings its own connection and its SUTs'.
    served = await serveGated(db, { port: options.port, password, maxConnections: MAX_CONNECTIONS });
    const port = served.port;
    const connectInProcess = await inProcessConnector(served.server);
    await publishPort(lockPath, port);
    const running = { db, served };
    let closing: Promise<void> | undefined;
    let interrupted = false;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        // The owner does not go away under a guest: another turnkit process joined this server because the lock
        // said it runs, and its reps would lose their database mid-way (issue 12). So the server stays up while any
        // other connection is open. Rather than hand the server over (a second PGlite would have to open the files
        // this one still holds) or keep it in a detached process of its own (which needs its own lifetime rules and
        // outlives a Ctrl-C), the owner simply waits: guests are turnkit processes that close their pool when done,
        // and a signal (Ctrl-C, `turnkit db stop`) ends the wait at once.
        await waitForGuests(running.served.server, () => interrupted, options.onGuests);
        detachSignals();
        try {
          await running.served.stop();
        } finally {
          await running.db.close();
          await removeServerPassword(options.dataDir);
          await releaseLock(lockPath);
        }
      })();
      return closing;
    };
    const interrupt = (): Promise<void> => {
      interrupted = true;
      return close();
    };
    // The process's signals are the command line's: it hooks in to close the server on Ctrl-C (a library never).
    const hook = options.handleSignals === false ? undefined : embeddedOwnerHook();
    const detachSignals = hook ? hook(interrupt) : () => {};
    return { url: embeddedUrl(port, password), port, owner: true, connectInProcess, close };
  } catch (error) {
    await served?.stop().catch(() => {});
    await db?.close().catch(() => {});
    // This process holds the lock: a password file there is the one it may have written.
    await removeServerPassword(options.dataDir).catch(() => {});
    await releaseLock(lockPath);
    const message = error instanceof Error ? error.message : String(error);
    throw new TurnkitError(
      'DATABASE',
      `${options.dataDir}: cannot start the embedded database: ${message.split('\n')[0]}`,
    );
  }
}

/** Waits until no connection to the server is open, or `stop()` says to go now; tells `onGuests` once. */
async function waitForGuests(
  server: PGLiteSocketServer,
  stop: () => boolean,
  onGuests?: (connections: number) => void,
): Promise<void> {
  const started = Date.now();
  let told = false;
  for (;;) {
    const open = server.getStats().activeConnections;
    if (open === 0 || stop()) return;
    // This process's own pool has ended before its server closes, but its socket's close may take a moment to be
    // seen here: only a wait that lasts is another process's.
    if (!told && Date.now() - started > 500) {
      told = true;
      onGuests?.(open);
    }
    await sleep(100);
  }
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
