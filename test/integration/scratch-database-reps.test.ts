import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, BACKENDS, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { ScratchSession, type ScratchCampaign } from '../../src/scratch/scratch-session.js';
import { collectGarbage } from '../../src/scratch/gc.js';

// The database strategy's reps with clones made ahead and drops behind (database-strategy.ts): what each rep sees, that
// no two share a database, and that nothing is left once the session is idle, closed, or its process killed.

const databaseOf = (scratch: ScratchCampaign): string =>
  decodeURIComponent(new URL(scratch.databaseUrl).pathname.slice(1));
const onServer = async (names: readonly string[]): Promise<string[]> =>
  (
    await adminQuery(
      process.env.TEST_DATABASE_URL!,
      'SELECT datname FROM pg_database WHERE datname = ANY($1) ORDER BY 1',
      [names],
    )
  ).rows.map((row) => row.datname as string);
const registered = async (t: TestDb): Promise<string[]> =>
  (
    await t.db.pool.query<{ name: string }>(
      'SELECT database_name AS name FROM turnkit.scratch_campaigns WHERE database_name IS NOT NULL ORDER BY 1',
    )
  ).rows.map((row) => row.name);

async function sut<T>(scratch: ScratchCampaign, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: scratch.databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe.runIf(BACKENDS.includes('postgres'))('the database strategy rep by rep on postgres', () => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture('postgres', { turns: 12, turn: 9 }));
  });
  afterAll(async () => t?.cleanup());

  it('every rep, made ahead or not, sees exactly the fixture, whatever the rep before it wrote', async () => {
    const before = await tableChecksums(t.db);
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
    const names: string[] = [];
    try {
      for (let rep = 0; rep < 5; rep++) {
        const scratch = await session.seed(fixture);
        names.push(databaseOf(scratch));
        expect(scratch.key).toBe(fixture.source.root.value);
        // Odd reps leave the connection opened to the clone for the teardown's reading of what the SUT changed.
        if (rep % 2 === 0) expect((await session.check(scratch, fixture)).differences, `rep ${rep}`).toEqual([]);
        // What the shared rows look like before the SUT is read once per template: the same as reading this clone.
        expect((await session.beforeSut(scratch, fixture)).shared).toEqual(await session.sharedRows(scratch, fixture));
        // The SUT changes its campaign and a shared row: the next rep must not see either.
        await sut(scratch, async (client) => {
          await client.query("UPDATE campaigns SET title = 'changed by the SUT' WHERE id = $1", [scratch.key]);
          await client.query("UPDATE users SET display_name = 'changed too'");
          await client.query('DELETE FROM world_facts');
        });
        const report = await scratch.teardown({ effects: true });
        const effects = (table: string) => report.effects?.tables.find((effect) => effect.table === table);
        expect(effects('campaigns')?.updated).toBe(1);
        expect(effects('world_facts')?.deleted).toBe(fixture.tables.world_facts!.rows.length);
        expect(report.droppedDatabase).toBe(names.at(-1));
      }
      expect(new Set(names).size).toBe(5);
      // Torn down means gone once the work behind the reps has ended, before the session closes.
      await session.idle();
      expect(await onServer(names)).toEqual([]);
      expect((await registered(t)).filter((name) => names.includes(name))).toEqual([]);
    } finally {
      await session.close();
    }
    expect(await registered(t)).toEqual([]);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    expect(await tableChecksums(t.db)).toEqual(before);
  });

  it('reps side by side never share a database, and a second teardown of one is refused', async () => {
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
    const made: string[] = [];
    try {
      // Two in a row first, so that clones are made ahead, then six at once take them and make more.
      for (let rep = 0; rep < 2; rep++) {
        const scratch = await session.seed(fixture);
        made.push(databaseOf(scratch));
        await scratch.teardown();
      }
      const live = await Promise.all(Array.from({ length: 6 }, () => session.seed(fixture)));
      made.push(...live.map(databaseOf));
      expect(new Set(live.map(databaseOf)).size).toBe(6);
      expect(new Set(live.map((scratch) => scratch.id)).size).toBe(6);
      // Each rep's write stays in its own database.
      await Promise.all(
        live.map((scratch, i) =>
          sut(scratch, (client) =>
            client.query('UPDATE campaigns SET title = $1 WHERE id = $2', [`rep ${i}`, scratch.key]),
          ),
        ),
      );
      const names = await Promise.all(
        live.map((scratch) => sut(scratch, async (client) => (await client.query('SELECT title FROM campaigns')).rows)),
      );
      expect(names).toEqual(live.map((_, i) => [{ title: `rep ${i}` }]));
      await Promise.all(live.map((scratch) => scratch.teardown()));
      await expect(live[0]!.teardown()).rejects.toThrow(/torn down already/);
      await session.idle();
      expect(await onServer(made)).toEqual([]);
    } finally {
      await session.close();
    }
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it("gives every clone the source database's own settings, which Postgres does not copy with a template", async () => {
    const name = new URL(t.databaseUrl!).pathname.slice(1);
    await adminQuery(t.databaseUrl!, `ALTER DATABASE ${name} SET TimeZone = 'Pacific/Chatham'`);
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
    try {
      for (let rep = 0; rep < 3; rep++) {
        const scratch = await session.seed(fixture);
        expect(await sut(scratch, async (client) => (await client.query('SHOW TimeZone')).rows[0].TimeZone)).toBe(
          'Pacific/Chatham',
        );
        await scratch.teardown();
      }
    } finally {
      await session.close();
      await adminQuery(t.databaseUrl!, `ALTER DATABASE ${name} RESET TimeZone`);
    }
  });

  it('a process killed with clones being made ahead and dropped behind leaves only what gc removes', async () => {
    const file = join(t.dir, 'fixture.json');
    await writeFile(file, serializeDocument(fixture));
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../helpers/clone-and-wait.mjs'), t.db.url, file, JSON.stringify(t.config.game)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(child.stdout!, 'data')) as [Buffer];
    expect(line.toString().trim().split(' ')).toHaveLength(3);
    child.kill('SIGKILL');
    await once(child, 'exit');
    // The template, the two live clones, the one made ahead (or on its way), and the one whose drop was cut off.
    const childs = async (): Promise<{ id: string; name: string }[]> =>
      (
        await t.db.pool.query<{ id: string; name: string }>(
          'SELECT id, database_name AS name FROM turnkit.scratch_campaigns WHERE owner_pid = $1 ORDER BY id',
          [child.pid],
        )
      ).rows;
    const made = (await childs()).map((entry) => entry.name);
    expect(made.length).toBeGreaterThanOrEqual(3);
    const report = await collectGarbage(t.db);
    expect(report.failed).toEqual([]);
    expect(await childs()).toEqual([]);
    // A clone whose CREATE DATABASE was still running when its process died is waited for, then dropped.
    expect(await onServer(made)).toEqual([]);
  });
});

describe.each(BACKENDS)('spares of the database strategy on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 6, turn: 4 }));
  });
  afterAll(async () => t?.cleanup());

  it('reps of one fixture begun at once (concurrency above its reps) leave no spare behind once the session closes', async () => {
    const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
    try {
      // The second and third clone each begin a spare: both must land in the one queue close() drops.
      const live = await Promise.all(Array.from({ length: 3 }, () => session.seed(fixture)));
      await Promise.all(live.map((scratch) => scratch.teardown()));
      await session.idle();
      // The two spares are still registered (made ahead, not used): nothing else is.
      expect((await registered(t)).length).toBe(3);
    } finally {
      await session.close();
    }
    expect(await registered(t)).toEqual([]);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
