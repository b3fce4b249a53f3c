import { afterEach, describe, expect, it } from 'vitest';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { openEmbedded } from '../../src/db/embedded.js';
import { lockPathFor } from '../../src/db/server-lock.js';

describe('the embedded database lock', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function freshDataDir(): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-lock-'));
    const dataDir = join(dir, 'pgdata');
    await cp(inject('pgdataTemplate'), dataDir, { recursive: true });
    return dataDir;
  }

  it("lets a second opener use the first one's socket, and both see the same data", async () => {
    const dataDir = await freshDataDir();
    const first = await openEmbedded({ dataDir, port: 0 });
    try {
      expect(first.owner).toBe(true);
      const lock = JSON.parse(await readFile(lockPathFor(dataDir), 'utf8'));
      expect(lock).toMatchObject({ pid: process.pid, port: first.port });
      const second = await openEmbedded({ dataDir, port: 0 });
      expect(second.owner).toBe(false);
      expect(second.url).toBe(first.url);
      const a = new pg.Client({ connectionString: first.url });
      const b = new pg.Client({ connectionString: second.url });
      await a.connect();
      await b.connect();
      await a.query('CREATE TABLE shared_probe (n int); INSERT INTO shared_probe VALUES (42)');
      expect((await b.query('SELECT n FROM shared_probe')).rows).toEqual([{ n: 42 }]);
      await a.end();
      await b.end();
      await second.close();
      expect(existsSync(lockPathFor(dataDir))).toBe(true);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
  });

  it('takes over a lock whose process is gone and keeps the data written before a clean close', async () => {
    const dataDir = await freshDataDir();
    const before = await openEmbedded({ dataDir, port: 0 });
    const client = new pg.Client({ connectionString: before.url });
    await client.connect();
    await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await client.end();
    await before.close();
    // A lock left by a process that no longer exists (pid 2^22 + 1 is above Linux's pid_max default).
    await writeFile(
      lockPathFor(dataDir),
      JSON.stringify({ pid: 4194305, host: (await import('node:os')).hostname(), port: 1, startedAt: 'x' }),
    );
    const after = await openEmbedded({ dataDir, port: 0, waitMs: 2000 });
    try {
      expect(after.owner).toBe(true);
      const again = new pg.Client({ connectionString: after.url });
      await again.connect();
      expect((await again.query('SELECT n FROM kept')).rows).toEqual([{ n: 7 }]);
      await again.end();
    } finally {
      await after.close();
    }
  });
});
