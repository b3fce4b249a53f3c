import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { atomicExtendedProtocol } from './atomic-extended-protocol.js';
import { startPasswordGate } from './password-gate.js';

/** A PGlite served over TCP behind the password gate: the inner socket server, the gate, and how to stop both. */
export interface GatedSocket {
  server: PGLiteSocketServer;
  port: number;
  /** Stops the gate and the socket server and removes the owner-only socket folder (the database stays open). */
  stop(): Promise<void>;
}

/**
 * Serves `db` the one way turnkit serves a PGlite: its socket server (which checks no password) on a Unix socket in
 * a folder only this user can enter, and the password gate (password-gate.ts) as the only way in over TCP. Used by
 * the project's embedded database and by the scratch database `turnkit upgrade` rebuilds schemas in, so that neither
 * lets another local user in.
 */
export async function serveGated(
  db: PGlite,
  options: { port: number; password: string; maxConnections: number },
): Promise<GatedSocket> {
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const socketDir = await mkdtemp(join(tmpdir(), 'turnkit-pglite-'));
  let server: PGLiteSocketServer | undefined;
  let gate: Server | undefined;
  try {
    server = new PGLiteSocketServer({
      db: atomicExtendedProtocol(db),
      path: join(socketDir, '.s.PGSQL.5432'),
      maxConnections: options.maxConnections,
    });
    await server.start();
    gate = await startPasswordGate({
      host: '127.0.0.1',
      port: options.port,
      password: options.password,
      innerPath: join(socketDir, '.s.PGSQL.5432'),
    });
  } catch (error) {
    await server?.stop().catch(() => {});
    await rm(socketDir, { recursive: true, force: true });
    throw error;
  }
  const running = { server, gate };
  return {
    server: running.server,
    port: (running.gate.address() as { port: number }).port,
    stop: async () => {
      running.gate.close();
      try {
        await running.server.stop();
      } finally {
        await rm(socketDir, { recursive: true, force: true });
      }
    },
  };
}
