import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import { projectPaths } from '../../src/project/open-project.js';
import type { ProjectContext } from '../../src/project/project-context.js';
import { upgrade } from '../../src/upgrade/upgrade-fixtures.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { BIN } from '../helpers/cli.js';
import { createOwnedDatabase } from '../../src/scratch/database/owned-databases.js';
import { collectGarbage } from '../../src/scratch/gc.js';

// `upgrade` writes a fixture only when the migrated scratch database reached the live one, and the fixtures of one
// upgrade all or none: hostile and broken migration commands against a small game whose migrations a script of its
// own applies (its bookkeeping in game_migrations, named in game.migrate.table).
const GAME: TurnkitConfigInput = {
  game: {
    root: { table: 'games', key: 'id' },
    turns: { table: 'moves', order: 'seq', input: ['said'] },
  },
};

// The game's migrate command. Modes: `apply` (the honest one), `record-only` (records the pending migrations without
// running them), `hang` (starts a child and never ends), `drop-moves` (applies them, then drops a table the live database keeps), `fail-after N` (applies
// them on its first N runs, then exits 1 as a migration that breaks on a later batch).
const MIGRATE = `import pg from 'pg';
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
const [mode, limit] = process.argv.slice(2);
const here = new URL('.', import.meta.url).pathname;
if (mode === 'hang') {
  // A migration that never ends, with a child of its own: Ctrl-C must end both.
  const { spawn } = await import('node:child_process');
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  writeFileSync(here + 'hang.pid', String(child.pid));
  await new Promise(() => {});
}
if (mode === 'leak') {
  // What a hostile or careless migration prints on failure: its environment, and a terminal escape.
  console.error('keys: api=' + process.env.MY_API_KEY + ' pghost=' + process.env.PGHOST + ' django=' + process.env.DJANGO_SECRET_KEY + ' \x1b]52;c;aGk=\x07');
  process.exit(1);
}
if (mode === 'fail-after') {
  const counter = here + 'runs.txt';
  const runs = existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0;
  writeFileSync(counter, String(runs + 1));
  if (runs >= Number(limit)) { console.error('migration 002 failed: relation "x" does not exist'); process.exit(1); }
}
const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
await client.query('CREATE TABLE IF NOT EXISTS game_migrations (name text PRIMARY KEY)');
const done = new Set((await client.query('SELECT name FROM game_migrations')).rows.map((row) => row.name));
for (const file of readdirSync(here + 'sql').sort()) {
  if (done.has(file)) continue;
  if (mode !== 'record-only') await client.query(readFileSync(here + 'sql/' + file, 'utf8'));
  await client.query('INSERT INTO game_migrations (name) VALUES ($1)', [file]);
}
if (mode === 'drop-moves') await client.query('DROP TABLE moves');
await client.end();
`;

const FIRST = `CREATE TABLE games (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE moves (id serial PRIMARY KEY, game_id integer NOT NULL REFERENCES games (id), seq integer NOT NULL,
    said text NOT NULL, reply text)`;
const SECOND = `ALTER TABLE games ADD COLUMN mood text NOT NULL DEFAULT 'calm'`;

// Whether a process runs: a zombie (ended, not yet reaped by its new parent) does not.
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
};

const sha = async (file: string): Promise<string> =>
  createHash('sha256')
    .update(await readFile(file))
    .digest('hex');

describe.each(BACKENDS)('turnkit upgrade writes only real upgrades, all or none, on %s', (backend) => {
  let t: TestDb;
  let base: LoadedConfig;
  const files = ['game-2-turn-4.json', 'game-2-turn-2.json'];
  const hashes = new Map<string, string>();

  const project = (command: string[] | undefined): ProjectContext => {
    const migrate = { table: 'public.game_migrations', column: 'name', ...(command ? { command } : {}) };
    const config: LoadedConfig = { ...base, game: { ...base.game, migrate } };
    return { config, paths: projectPaths(config), db: t.db, usingDb: undefined };
  };
  const script = (...args: string[]): string[] => [process.execPath, join(t.dir, 'migrate.mjs'), ...args];
  // Not spawnSync: the embedded server answers from this process, so its event loop must keep running.
  const migrateLive = async (): Promise<void> => {
    const [program, ...args] = script('apply');
    const child = spawn(program!, args, { cwd: t.dir, env: { ...process.env, DATABASE_URL: t.db.url } });
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => (text += chunk));
    expect(await new Promise((resolve) => child.on('close', resolve)), text).toBe(0);
  };
  // The databases whose owner note names a process.
  const ownedBy = async (pid: number): Promise<string[]> =>
    (
      await t.db.pool.query(
        `SELECT datname::text AS name FROM pg_database WHERE shobj_description(oid, 'pg_database') LIKE $1`,
        [`%"pid":${pid},%`],
      )
    ).rows.map((row) => row.name as string);
  const unchanged = async (): Promise<void> => {
    for (const name of files) expect(await sha(join(t.dir, 'fixtures', name)), name).toBe(hashes.get(name));
    // Nothing staged was left beside them.
    expect((await readdir(join(t.dir, 'fixtures'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  };

  beforeAll(async () => {
    t = await createTestDb(backend, GAME);
    base = t.config;
    await symlink(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(t.dir, 'node_modules'), 'dir');
    await writeFile(join(t.dir, 'migrate.mjs'), MIGRATE);
    await mkdir(join(t.dir, 'sql'));
    await writeFile(join(t.dir, 'sql', '001_first.sql'), FIRST);
    await migrateLive();
    await t.db.pool.query(`INSERT INTO games (title) VALUES ('other'), ('the game')`);
    await t.db.pool.query(
      `INSERT INTO moves (game_id, seq, said, reply) SELECT 2, n, 'move ' || n, 'reply ' || n FROM generate_series(1, 5) AS n`,
    );
    const live = project(script('apply'));
    await capture(live, { campaign: '2', turns: { turn: 4 }, name: 'game-2-turn-4' });
    await capture(live, { campaign: '2', turns: { turn: 2 }, name: 'game-2-turn-2' });
    // The live database moves on: a NOT NULL column the fixtures lack.
    await writeFile(join(t.dir, 'sql', '002_mood.sql'), SECOND);
    await migrateLive();
    for (const name of files) hashes.set(name, await sha(join(t.dir, 'fixtures', name)));
  }, 120_000);
  afterAll(async () => t?.cleanup());

  it('refuses, naming game.migrate.command, when the game has no migrate command turnkit would run', async () => {
    await expect(upgrade(project(undefined))).rejects.toThrow(
      /migrated by configured \(public\.game_migrations\) and game\.migrate\.command is not set/,
    );
    await unchanged();
  });

  it('writes nothing when the migration only records itself', async () => {
    const result = await upgrade(project(script('record-only')));
    expect(result.database).toMatchObject({ tool: 'configured', applied: 2, latest: '002_mood.sql' });
    expect(result.fixtures.map((entry) => entry.status)).toEqual(['failed', 'failed']);
    expect(result.fixtures[0]!.problems).toEqual([
      'games: column mood (text) in the live database, not after the migrations',
    ]);
    expect(result.fixtures[0]!.why).toMatch(/^after the migrations the schema is not that of postgres:\/\//);
    await unchanged();
  });

  it('writes nothing when the migration drops a table the live database keeps', async () => {
    const result = await upgrade(project(script('drop-moves')));
    expect(result.fixtures.map((entry) => entry.status)).toEqual(['failed', 'failed']);
    expect(result.fixtures[0]!.problems).toEqual(['moves: in the live database, not after the migrations']);
    await unchanged();
  });

  it('exits 1 from the command line, with one line, whether it refuses at once or every fixture is refused', async () => {
    const writeConfig = (command?: string[]): Promise<void> =>
      writeFile(
        join(t.dir, 'turnkit.config.json'),
        JSON.stringify({
          database: { url: t.db.url },
          game: { ...GAME.game, migrate: { table: 'public.game_migrations', column: 'name', command } },
        }),
      );
    await writeConfig();
    const refused = await runInProcess(['upgrade'], { cwd: t.dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('game.migrate.command is not set');
    await writeConfig(script('record-only'));
    const none = await runInProcess(['upgrade'], { cwd: t.dir });
    expect(none.code).toBe(1);
    const lines = none.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^upgrade against postgres:\/\/\S+ \(configured: 2 applied, last 002_mood\.sql\)$/);
    expect(lines.at(-1)).toBe('upgrade: 2 of 2 fixture(s) not brought up to date; no file was written');
    // The embedded server's password never reaches a message.
    expect(none.stderr).not.toContain(new URL(t.db.url).password || '\0');
    await unchanged();
  });

  it("gives the migration a SUT's environment and masks what it echoes: no secret, no PG* variable, no escape", async () => {
    await writeFile(
      join(t.dir, 'turnkit.config.json'),
      JSON.stringify({
        database: { url: t.db.url },
        game: {
          ...GAME.game,
          migrate: {
            table: 'public.game_migrations',
            column: 'name',
            command: script('leak'),
            env: { DJANGO_SECRET_KEY: '${DJANGO_SECRET_KEY}' },
          },
        },
      }),
    );
    const env = { MY_API_KEY: 'sk-live-0123456789', PGHOST: 'live.example.com', DJANGO_SECRET_KEY: 'dj-9876543210' };
    const leaked = await runInProcess(['upgrade'], { cwd: t.dir, env });
    expect(leaked.code).toBe(1);
    const line = leaked.stderr.split('\n').find((entry) => entry.includes('keys:'))!;
    // The API key and PGHOST never reach it; the secret passed by name does, and is masked in what turnkit prints.
    expect(line).toContain('keys: api=undefined pghost=undefined django=*** \\u001b]52;c;aGk=\\u0007');
    expect(leaked.stderr).not.toContain('dj-9876543210');
    expect(leaked.stderr).not.toContain('\x1b');
    await unchanged();
  });

  it('Ctrl-C ends the migration and its child, drops the scratch database and writes nothing; gc drops one left by kill -9', async () => {
    await writeFile(
      join(t.dir, 'turnkit.config.json'),
      JSON.stringify({
        database: { url: t.db.url },
        game: { ...GAME.game, migrate: { table: 'public.game_migrations', column: 'name', command: script('hang') } },
      }),
    );
    const upgrading = spawn(process.execPath, [BIN, 'upgrade'], {
      cwd: t.dir,
      env: { ...process.env, DATABASE_URL: '' },
    });
    let stderr = '';
    upgrading.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => upgrading.on('close', resolve));
    const pidFile = join(t.dir, 'hang.pid');
    while (!(await readFile(pidFile, 'utf8').catch(() => ''))) await new Promise((resolve) => setTimeout(resolve, 100));
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    // Its scratch database is there while the migration runs, named as this process's.
    expect(await ownedBy(upgrading.pid!)).toHaveLength(1);
    upgrading.kill('SIGINT');
    expect(await closed, stderr).toBe(1);
    expect(stderr.trim().split('\n').at(-1)).toBe('upgrade: stopped by a signal; no fixture was written');
    expect(alive(grandchild)).toBe(false);
    expect(await ownedBy(upgrading.pid!)).toEqual([]);
    await unchanged();

    // kill -9 reaches no DROP: gc finds the database by the process its comment names.
    const dead = spawn('true');
    await new Promise((resolve) => dead.on('close', resolve));
    await createOwnedDatabase(t.db.pool, 'turnkit_scratch_upgrade_test_killed', 'upgrade');
    const note = (
      await t.db.pool.query(`SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database
      WHERE datname = 'turnkit_scratch_upgrade_test_killed'`)
    ).rows[0].note as string;
    const killed = JSON.parse(note);
    killed.owner.pid = dead.pid;
    await t.db.pool.query(
      `COMMENT ON DATABASE turnkit_scratch_upgrade_test_killed IS '${JSON.stringify(killed).replaceAll("'", "''")}'`,
    );
    await createOwnedDatabase(t.db.pool, 'turnkit_scratch_upgrade_test_running', 'upgrade');
    try {
      const report = await collectGarbage(t.db);
      const mine = report.databases.filter((database) => database.name.includes('_test_'));
      expect(mine).toEqual([
        {
          name: 'turnkit_scratch_upgrade_test_killed',
          purpose: 'upgrade',
          reason: `process ${dead.pid} on ${hostname()} is gone`,
        },
      ]);
      const left = await t.db.pool.query(
        `SELECT datname FROM pg_database WHERE datname LIKE 'turnkit_scratch_upgrade_test_%'`,
      );
      expect(left.rows.map((row) => row.datname)).toEqual(['turnkit_scratch_upgrade_test_running']);
    } finally {
      await t.db.pool.query('DROP DATABASE IF EXISTS turnkit_scratch_upgrade_test_running WITH (FORCE)');
      await t.db.pool.query('DROP DATABASE IF EXISTS turnkit_scratch_upgrade_test_killed WITH (FORCE)');
    }
  }, 120_000);

  it('writes none of the fixtures when a later batch fails, and all of them when every batch succeeds (with the changed column)', async () => {
    // The two fixtures hold one campaign's keys: two rebuilds, the second one's migration fails.
    await expect(upgrade(project(script('fail-after', '1')))).rejects.toThrow(
      /exited with 1: migration 002 failed: relation "x" does not exist$/,
    );
    await unchanged();

    const result = await upgrade(project(script('apply')));
    expect(result.fixtures.map((entry) => [entry.status, entry.schemaChanged])).toEqual([
      ['upgraded', true],
      ['upgraded', true],
    ]);
    for (const name of files) {
      const upgraded = JSON.parse(await readFile(join(t.dir, 'fixtures', name), 'utf8'));
      expect(upgraded.tables.games.rows.map((row: { mood: string }) => row.mood)).toEqual(['calm']);
      expect(upgraded.source.migrations).toEqual({
        tool: 'configured',
        table: 'public.game_migrations',
        applied: 2,
        latest: '002_mood.sql',
      });
    }
  }, 120_000);
});
