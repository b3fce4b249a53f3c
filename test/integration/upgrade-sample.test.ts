import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
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
import { upgradeIntoCache } from '../../src/upgrade/upgrade-for-run.js';
import { verifyFixtures } from '../../src/fixture/verify-fixtures.js';
import { run } from '../../src/pipeline/run.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { QuestionInput } from '../../src/question/question-format.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';

const TEST_MIGRATIONS = fileURLToPath(new URL('../helpers/upgrade-migrations', import.meta.url));

// sha256 of every file under a folder, by its path relative to it: what "bytes unchanged" is checked against.
async function hashesUnder(dir: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for (const name of (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()))
    hashes.set(
      relative(dir, join(name.parentPath, name.name)),
      createHash('sha256')
        .update(await readFile(join(name.parentPath, name.name)))
        .digest('hex'),
    );
  return hashes;
}

// Two captures of one campaign at one turn, told apart only by when they were taken and the upgrade chain.
function comparable(fixture: Fixture): unknown {
  const { capturedAt: _at, upgrades: _chain, ...source } = fixture.source;
  return { ...fixture, source };
}

describe.each(BACKENDS)('turnkit upgrade of the sample game on %s', (backend) => {
  let t: TestDb;
  let campaign: string;
  let project: ProjectContext;
  let old: Fixture;
  const now = new Date('2026-12-10T12:00:00Z');

  const withConfig = (config: LoadedConfig): ProjectContext => ({ config, paths: projectPaths(config), db: t.db });

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    await createSampleCampaign(t.db, { turns: 12, seed: 3 });
    campaign = await createSampleCampaign(t.db, { turns: 30 });
    // The game's migrations folder: the sample's three, then the four this test adds once the fixtures exist.
    await mkdir(join(t.dir, 'migrations'));
    // The migrations import kysely from the project's node_modules.
    await symlink(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(t.dir, 'node_modules'), 'dir');
    await cp(SAMPLE_MIGRATIONS_DIR, join(t.dir, 'migrations'), { recursive: true });
    project = withConfig({ ...t.config, migrations: 'migrations' });
    await capture(project, { campaign, turns: { turn: 23 }, name: 'turn-23', scrubKey: TEST_SCRUB_KEY });
    await capture(project, { campaign, turns: { turn: 9 }, name: 'turn-9', scrubKey: TEST_SCRUB_KEY });
    old = await readFixture(join(t.dir, 'fixtures', 'turn-23.json'));
    for (const name of await readdir(TEST_MIGRATIONS))
      await cp(join(TEST_MIGRATIONS, name), join(t.dir, 'migrations', name));
    await migrate(t.db, join(t.dir, 'migrations'));
  }, 240_000);
  afterAll(async () => t?.cleanup());

  it('records the migration state and one schema snapshot shared by both fixtures', async () => {
    expect(old.source.migrations).toEqual({
      tool: 'kysely',
      table: 'turnkit.kysely_migration',
      applied: 3,
      latest: '20261201000000_sample_user_accounts',
    });
    const snapshots = await readdir(join(t.dir, 'fixtures', 'schemas'));
    expect(snapshots).toEqual([`${old.source.schemaFingerprint.slice(7, 23)}-m3.json`]);
    const snapshot = JSON.parse(await readFile(join(t.dir, 'fixtures', 'schemas', snapshots[0]!), 'utf8'));
    expect(snapshot.migrations.applied).toHaveLength(3);
    expect(snapshot.statements.some((line: string) => line.startsWith('CREATE TABLE "public"."turns"'))).toBe(true);
    expect(snapshot.rows['turnkit.kysely_migration']).toHaveLength(3);
  });

  it('verify --database names the stale fixtures and the one command; seed says the same', async () => {
    const result = await verifyFixtures(project, { database: true });
    expect(result.problems).toContain('upgrade the 2 with: turnkit upgrade fixtures/turn-23.json fixtures/turn-9.json');
    expect(result.problems).toContain(
      "fixtures/turn-23.json: captured 4 migration(s) ago (20261210000000_rename_location_description, 20261210010000_turn_word_count, 20261210020000_split_character_traits, ...): the database's schema moved on",
    );
    await expect(seed(project, { fixture: join(t.dir, 'fixtures', 'turn-23.json') })).rejects.toThrow(
      /captured 4 migration\(s\) ago .*; run: turnkit upgrade /,
    );
  });

  it("refuses the new column of players' emails until a scrub rule covers it", async () => {
    const result = await upgrade(project, { files: ['fixtures/turn-23.json'], scrubKey: TEST_SCRUB_KEY, now });
    expect(result.fixtures).toHaveLength(1);
    expect(result.fixtures[0]).toMatchObject({ status: 'failed' });
    expect(result.fixtures[0]!.problems!.join('\n')).toContain('users.contact_email');
    expect(result.fixtures[0]!.problems!.join('\n')).not.toContain('@players.example.com');
    expect(await readFile(join(t.dir, 'fixtures', 'turn-23.json'), 'utf8')).toBe(`${JSON.stringify(old, null, 2)}\n`);
  });

  it('upgrades into a cache keyed by the bytes and the migration state, leaving the file as it was', async () => {
    const ruled = withConfig({ ...project.config, scrub: { ...project.config.scrub, 'users.contact_email': 'email' } });
    const file = join(t.dir, 'fixtures', 'turn-9.json');
    const before = await readFile(file, 'utf8');
    const [entry] = await upgradeIntoCache(ruled, [file], { scrubKey: TEST_SCRUB_KEY });
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(entry!.upgraded!.path).toContain(join(t.dir, '.turnkit', 'upgraded'));
    expect(entry!.upgraded!.migrations).toHaveLength(4);
    const copy = await readFixture(entry!.upgraded!.path);
    expect(copy.source.upgrades).toHaveLength(1);
    expect(copy.source.turn).toBe(9);
    // Asked again, the copy is reused (same bytes, same state).
    const [again] = await upgradeIntoCache(ruled, [file], { scrubKey: TEST_SCRUB_KEY });
    expect(again!.upgraded!.path).toBe(entry!.upgraded!.path);
  }, 240_000);

  it('run --upgrade seeds the upgraded copies, leaves every fixture byte as it was and lists the copies', async () => {
    const ruled = withConfig({ ...project.config, scrub: { ...project.config.scrub, 'users.contact_email': 'email' } });
    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it reads its campaign\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
    const before = await hashesUnder(join(t.dir, 'fixtures'));
    const expected = old.tables.locations!.rows.map((row) => row.description).sort();
    const seen: unknown[][] = [];
    const sut: SutFunction = async (request, { db }) => {
      // The renamed column exists only in the upgraded copy: a rep seeded from the stale file could not read it.
      const { rows } = await db.query('SELECT details FROM locations WHERE campaign_id = $1 ORDER BY details', [
        request.campaign,
      ]);
      seen.push(rows.map((row) => row.details));
      return { response: `read ${rows.length} location(s)` };
    };
    const question: QuestionInput = {
      id: 'upgraded-run',
      question: 'Does the rep seed the upgraded fixture?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.8,
      reps: 1,
      fixtures: ['fixtures/turn-23.json'],
      sut: sut as QuestionInput['sut'],
      caseFile: 'questions/case.md',
    };
    const result = await run(ruled, {
      question,
      upgrade: true,
      env: { [ruled.config.scrubKeyEnv]: TEST_SCRUB_KEY },
    });
    expect(result).toMatchObject({ status: 'complete', ran: 1, errors: 0 });
    expect(seen).toEqual([expected]);
    expect(await hashesUnder(join(t.dir, 'fixtures'))).toEqual(before);
    const manifest = JSON.parse(await readFile(join(result.dir, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest.fixtures).toHaveLength(1);
    const [entry] = manifest.fixtures;
    expect(entry!.file).toEqual({ path: 'fixtures/turn-23.json', sha256: before.get('turn-23.json') });
    expect(entry!.upgraded!.path).toMatch(/^\.turnkit\/upgraded\/[0-9a-f]{24}\/turn-23\.json$/);
    expect(entry!.upgraded!.migrations).toEqual([
      '20261210000000_rename_location_description',
      '20261210010000_turn_word_count',
      '20261210020000_split_character_traits',
      '20261210030000_player_contact_email',
    ]);
    const copy = await readFile(join(t.dir, entry!.upgraded!.path));
    expect(entry!.upgraded!.sha256).toBe(createHash('sha256').update(copy).digest('hex'));
    // Without --upgrade the same run refuses the stale fixture with the command that upgrades it.
    const stale = await run(ruled, { question: { ...question, id: 'stale-run' } });
    expect(stale.seedErrors.count).toBe(1);
    expect(stale.seedErrors.first).toMatch(/captured 4 migration\(s\) ago .*turnkit upgrade /);
    expect(await hashesUnder(join(t.dir, 'fixtures'))).toEqual(before);
  }, 240_000);

  it('upgrades both fixtures through the migrations, byte-identical to a fresh capture but for time and chain', async () => {
    const ruled = withConfig({
      ...project.config,
      scrub: { ...project.config.scrub, 'users.contact_email': 'email' },
    });
    const result = await upgrade(ruled, { scrubKey: TEST_SCRUB_KEY, now });
    expect(result.fixtures.map((entry) => [entry.status, entry.migrations?.length])).toEqual([
      ['upgraded', 4],
      ['upgraded', 4],
    ]);
    // Two fixtures of one campaign: their rows share keys, so each gets a rebuild of its own.
    expect(result.builds).toBe(2);
    const upgraded = await readFixture(join(t.dir, 'fixtures', 'turn-23.json'));
    expect(upgraded.source.upgrades).toEqual([
      {
        from: old.source.schemaFingerprint,
        to: upgraded.source.schemaFingerprint,
        migrations: [
          '20261210000000_rename_location_description',
          '20261210010000_turn_word_count',
          '20261210020000_split_character_traits',
          '20261210030000_player_contact_email',
        ],
        upgradedAt: now.toISOString(),
      },
    ]);
    expect(upgraded.tables.locations!.rows[0]).toHaveProperty('details');
    expect(upgraded.tables.character_traits!.rows.length).toBe(old.tables.characters!.rows.length);
    expect(upgraded.tables.turns!.rows.every((row) => typeof row.word_count === 'number')).toBe(true);
    expect(JSON.stringify(upgraded)).not.toContain('@players.example.com');

    // The oracle: the same campaign captured afresh from the migrated live database.
    await capture(ruled, {
      campaign,
      turns: { turn: 23 },
      name: 'turn-23',
      out: 'fresh',
      scrubKey: TEST_SCRUB_KEY,
    });
    const fresh = await readFixture(join(t.dir, 'fresh', 'turn-23.json'));
    expect(JSON.stringify(comparable(upgraded), null, 2)).toBe(JSON.stringify(comparable(fresh), null, 2));

    // And the upgraded fixture seeds into the migrated database.
    const seeded = await seed(ruled, { fixture: join(t.dir, 'fixtures', 'turn-23.json') });
    await teardown(ruled, { key: seeded.id });
    // Up to date now: a second upgrade leaves the files alone.
    const again = await upgrade(ruled, { scrubKey: TEST_SCRUB_KEY, now });
    expect(again.fixtures.map((entry) => entry.status)).toEqual(['current', 'current']);
  }, 240_000);
});
