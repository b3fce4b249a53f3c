import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrationState } from '../../src/fixture/capture/migration-state.js';
import { takeSchemaSnapshot } from '../../src/fixture/capture/schema-snapshot.js';
import { rebuildSchema } from '../../src/upgrade/rebuild-schema.js';
import { openUpgradeDatabase } from '../../src/upgrade/scratch-database.js';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';

// sqitch's registry as `sqitch deploy` creates it (the columns it reads; pg registry 1.1), with its references:
// changes and tags belong to a project, dependencies and tags to a change. A game deployed by sqitch: one table.
const REGISTRY = `
  CREATE SCHEMA sqitch;
  CREATE TABLE sqitch.releases (version real PRIMARY KEY, installed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    installer_name text NOT NULL, installer_email text NOT NULL);
  CREATE TABLE sqitch.projects (project text PRIMARY KEY, uri text UNIQUE, created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    creator_name text NOT NULL, creator_email text NOT NULL);
  CREATE TABLE sqitch.changes (change_id text PRIMARY KEY, script_hash text, change text NOT NULL,
    project text NOT NULL REFERENCES sqitch.projects (project) ON UPDATE CASCADE, note text NOT NULL DEFAULT '',
    committed_at timestamptz NOT NULL DEFAULT clock_timestamp(), committer_name text NOT NULL, committer_email text NOT NULL,
    planned_at timestamptz NOT NULL, planner_name text NOT NULL, planner_email text NOT NULL, UNIQUE (project, script_hash));
  CREATE TABLE sqitch.tags (tag_id text PRIMARY KEY, tag text NOT NULL,
    project text NOT NULL REFERENCES sqitch.projects (project) ON UPDATE CASCADE,
    change_id text NOT NULL REFERENCES sqitch.changes (change_id) ON UPDATE CASCADE, note text NOT NULL DEFAULT '',
    committed_at timestamptz NOT NULL DEFAULT clock_timestamp(), committer_name text NOT NULL, committer_email text NOT NULL,
    planned_at timestamptz NOT NULL, planner_name text NOT NULL, planner_email text NOT NULL, UNIQUE (project, tag));
  CREATE TABLE sqitch.dependencies (change_id text NOT NULL REFERENCES sqitch.changes (change_id) ON UPDATE CASCADE ON DELETE CASCADE,
    type text NOT NULL, dependency text NOT NULL, dependency_id text REFERENCES sqitch.changes (change_id) ON UPDATE CASCADE,
    PRIMARY KEY (change_id, dependency));
  CREATE TABLE sqitch.events (event text NOT NULL, change_id text NOT NULL, change text NOT NULL, project text NOT NULL,
    note text NOT NULL DEFAULT '', requires text[] NOT NULL DEFAULT '{}', conflicts text[] NOT NULL DEFAULT '{}',
    tags text[] NOT NULL DEFAULT '{}', committed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    committer_name text NOT NULL, committer_email text NOT NULL, planned_at timestamptz NOT NULL,
    planner_name text NOT NULL, planner_email text NOT NULL, PRIMARY KEY (change_id, committed_at));
  INSERT INTO sqitch.releases VALUES (1.1, '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com');
  INSERT INTO sqitch.projects VALUES ('game', NULL, '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com');
  INSERT INTO sqitch.changes VALUES
    ('c1', 'h1', 'campaigns', 'game', '', '2026-11-01T00:01:00Z', 'Dev', 'dev@example.com', '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com'),
    ('c2', 'h2', 'turns', 'game', '', '2026-11-01T00:02:00Z', 'Dev', 'dev@example.com', '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com');
  INSERT INTO sqitch.tags VALUES ('t1', '@v1', 'game', 'c2', '', '2026-11-01T00:03:00Z', 'Dev', 'dev@example.com',
    '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com');
  INSERT INTO sqitch.dependencies VALUES ('c2', 'require', 'campaigns', 'c1');
  INSERT INTO sqitch.events (event, change_id, change, project, committed_at, committer_name, committer_email,
    planned_at, planner_name, planner_email) VALUES
    ('deploy', 'c1', 'campaigns', 'game', '2026-11-01T00:01:00Z', 'Dev', 'dev@example.com', '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com'),
    ('deploy', 'c2', 'turns', 'game', '2026-11-01T00:02:00Z', 'Dev', 'dev@example.com', '2026-11-01T00:00:00Z', 'Dev', 'dev@example.com');
  CREATE TABLE public.campaigns (id bigint PRIMARY KEY, title text NOT NULL);
`;

const TABLES = ['changes', 'dependencies', 'events', 'projects', 'releases', 'tags'];

describe.each(BACKENDS)('a schema snapshot of a game deployed by sqitch, on %s', (backend) => {
  let t: TestDb;

  beforeAll(async () => {
    t = await createTestDb(backend, {
      game: { root: { table: 'campaigns', key: 'id' }, turns: { table: 'campaigns', order: 'id', input: ['title'] } },
    });
    await t.db.pool.query(REGISTRY);
  }, 120_000);
  afterAll(async () => t?.cleanup());

  it("holds every table of sqitch's registry, and a rebuild restores them so that sqitch knows what is deployed", async () => {
    const state = await readMigrationState(t.db.pool);
    expect(state).toEqual({ tool: 'sqitch', table: 'sqitch.changes', applied: ['campaigns', 'turns'] });
    const snapshot = await takeSchemaSnapshot(t.db.pool, 'sha256:test', '15', state);
    expect(Object.keys(snapshot.rows).sort()).toEqual(TABLES.map((name) => `sqitch.${name}`));
    expect(snapshot.rows['sqitch.tags']).toEqual([expect.objectContaining({ tag: '@v1', change_id: 'c2' })]);
    const scratch = await openUpgradeDatabase(t.db);
    try {
      // Rows go in after the ones they reference (changes after projects, tags and dependencies after changes).
      await rebuildSchema(scratch.db.pool, snapshot, 'schemas/test.json');
      const counts: Record<string, number> = {};
      for (const name of TABLES)
        counts[name] = Number((await scratch.db.pool.query(`SELECT count(*) AS n FROM sqitch.${name}`)).rows[0].n);
      expect(counts).toEqual({ changes: 2, dependencies: 1, events: 2, projects: 1, releases: 1, tags: 1 });
      expect(await readMigrationState(scratch.db.pool)).toEqual(state);
      const again = await takeSchemaSnapshot(scratch.db.pool, 'sha256:test', '15', state);
      expect(again.rows).toEqual(snapshot.rows);
    } finally {
      await scratch.close();
    }
  }, 120_000);
});
