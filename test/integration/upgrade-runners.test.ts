import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnkitConfigInput } from '../../src/config/schema.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import type { Fixture } from '../../src/fixture/format.js';
import { readFixture } from '../../src/fixture/read-fixture.js';
import { projectPaths } from '../../src/project/open-project.js';
import type { ProjectContext } from '../../src/project/project-context.js';
import { upgrade } from '../../src/upgrade/upgrade-fixtures.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// Two migration tools from npm drive the upgrade of a small game whose schema only they manage.
const BIN = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));

const GAME: TurnkitConfigInput = {
  game: {
    root: { table: 'games', key: 'id' },
    turns: { table: 'moves', order: 'seq', input: ['said'] },
  },
};

const FIRST = `CREATE TABLE games (id serial PRIMARY KEY, title text NOT NULL);
  CREATE TABLE moves (id serial PRIMARY KEY, game_id integer NOT NULL REFERENCES games (id), seq integer NOT NULL,
    said text NOT NULL, reply text)`;
const SECOND = `ALTER TABLE moves RENAME COLUMN reply TO answer;
  ALTER TABLE games ADD COLUMN moves_played integer;
  UPDATE games AS g SET moves_played = (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id);
  ALTER TABLE games ALTER COLUMN moves_played SET NOT NULL`;

interface Runner {
  name: string;
  table: string;
  command: (dir: string) => string[];
  /** The command that applies the next one migration (game.migrate.step). */
  step: (dir: string) => string[];
  write: (dir: string, step: 1 | 2) => Promise<void>;
}

const RUNNERS: Runner[] = [
  {
    name: 'knex',
    table: 'public.knex_migrations',
    command: (dir) => [join(BIN, 'knex'), 'migrate:latest', '--knexfile', join(dir, 'knexfile.cjs')],
    step: (dir) => [join(BIN, 'knex'), 'migrate:up', '--knexfile', join(dir, 'knexfile.cjs')],
    async write(dir, step) {
      await mkdir(join(dir, 'knex-migrations'), { recursive: true });
      await writeFile(
        join(dir, 'knexfile.cjs'),
        `module.exports = { client: 'pg', connection: process.env.DATABASE_URL, migrations: { directory: ${JSON.stringify(join(dir, 'knex-migrations'))}, loadExtensions: ['.cjs'] } };\n`,
      );
      await writeFile(
        join(dir, 'knex-migrations', step === 1 ? '20260101000000_first.cjs' : '20260102000000_second.cjs'),
        `exports.up = (knex) => knex.raw(${JSON.stringify(step === 1 ? FIRST : SECOND)});\nexports.down = () => {};\n`,
      );
    },
  },
  {
    name: 'node-pg-migrate',
    table: 'public.pgmigrations',
    command: (dir) => [join(BIN, 'node-pg-migrate'), 'up', '-m', join(dir, 'pg-migrations'), '--no-check-order'],
    step: (dir) => [join(BIN, 'node-pg-migrate'), 'up', '1', '-m', join(dir, 'pg-migrations'), '--no-check-order'],
    async write(dir, step) {
      await mkdir(join(dir, 'pg-migrations'), { recursive: true });
      await writeFile(
        join(dir, 'pg-migrations', step === 1 ? '1700000000000_first.cjs' : '1700000000001_second.cjs'),
        `exports.up = (pgm) => { pgm.sql(${JSON.stringify(step === 1 ? FIRST : SECOND)}); };\n`,
      );
    },
  },
];

function comparable(fixture: Fixture): unknown {
  const { capturedAt: _at, upgrades: _chain, ...source } = fixture.source;
  return { ...fixture, source };
}

describe.each(BACKENDS)('turnkit upgrade with third-party migration runners on %s', (backend) => {
  describe.each(RUNNERS)('$name', (runner) => {
    let t: TestDb;
    let project: ProjectContext;
    let firstMigration: string;

    // Not spawnSync: the embedded server answers from this process, so its event loop must keep running.
    const migrateLive = async (): Promise<void> => {
      const [program, ...args] = runner.command(t.dir);
      const child = spawn(program!, args, { cwd: t.dir, env: { ...process.env, DATABASE_URL: t.db.url } });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, text).toBe(0);
    };

    beforeAll(async () => {
      t = await createTestDb(backend, GAME);
      // knex's command line looks for knex in the project's node_modules.
      await symlink(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(t.dir, 'node_modules'), 'dir');
      const config: LoadedConfig = {
        ...t.config,
        game: { ...t.config.game, migrate: { command: runner.command(t.dir) } },
      };
      project = { config, paths: projectPaths(config), db: t.db, usingDb: undefined };
      await runner.write(t.dir, 1);
      await migrateLive();
      await t.db.pool.query(`INSERT INTO games (title) VALUES ('other'), ('the game')`);
      await t.db.pool.query(
        `INSERT INTO moves (game_id, seq, said, reply) SELECT 2, n, 'move ' || n, 'reply ' || n FROM generate_series(1, 5) AS n`,
      );
    }, 120_000);
    afterAll(async () => t?.cleanup());

    it('records its migration table, and upgrades through it to what a fresh capture gives', async () => {
      await capture(project, { campaign: '2', turns: { turn: 4 }, name: 'game-2' });
      const old = await readFixture(join(t.dir, 'fixtures', 'game-2.json'));
      expect(old.source.migrations).toMatchObject({ tool: runner.name, table: runner.table, applied: 1 });
      // The same fixture as a turnkit that recorded no migration state wrote it, in a folder with no snapshot.
      const { migrations: _state, ...source } = old.source;
      await mkdir(join(t.dir, 'old'));
      await writeFile(join(t.dir, 'old', 'game-2.json'), `${JSON.stringify({ ...old, source }, null, 2)}\n`);
      firstMigration = old.source.migrations!.latest!;
      await runner.write(t.dir, 2);
      await migrateLive();
      const result = await upgrade(project, { now: new Date('2026-12-10T00:00:00Z') });
      expect(result.fixtures.map((entry) => [entry.status, entry.migrations?.length, entry.why])).toEqual([
        ['upgraded', 1, undefined],
      ]);
      const upgraded = await readFixture(join(t.dir, 'fixtures', 'game-2.json'));
      expect(upgraded.tables.moves!.rows.map((row) => row.answer)).toEqual(['reply 1', 'reply 2', 'reply 3']);
      // The backfill counts what the rebuilt database holds: turns 1..3 and turn 4's input row.
      expect(upgraded.tables.games!.rows[0]!.moves_played).toBe(4);
      await capture(project, { campaign: '2', turns: { turn: 4 }, name: 'game-2', out: 'fresh' });
      const fresh = await readFixture(join(t.dir, 'fresh', 'game-2.json'));
      // The live database counts all five moves; the fixture's world stops before turn 4, so its backfill sees four.
      expect(fresh.tables.games!.rows[0]!.moves_played).toBe(5);
      const { games: _g1, ...upgradedRest } = (comparable(upgraded) as Fixture).tables;
      const { games: _g2, ...freshRest } = (comparable(fresh) as Fixture).tables;
      expect(JSON.stringify(upgradedRest)).toBe(JSON.stringify(freshRest));
      expect(upgraded.source.migrations).toEqual(fresh.source.migrations);
    }, 120_000);

    it('finds the state of a fixture that recorded none by stepping through the migrations with game.migrate.step', async () => {
      const stepping: LoadedConfig = {
        ...project.config,
        game: { ...project.config.game, migrate: { command: runner.command(t.dir), step: runner.step(t.dir) } },
      };
      const now = new Date('2026-12-10T00:00:00Z');
      const result = await upgrade(
        { ...project, config: stepping, paths: projectPaths(stepping) },
        { files: ['old/game-2.json'], out: 'from-old', now },
      );
      expect(result.fixtures.map((entry) => [entry.status, entry.why, entry.capturedAfter])).toEqual([
        ['upgraded', undefined, { migration: firstMigration, how: 'inferred' }],
      ]);
      // The same bytes as the upgrade of the fixture that recorded its state (same time given to both).
      expect(await readFile(join(t.dir, 'from-old', 'game-2.json'), 'utf8')).toBe(
        await readFile(join(t.dir, 'fixtures', 'game-2.json'), 'utf8'),
      );
    }, 120_000);
  });
});
