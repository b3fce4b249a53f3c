import { afterEach, describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openEmbedded } from '../../src/db/embedded.js';
import { serverPasswordPath } from '../../src/db/server-password.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';

const psql = systemProgram('psql');
itHasProgram('psql', psql);

/** The URL with another password (or none) in place of the server's. */
function withPassword(url: string, password: string | undefined): string {
  const parsed = new URL(url);
  parsed.password = password ?? '';
  return parsed.toString();
}

async function connects(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query('SELECT 1 + 1 AS n');
    return `ok ${rows[0].n}`;
  } catch (error) {
    return `refused ${(error as { code?: string }).code}: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

function runPsql(url: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      'psql',
      [url, '-X', '-w', '-A', '-t', '-c', 'SELECT 40 + 2'],
      { env: { ...process.env, PGPASSWORD: '', PGCONNECT_TIMEOUT: '10' }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe("the embedded database's password", () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function freshDataDir(): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-password-'));
    const dataDir = join(dir, 'pgdata');
    await cp(inject('pgdataTemplate'), dataDir, { recursive: true });
    return dataDir;
  }

  it('lets in the server password only, keeps it owner-only in the data directory, and removes it on close', async () => {
    const dataDir = await freshDataDir();
    const server = await openEmbedded({ dataDir, port: 0, handleSignals: false });
    let password = '';
    try {
      password = decodeURIComponent(new URL(server.url).password);
      expect(password.length).toBeGreaterThanOrEqual(32);
      const file = serverPasswordPath(dataDir);
      expect((await readFile(file, 'utf8')).trim()).toBe(password);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await connects(server.url)).toBe('ok 2');
      expect(await connects(withPassword(server.url, 'guessed'))).toMatch(/^refused 28P01: password authentication/);
      expect(await connects(withPassword(server.url, undefined))).toMatch(/^refused/);
      const otherUser = new URL(server.url);
      otherUser.username = 'mallory';
      expect(await connects(otherUser.toString())).toMatch(/^refused 28P01/);
      // A second turnkit process of this user joins with the same password, read from the file.
      const guest = await openEmbedded({ dataDir, port: 0, handleSignals: false });
      expect(guest.owner).toBe(false);
      expect(guest.url).toBe(server.url);
      // The database still works for a connection after the refused ones.
      expect(await connects(server.url)).toBe('ok 2');
    } finally {
      await server.close();
    }
    expect(existsSync(serverPasswordPath(dataDir))).toBe(false);
    // No file left next to the data directory holds the password (the lock file, say).
    for (const entry of await readdir(dir, { recursive: true })) {
      const path = join(dir, String(entry));
      if ((await stat(path)).isFile() && !String(entry).startsWith('pgdata/base'))
        expect((await readFile(path)).includes(Buffer.from(password)), path).toBe(false);
    }
  });

  it.runIf(psql.found)('refuses psql with a wrong password and lets it in with the right one', async () => {
    const dataDir = await freshDataDir();
    const server = await openEmbedded({ dataDir, port: 0, handleSignals: false });
    try {
      const wrong = await runPsql(withPassword(server.url, 'guessed'));
      expect(wrong.code).not.toBe(0);
      expect(wrong.out).toMatch(/password authentication failed for user "postgres"/);
      const none = await runPsql(`${withPassword(server.url, undefined)}?sslmode=disable`);
      expect(none.code).not.toBe(0);
      const right = await runPsql(server.url);
      expect(right).toEqual({ code: 0, out: '42\n' });
    } finally {
      await server.close();
    }
  });
});
