import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedConfig } from '../../src/config/load.js';
import { migrate, SAMPLE_MIGRATIONS_DIR } from '../../src/db/migrate.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import type { Fixture } from '../../src/fixture/format.js';
import { readFixture } from '../../src/fixture/read-fixture.js';
import { projectPaths } from '../../src/project/open-project.js';
import type { ProjectContext } from '../../src/project/project-context.js';
import { seed, teardown } from '../../src/scratch/scratch-operations.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { upgrade } from '../../src/upgrade/upgrade-fixtures.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { verifyFixtures } from '../../src/fixture/verify-fixtures.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import { run } from '../../src/pipeline/run.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';

const TEST_MIGRATIONS = fileURLToPath(new URL('../helpers/upgrade-migrations', import.meta.url));
// The repository's committed sample fixture, captured before turnkit recorded migration states: only ever copied.
const COMMITTED_SAMPLE = fileURLToPath(new URL('../../fixtures/meridian-turn-23.json', import.meta.url));
const COMMITTED_CONSTRUCTED = fileURLToPath(
  new URL('../../constructed/meridian-turn-23-deck-fixed.json', import.meta.url),
);
const ADDED = [
  '20261210000000_rename_location_description',
  '20261210010000_turn_word_count',
  '20261210020000_split_character_traits',
  '20261210030000_player_contact_email',
];
const SAMPLE_LAST = '20261201000000_sample_user_accounts';

// Two captures of one campaign at one turn, told apart only by when they were taken and the upgrade chain.
function comparable(fixture: Fixture): unknown {
  const { capturedAt: _at, upgrades: _chain, ...source } = fixture.source;
  return { ...fixture, source };
}

// A fixture as turnkit wrote it before it recorded migration states: no `source.migrations`.
async function withoutState(file: string): Promise<void> {
  const fixture = await readFixture(file);
  const { migrations: _state, ...source } = fixture.source;
  await writeFile(file, `${JSON.stringify({ ...fixture, source }, null, 2)}\n`);
}

describe.each(BACKENDS)('turnkit upgrade of fixtures that recorded no migration state, on %s', (backend) => {
  let t: TestDb;
  let campaign: string;
  let project: ProjectContext;
  let committedBytes: string;
  const now = new Date('2026-12-10T12:00:00Z');

  const withConfig = (config: LoadedConfig): ProjectContext => ({ config, paths: projectPaths(config), db: t.db });

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    campaign = await createSampleCampaign(t.db, { turns: 12, seed: 5 });
    await mkdir(join(t.dir, 'migrations'));
    await symlink(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(t.dir, 'node_modules'), 'dir');
    await cp(SAMPLE_MIGRATIONS_DIR, join(t.dir, 'migrations'), { recursive: true });
    const base = withConfig({ ...t.config, migrations: 'migrations' });
    project = withConfig({ ...base.config, scrub: { ...base.config.scrub, 'users.contact_email': 'email' } });
    // A capture of this campaign with its schema snapshot, then its state taken out as an old turnkit left it.
    await capture(base, { campaign, turns: { turn: 9 }, name: 'turn-9', scrubKey: TEST_SCRUB_KEY });
    await withoutState(join(t.dir, 'fixtures', 'turn-9.json'));
    // Turn 1: no turn before it, whose row the rebuilt turn-1 row could copy its NOT NULL columns from.
    await capture(base, { campaign, turns: { turn: 1 }, name: 'turn-1', out: 'first', scrubKey: TEST_SCRUB_KEY });
    // A copy of the committed sample fixture, in a folder with no schema snapshot at all.
    committedBytes = await readFile(COMMITTED_SAMPLE, 'utf8');
    await mkdir(join(t.dir, 'old'));
    await writeFile(join(t.dir, 'old', 'meridian-turn-23.json'), committedBytes);
    for (const name of await readdir(TEST_MIGRATIONS))
      await cp(join(TEST_MIGRATIONS, name), join(t.dir, 'migrations', name));
    await migrate(t.db, join(t.dir, 'migrations'));
  }, 240_000);
  afterAll(async () => t?.cleanup());

  it('infers the committed sample fixture’s state from its fingerprint after each migration, and upgrades it', async () => {
    const result = await upgrade(project, {
      files: ['old/meridian-turn-23.json'],
      out: 'upgraded-inferred',
      scrubKey: TEST_SCRUB_KEY,
      now,
    });
    expect(result.fixtures).toEqual([
      {
        file: join(t.dir, 'old', 'meridian-turn-23.json'),
        status: 'upgraded',
        migrations: ADDED,
        written: join(t.dir, 'upgraded-inferred', 'meridian-turn-23.json'),
        schemaChanged: true,
        capturedAfter: { migration: SAMPLE_LAST, how: 'inferred' },
      },
    ]);
    // The copy is as it was; the upgraded one records the state it is now in and the chain from the old fingerprint.
    expect(await readFile(join(t.dir, 'old', 'meridian-turn-23.json'), 'utf8')).toBe(committedBytes);
    const old = JSON.parse(committedBytes) as Fixture;
    const upgraded = await readFixture(join(t.dir, 'upgraded-inferred', 'meridian-turn-23.json'));
    expect(upgraded.source.migrations).toEqual({
      tool: 'kysely',
      table: 'turnkit.kysely_migration',
      applied: 7,
      latest: ADDED.at(-1),
    });
    expect(upgraded.source.upgrades).toEqual([
      {
        from: old.source.schemaFingerprint,
        to: upgraded.source.schemaFingerprint,
        migrations: ADDED,
        upgradedAt: now.toISOString(),
      },
    ]);
    expect(upgraded.source.turn).toBe(23);
    expect(upgraded.input).toEqual(old.input);
    // The renamed column holds the old descriptions; the split table one row per character.
    expect(upgraded.tables.locations!.rows.map((row) => row.details)).toEqual(
      old.tables.locations!.rows.map((row) => row.description),
    );
    expect(upgraded.tables.character_traits!.rows).toHaveLength(old.tables.characters!.rows.length);
    // It seeds into the migrated database.
    const seeded = await seed(project, { fixture: join(t.dir, 'upgraded-inferred', 'meridian-turn-23.json') });
    await teardown(project, { key: seeded.id });
  }, 240_000);

  it('--from names the state; a migration whose schema is not the fixture’s, or one never applied, is refused', async () => {
    const named = await upgrade(project, {
      files: ['old/meridian-turn-23.json'],
      out: 'upgraded-named',
      from: SAMPLE_LAST,
      scrubKey: TEST_SCRUB_KEY,
      now,
    });
    expect(named.fixtures.map((entry) => [entry.status, entry.capturedAfter])).toEqual([
      ['upgraded', { migration: SAMPLE_LAST, how: 'named' }],
    ]);
    const inferred = await readFile(join(t.dir, 'upgraded-inferred', 'meridian-turn-23.json'), 'utf8');
    expect(await readFile(join(t.dir, 'upgraded-named', 'meridian-turn-23.json'), 'utf8')).toBe(inferred);

    const wrong = await upgrade(project, {
      files: ['old/meridian-turn-23.json'],
      out: 'upgraded-wrong',
      from: '20261129120000_sample_foreign_key_indexes',
      scrubKey: TEST_SCRUB_KEY,
      now,
    });
    expect(wrong.fixtures).toEqual([
      {
        file: join(t.dir, 'old', 'meridian-turn-23.json'),
        status: 'skipped',
        why: "its schema is not the one after 20261129120000_sample_foreign_key_indexes (the captured tables' fingerprint differs)",
      },
    ]);
    const unknown = await upgrade(project, { files: ['old/meridian-turn-23.json'], from: 'nope', now });
    expect(unknown.fixtures[0]!.why).toBe(
      `--from nope: not a migration the database has applied (its latest is ${ADDED.at(-1)})`,
    );
    expect(await readFile(join(t.dir, 'old', 'meridian-turn-23.json'), 'utf8')).toBe(committedBytes);
  }, 240_000);

  it('finds the state of a fixture from the snapshot with its fingerprint; the result equals a fresh capture', async () => {
    const result = await upgrade(project, { files: ['fixtures/turn-9.json'], scrubKey: TEST_SCRUB_KEY, now });
    expect(result.fixtures.map((entry) => [entry.status, entry.migrations, entry.capturedAfter])).toEqual([
      ['upgraded', ADDED, { migration: SAMPLE_LAST, how: 'snapshot' }],
    ]);
    const upgraded = await readFixture(join(t.dir, 'fixtures', 'turn-9.json'));
    await capture(project, { campaign, turns: { turn: 9 }, name: 'turn-9', out: 'fresh', scrubKey: TEST_SCRUB_KEY });
    const fresh = await readFixture(join(t.dir, 'fresh', 'turn-9.json'));
    expect(JSON.stringify(comparable(upgraded), null, 2)).toBe(JSON.stringify(comparable(fresh), null, 2));
  }, 240_000);

  it('a game migrated by its own command with no step command: told to name game.migrate.step', async () => {
    const commanded = withConfig({
      ...project.config,
      game: { ...project.config.game, migrate: { command: ['true'] } },
    });
    const result = await upgrade(commanded, { files: ['old/meridian-turn-23.json'], out: 'never', now });
    expect(result.fixtures[0]).toMatchObject({ status: 'skipped' });
    expect(result.fixtures[0]!.why).toMatch(/name the command that applies one migration in game\.migrate\.step/);
  });

  it('upgrades a turn-1 fixture although the turns table has NOT NULL columns without defaults', async () => {
    const turns = (await readFixture(join(t.dir, 'first', 'turn-1.json'))).tables.turns!;
    // What makes it hard: played_at and ship_minute must be given, and no earlier turn row holds them.
    const required = turns.columns.filter(
      (column) => !column.nullable && column.default === undefined && !column.identity,
    );
    expect(required.map((column) => column.name)).toEqual(
      expect.arrayContaining(['played_at', 'ship_minute', 'player_input']),
    );
    expect(turns.rows).toEqual([]);
    const result = await upgrade(project, { files: ['first/turn-1.json'], scrubKey: TEST_SCRUB_KEY, now });
    expect(result.fixtures.map((entry) => [entry.status, entry.why, entry.migrations])).toEqual([
      ['upgraded', undefined, ADDED],
    ]);
    const upgraded = await readFixture(join(t.dir, 'first', 'turn-1.json'));
    await capture(project, { campaign, turns: { turn: 1 }, name: 'turn-1', out: 'fresh-1', scrubKey: TEST_SCRUB_KEY });
    const fresh = await readFixture(join(t.dir, 'fresh-1', 'turn-1.json'));
    expect(JSON.stringify(comparable(upgraded), null, 2)).toBe(JSON.stringify(comparable(fresh), null, 2));
  }, 240_000);

  it('upgrades copies of the committed fixture and its constructed fixture together; both seed and run', async () => {
    // The committed pair as a project keeps them: constructed/ beside fixtures/, its base named ../fixtures/....
    await mkdir(join(t.dir, 'constructed'), { recursive: true });
    await cp(COMMITTED_SAMPLE, join(t.dir, 'fixtures', 'meridian-turn-23.json'));
    await cp(COMMITTED_CONSTRUCTED, join(t.dir, 'constructed', 'meridian-turn-23-deck-fixed.json'));
    const constructedBefore = await loadFixture(join(t.dir, 'constructed', 'meridian-turn-23-deck-fixed.json'));
    const result = await upgrade(project, { files: ['fixtures/meridian-turn-23.json'], scrubKey: TEST_SCRUB_KEY, now });
    expect(result.fixtures.map((entry) => [entry.file, entry.status, entry.why, entry.migrations])).toEqual([
      [join(t.dir, 'fixtures', 'meridian-turn-23.json'), 'upgraded', undefined, ADDED],
      [join(t.dir, 'constructed', 'meridian-turn-23-deck-fixed.json'), 'upgraded', undefined, ADDED],
    ]);
    const followed = await loadFixture(join(t.dir, 'constructed', 'meridian-turn-23-deck-fixed.json'));
    // Still one turn's change, now of the upgraded base: turn 19's narration, deck 3 fixed to deck 2.
    expect(followed.constructed!.document.turn).toBe(19);
    expect(followed.constructed!.changes.map((change) => change.column)).toEqual(
      constructedBefore.constructed!.changes.map((change) => change.column),
    );
    const narration = (fixture: Fixture): unknown =>
      fixture.tables.turns!.rows.find((row) => row.turn_number === 19)!.narration;
    expect(narration(followed.fixture)).toBe(narration(constructedBefore.fixture));
    expect(narration(followed.constructed!.base.fixture)).toBe(narration(constructedBefore.constructed!.base.fixture));
    expect(followed.constructed!.base.fixture.source.upgrades).toHaveLength(1);

    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it reads its campaign\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    const seen: string[] = [];
    const sut: SutFunction = async (request, { db }) => {
      // Columns only the upgraded schema has: the renamed details, the split traits table.
      const { rows } = await db.query(
        `SELECT count(l.details) AS places, (SELECT count(*) FROM character_traits) AS traits,
                (SELECT narration FROM turns WHERE campaign_id = $1 AND turn_number = 19) AS narration
         FROM locations AS l WHERE l.campaign_id = $1`,
        [request.campaign],
      );
      seen.push(String(rows[0].narration));
      return { response: `${rows[0].places} place(s), ${rows[0].traits} trait row(s)` };
    };
    const question: QuestionInput = {
      id: 'committed-upgraded',
      question: 'Do the upgraded committed fixtures seed and run?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.8,
      reps: 1,
      fixtures: ['fixtures/meridian-turn-23.json', 'constructed/meridian-turn-23-deck-fixed.json'],
      sut: sut as QuestionInput['sut'],
      caseFile: 'questions/case.md',
    };
    const ran = await run(project, { question, env: { [project.config.scrubKeyEnv]: TEST_SCRUB_KEY } });
    expect(ran).toMatchObject({ status: 'complete', ran: 2, errors: 0 });
    expect(seen.sort()).toEqual(
      [narration(constructedBefore.constructed!.base.fixture), narration(constructedBefore.fixture)].map(String).sort(),
    );
  }, 300_000);

  it('verify and seed tell of a fixture that recorded no state and whose schema moved on; run --upgrade upgrades a copy', async () => {
    const verified = await verifyFixtures(project, { paths: ['old/meridian-turn-23.json'], database: true });
    const told =
      "old/meridian-turn-23.json: recorded no migration state (captured before turnkit did) and its schema is not the database's: turnkit upgrade finds where it stood (or name it: --from MIGRATION)";
    expect(verified.problems).toContain(told);
    expect(verified.problems).toContain('upgrade it with: turnkit upgrade old/meridian-turn-23.json');
    await expect(seed(project, { fixture: join(t.dir, 'old', 'meridian-turn-23.json') })).rejects.toThrow(
      `${told}; run: turnkit upgrade old/meridian-turn-23.json`,
    );
    // A fixture captured under the database's own schema that recorded no state: nothing to tell.
    await capture(project, { campaign, turns: { turn: 5 }, name: 'now-5', out: 'now', scrubKey: TEST_SCRUB_KEY });
    await withoutState(join(t.dir, 'now', 'now-5.json'));
    const current = await verifyFixtures(project, { paths: ['now/now-5.json'], database: true });
    expect(current.problems.filter((line) => line.includes('upgrade'))).toEqual([]);

    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it reads its campaign\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    const sut: SutFunction = async (request, { db }) => {
      const { rows } = await db.query('SELECT count(details) AS n FROM locations WHERE campaign_id = $1', [
        request.campaign,
      ]);
      return { response: `${rows[0].n} place(s)` };
    };
    const question: QuestionInput = {
      id: 'unrecorded-run',
      question: 'Does a rep seed the upgraded copy of a fixture that recorded no state?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.8,
      reps: 1,
      fixtures: ['old/meridian-turn-23.json'],
      sut: sut as QuestionInput['sut'],
      caseFile: 'questions/case.md',
    };
    const ran = await run(project, {
      question,
      upgrade: true,
      env: { [project.config.scrubKeyEnv]: TEST_SCRUB_KEY },
    });
    expect(ran).toMatchObject({ status: 'complete', ran: 1, errors: 0 });
    expect(await readFile(join(t.dir, 'old', 'meridian-turn-23.json'), 'utf8')).toBe(committedBytes);
    const manifest = JSON.parse(await readFile(join(ran.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.fixtures[0]!.upgraded!.migrations).toEqual(ADDED);
    const record = JSON.parse(await readFile(join(ran.dir, 'reps', 'meridian-turn-23', 'rep-01.json'), 'utf8'));
    const places = (JSON.parse(committedBytes) as Fixture).tables.locations!.rows.length;
    expect(record.response).toBe(`${places} place(s)`);
  }, 300_000);
});
