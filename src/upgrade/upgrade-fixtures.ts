import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { TurnkitError } from '../errors.js';
import { captureFromDb } from '../fixture/capture/capture.js';
import { FIXTURE_SCHEMA_FILE, type Fixture } from '../fixture/format.js';
import { pendingMigrations, readMigrationState, type MigrationState } from '../fixture/capture/migration-state.js';
import { readFixture } from '../fixture/read-fixture.js';
import {
  readSchemaSnapshot,
  schemaSnapshotFile,
  writeSchemaSnapshot,
  type SchemaSnapshot,
} from '../fixture/capture/schema-snapshot.js';
import { fixtureFile, writeSchemaFile } from '../fixture/capture/fixture-files.js';
import { writeFixtureFile } from '../fixture/capture/write-fixture.js';
import { inputPath, withProjectDb, type ProjectContext } from '../project/project-context.js';
import { shownPath } from '../util/shown-path.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import type { Catalog } from '../db/catalog-types.js';
import { introspect, type Queryable } from '../db/introspect.js';
import { checkMigrationsTurnkitRuns } from './migrations-turnkit-runs.js';
import { schemaDifferences } from './schema-against-live.js';
import { StagedWrites } from './staged-writes.js';
import { rebuildSchema } from './rebuild-schema.js';
import { runGameMigrations } from './run-migrations.js';
import { openUpgradeDatabase, type UpgradeDatabase } from './scratch-database.js';
import { seedAsCaptured } from './seed-as-captured.js';
import { recoverStates, withRecoveredState, type RecoveredState, type Unrecorded } from './recover-state.js';
import { batchesOf, snapshotFileOf } from './upgrade-plan.js';
import { configuredMigrationTable, fixtureStanding } from '../fixture/turns/fixture-standing.js';
import { followersOf, isConstructedFile, rerecordFollower, type Follower } from './follow-constructed.js';

/** What to upgrade. */
export interface UpgradeInput {
  /** Fixture files (default: every fixture in the config's fixtures folder). */
  files?: readonly string[] | undefined;
  /** Write the upgraded fixtures (and their snapshots) into this folder instead of over the files. */
  out?: string | undefined;
  /** The scrub key, or its lookup by the variable the config names (as for capture). */
  scrubKey?: string | ((envName: string) => string | undefined) | undefined;
  /** Capture sensitive-looking new columns without a rule anyway (recorded in the fixture). */
  allowSensitive?: boolean | undefined;
  /** For fixtures that recorded no migration state: the last one applied at capture (else found: recover-state.ts). */
  from?: string | undefined;
  /** Time to record as the capture and upgrade time (tests pin it). */
  now?: Date | undefined;
  signal?: AbortSignal | undefined;
}

/** One fixture's outcome. */
interface UpgradedFixture {
  file: string;
  /** `held`: upgraded but not written, because another fixture of the same upgrade was not (all or none). */
  status: 'upgraded' | 'current' | 'failed' | 'skipped' | 'held';
  /** The migrations it went through (upgraded), or why it was not upgraded. */
  migrations?: string[];
  written?: string;
  /** Set when upgraded: whether the migrations changed its tables (false: only its migration record moved on). */
  schemaChanged?: boolean;
  why?: string;
  /** Every problem behind `why`, one line each (the new columns a capture refused, say). */
  problems?: readonly string[];
  /** For a fixture that recorded no migration state: the last migration applied at capture, and how it was found. */
  capturedAfter?: { migration: string | undefined; how: RecoveredState['how'] };
}

/** What `turnkit upgrade` did. */
export interface UpgradeResult {
  /** The database the fixtures were brought up to: its URL without password and its migration state. */
  database: { url: string; tool: string; applied: number; latest?: string };
  fixtures: UpgradedFixture[];
  warnings: string[];
  /** Rebuilt databases: one per schema snapshot and batch of campaigns. */
  builds: number;
}

interface Item {
  file: string;
  fixture: Fixture;
  snapshotFile: string;
  snapshot: SchemaSnapshot;
  pending: string[];
  /** Set when the fixture recorded no migration state and it was found again (recover-state.ts). */
  recovered?: RecoveredState['how'];
}

// An upgraded fixture with where its file waits until the upgrade commits (staged-writes.ts).
type Outcome = UpgradedFixture & { stagedAs?: string };

/**
 * Upgrades fixtures through the game's own migrations: each schema snapshot rebuilt in a database of its own, the
 * fixtures seeded there as captured, migrated, and captured again (same campaign, turn, config and scrub rules).
 */
export async function upgrade(project: ProjectContext, input: UpgradeInput = {}): Promise<UpgradeResult> {
  const given = input.files?.length
    ? input.files.map((file) => (isAbsolute(file) ? file : inputPath(project, file)))
    : await fixturesIn(project.paths.fixtures);
  // Constructed fixtures named follow their base; the base is upgraded with them.
  const files: string[] = [];
  const namedConstructed: string[] = [];
  for (const file of given) ((await isConstructedFile(file)) ? namedConstructed : files).push(file);
  const outDir = input.out ? (isAbsolute(input.out) ? input.out : inputPath(project, input.out)) : undefined;
  const key = typeof input.scrubKey === 'function' ? input.scrubKey(project.config.scrubKeyEnv) : input.scrubKey;
  return withProjectDb(project, async (db) => {
    const live = await readMigrationState(db.pool, configuredMigrationTable(project.config));
    if (!live)
      throw new TurnkitError(
        'CONFIG',
        `${db.displayUrl} has no migration table turnkit knows: name it in game.migrate.table and game.migrate.column`,
      );
    await checkMigrationsTurnkitRuns(project.config, live, db.displayUrl);
    const database: UpgradeResult['database'] = {
      url: db.displayUrl,
      tool: live.tool,
      applied: live.applied.length,
      ...(live.applied.length > 0 ? { latest: live.applied.at(-1)! } : {}),
    };
    const results: Outcome[] = [];
    const staged = new StagedWrites();
    const groups = new Map<string, Item[]>();
    const stale = new Map<string, Item>();
    // Opened when first needed: to find where an unrecorded fixture stood (its migrations are replayed from
    // nothing), or to rebuild a schema.
    let opening: Promise<UpgradeDatabase> | undefined;
    const scratchDb = (): Promise<UpgradeDatabase> => {
      opening ??= openUpgradeDatabase(db);
      return opening;
    };
    const add = (item: Item): void => {
      // The database is created while the other fixtures are read (the server works, this process parses): a
      // fixture that needs a rebuild means one will be needed.
      scratchDb().catch(() => {});
      stale.set(item.file, item);
      groups.set(item.snapshotFile, [...(groups.get(item.snapshotFile) ?? []), item]);
    };
    // Read once per snapshot file, not once per fixture: fixtures sharing a fingerprint share one file.
    const snapshots = new Map<string, Promise<SchemaSnapshot>>();
    const planAll = async (list: readonly string[]): Promise<void> => {
      const unrecorded: Unrecorded[] = [];
      for (const file of list) {
        const item = await planned(file, live, snapshots);
        if ('status' in item) results.push(item);
        else if ('snapshot' in item) add(item);
        else unrecorded.push(item);
      }
      if (unrecorded.length === 0) return;
      const states = await recoverStates(scratchDb, project.config, unrecorded, live, input.from, input.signal);
      for (const { file, fixture } of unrecorded) {
        const state = states.get(file)!;
        if ('why' in state) {
          results.push({ file, status: 'skipped', why: state.why });
          continue;
        }
        const recovered = withRecoveredState(fixture, live, state);
        const pending = pendingMigrations(state, live);
        if (pending.length === 0) {
          results.push({ file, status: 'current' });
          continue;
        }
        const snapshotFile = snapshotFileOf(file, recovered);
        add({ file, fixture: recovered, snapshotFile, snapshot: state.snapshot, pending, recovered: state.how });
      }
    };
    try {
      await planAll(files);
      // Read before any base is rewritten: a constructed fixture materializes only on the base it recorded.
      const follow = await followersOf(project.paths.constructed, namedConstructed, new Set(stale.keys()));
      await planAll([...new Set(follow.bases)].filter((base) => !files.includes(base)));
      for (const { file, why } of follow.refused) results.push({ file, status: 'failed', why });
      const warnings: string[] = [];
      let builds = 0;
      if (groups.size === 0) {
        for (const follower of follow.followers) results.push({ file: follower.file, status: 'current' });
        return { database, fixtures: results, warnings, builds };
      }
      // What the migrated scratch database must equal before any fixture is written from it.
      const liveCatalog = await introspect(db.pool);
      // What every build of this upgrade is given (its clock read at each build).
      const buildOptions = (): BatchOptions => ({
        key: key === '' ? undefined : key,
        allowSensitive: input.allowSensitive,
        now: input.now ?? new Date(),
        outDir,
        warnings,
        signal: input.signal,
        staged,
        live: { catalog: liveCatalog, state: live, shown: db.displayUrl },
      });
      const scratch = await scratchDb();
      for (const items of groups.values()) {
        for (const batch of batchesOf(items)) {
          builds++;
          results.push(...(await upgradeBatch(scratch, project.config, batch, buildOptions())));
        }
      }
      for (const follower of follow.followers) {
        builds++;
        results.push(await upgradeFollower(scratch, project.config, follower, stale, results, buildOptions()));
      }
      return { database, fixtures: await settle(results, staged, outDir), warnings, builds };
    } finally {
      // Not committed (an error, a signal): every target stays as it was.
      await staged.discard();
      // One that failed to open has nothing to close (its error is the upgrade's, seen where it was awaited).
      await opening?.then(
        (scratch) => scratch.close(),
        () => {},
      );
    }
  });
}

// A constructed fixture's materialized state goes through the same rebuild and migrations as its base (a database
// of its own: it has the base's keys), then is re-recorded as a diff against the upgraded base.
async function upgradeFollower(
  scratch: UpgradeDatabase,
  config: LoadedConfig,
  follower: Follower,
  stale: ReadonlyMap<string, Item>,
  results: readonly Outcome[],
  options: BatchOptions,
): Promise<Outcome> {
  const basePath = follower.loaded.constructed.base.path;
  const baseItem = stale.get(basePath);
  const baseResult = results.find((entry) => entry.file === basePath);
  if (!baseItem || !baseResult) return { file: follower.file, status: 'current' };
  if (baseResult.status !== 'upgraded' || !baseResult.written || !baseResult.stagedAs)
    return { file: follower.file, status: 'failed', why: `its base ${shownPath(basePath)} was not upgraded` };
  const dir = await mkdtemp(join(tmpdir(), 'turnkit-follow-'));
  // Its materialized state is read back at once from the temporary folder: never committed anywhere.
  const scratchFiles = new StagedWrites();
  try {
    const item: Item = { ...baseItem, file: follower.file, fixture: follower.loaded.fixture };
    const [state] = await upgradeBatch(scratch, config, [item], { ...options, outDir: dir, staged: scratchFiles });
    if (state?.status !== 'upgraded' || !state.stagedAs)
      return { file: follower.file, status: 'failed', why: state?.why ?? 'not upgraded', problems: state?.problems };
    const target = options.outDir ? join(options.outDir, basename(follower.file)) : follower.file;
    const base = { read: baseResult.stagedAs, path: baseResult.written };
    const outcome = await rerecordFollower(follower, base, state.stagedAs, target);
    if ('why' in outcome) return { file: follower.file, status: 'failed', why: outcome.why };
    const stagedAs = options.staged.stage(target);
    await writeFileAtomic(stagedAs, outcome.text);
    return { file: follower.file, status: 'upgraded', migrations: baseItem.pending, written: target, stagedAs };
  } finally {
    await scratchFiles.discard();
    await rm(dir, { recursive: true, force: true });
  }
}

async function planned(
  file: string,
  live: MigrationState,
  snapshots: Map<string, Promise<SchemaSnapshot>>,
): Promise<Item | Unrecorded | UpgradedFixture> {
  const fixture = await readFixture(file);
  // Captured before turnkit recorded migration states: found again by recoverStates.
  if (!fixture.source.migrations) return { file, fixture };
  const snapshotFile = snapshotFileOf(file, fixture);
  if (!snapshots.has(snapshotFile))
    snapshots.set(snapshotFile, readSchemaSnapshot(snapshotFile, shownPath(snapshotFile)));
  const snapshot = await snapshots.get(snapshotFile)!;
  const standing = fixtureStanding(fixture, live, snapshot);
  if (standing.kind === 'current') return { file, status: 'current' };
  if (standing.kind === 'unknown') return { file, status: 'skipped', why: standing.why };
  return { file, fixture, snapshotFile, snapshot, pending: standing.pending };
}

interface BatchOptions {
  key: string | undefined;
  allowSensitive: boolean | undefined;
  now: Date;
  outDir: string | undefined;
  warnings: string[];
  signal: AbortSignal | undefined;
  /** Where every file of the upgrade waits until all succeeded. */
  staged: StagedWrites;
  /** The database the upgrade must reach: its tables and migration state, and its URL as shown. */
  live: { catalog: Catalog; state: MigrationState; shown: string };
}

async function upgradeBatch(
  scratch: UpgradeDatabase,
  config: LoadedConfig,
  batch: readonly Item[],
  options: BatchOptions,
): Promise<Outcome[]> {
  const first = batch[0]!;
  options.signal?.throwIfAborted();
  await scratch.reset();
  await rebuildSchema(scratch.db.pool, first.snapshot, shownPath(first.snapshotFile));
  const client = await scratch.db.pool.connect();
  try {
    await seedAsCaptured(client, config, batch);
  } finally {
    client.release();
  }
  await runGameMigrations(scratch.db, config, options.signal);
  // A migration that did nothing, one that recorded itself without changing the schema, one that dropped a table the
  // live database still has: none of these is an upgrade, and no fixture is rewritten from it.
  const reached = await reachedLive(scratch.db.pool, config, batch, options.live);
  if (reached.length > 0)
    return batch.map((item) => ({
      file: item.file,
      status: 'failed',
      why: `after the migrations the schema is not that of ${options.live.shown} (${reached.length} difference(s)): ${reached[0]}`,
      problems: reached,
    }));
  const results: Outcome[] = [];
  // The migrated schema is the same for every fixture of the batch: the first capture's snapshot serves them all.
  let taken: SchemaSnapshot | undefined;
  const snapshotFiles = new Set<string>();
  for (const item of batch) {
    options.signal?.throwIfAborted();
    try {
      const outcome = await captureFromDb(scratch.db, config, {
        campaign: item.fixture.source.root.value,
        turns: { turn: item.fixture.source.turn },
        name: item.fixture.name,
        now: options.now,
        snapshot: taken === undefined,
        scrub: {
          key: options.key,
          allowSensitive: options.allowSensitive,
          alreadyScrubbed: new Set(Object.keys(item.fixture.source.scrub?.rules ?? {})),
        },
      });
      const upgraded = withHistory(outcome.fixtures[0]!, item, options.now);
      const target = options.outDir ? fixtureFile(options.outDir, item.fixture.name) : item.file;
      const dir = dirname(target);
      taken ??= outcome.snapshots?.values().next().value;
      const fingerprints = outcome.snapshots
        ? [...outcome.snapshots.values()]
        : taken
          ? [{ ...taken, fingerprint: upgraded.source.schemaFingerprint }]
          : [];
      for (const snapshot of fingerprints) {
        const migrations = snapshot.migrations ? { applied: snapshot.migrations.applied.length } : undefined;
        const file = schemaSnapshotFile(dir, snapshot.fingerprint, migrations);
        if (snapshotFiles.has(file)) continue;
        snapshotFiles.add(file);
        // The project's database is the one the fixture will seed into: its labels, not the scratch one's.
        await writeSchemaSnapshot(options.staged.stage(file), {
          ...snapshot,
          serverVersion: item.snapshot.serverVersion,
        });
      }
      const stagedAs = options.staged.stage(target);
      await writeFixtureFile(stagedAs, upgraded);
      options.warnings.push(...outcome.warnings);
      results.push({
        file: item.file,
        status: 'upgraded',
        migrations: item.pending,
        written: target,
        stagedAs,
        schemaChanged: upgraded.source.schemaFingerprint !== item.fixture.source.schemaFingerprint,
        ...(item.recovered
          ? { capturedAfter: { migration: item.fixture.source.migrations?.latest, how: item.recovered } }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof TurnkitError)) throw error;
      results.push({ file: item.file, status: 'failed', why: error.message, problems: error.problems });
    }
  }
  return results;
}

// The new capture with what the scratch database cannot know: where the fixture came from, its last turn then, its
// recorded future inputs, and the chain of upgrades it went through.
function withHistory(fresh: Fixture, item: Item, now: Date): Fixture {
  const old = item.fixture.source;
  const { reflectsPresent, scrub, ...head } = fresh.source;
  const upgrades = [
    ...(old.upgrades ?? []),
    {
      from: old.schemaFingerprint,
      to: fresh.source.schemaFingerprint,
      migrations: item.pending,
      upgradedAt: now.toISOString(),
    },
  ];
  const everywhere = [...new Set([...(old.scrub?.everywhere ?? []), ...(scrub?.everywhere ?? [])])].sort();
  const source: Fixture['source'] = {
    ...head,
    database: old.database,
    latestTurn: old.latestTurn,
    upgrades,
    ...(reflectsPresent ? { reflectsPresent } : {}),
    ...(scrub ? { scrub: { ...scrub, ...(everywhere.length > 0 ? { everywhere } : {}) } } : {}),
  };
  const { tables, input } = fresh;
  return {
    ...(fresh.$schema ? { $schema: fresh.$schema } : {}),
    format: fresh.format,
    name: fresh.name,
    source,
    input,
    ...(item.fixture.ahead ? { ahead: item.fixture.ahead } : {}),
    tables,
  };
}

async function fixturesIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith('.json') && name !== FIXTURE_SCHEMA_FILE)
    .sort()
    .map((name) => join(dir, basename(name)));
}

// The upgrade's files moved into place when every fixture was upgraded (or current), else none of them: the upgraded
// ones are then `held`, with why. The JSON Schema is written into an --out folder with the fixtures.
async function settle(
  results: Outcome[],
  staged: StagedWrites,
  outDir: string | undefined,
): Promise<UpgradedFixture[]> {
  const blocking = results.filter((entry) => entry.status !== 'upgraded' && entry.status !== 'current');
  const shown = results.map(({ stagedAs: _, ...entry }) => entry);
  if (blocking.length === 0) {
    if (outDir && results.some((entry) => entry.status === 'upgraded')) await writeSchemaFile(outDir);
    await staged.commit();
    return shown;
  }
  await staged.discard();
  const why = `upgraded but not written: ${blocking.length} other fixture(s) of this upgrade were not upgraded, and one upgrade writes all or none`;
  return shown.map((entry) =>
    entry.status === 'upgraded' ? { file: entry.file, status: 'held', migrations: entry.migrations, why } : entry,
  );
}

// How the migrated scratch database differs from the live one: its tables (every live table, and the batch's), and
// its migration state (a command that ran fewer or other migrations than the live database has).
async function reachedLive(
  client: Queryable,
  config: LoadedConfig,
  batch: readonly Item[],
  live: BatchOptions['live'],
): Promise<string[]> {
  const migrated = await introspect(client);
  const lines = schemaDifferences(
    live.catalog,
    migrated,
    batch.flatMap((item) => Object.keys(item.fixture.tables)),
    live.state.table,
  );
  const state = await readMigrationState(client, configuredMigrationTable(config));
  const applied = state?.applied ?? [];
  if (JSON.stringify(applied) !== JSON.stringify(live.state.applied))
    lines.unshift(
      `the migrations left ${applied.length} applied (last ${applied.at(-1) ?? 'none'}), ${live.shown} has ${live.state.applied.length} (last ${live.state.applied.at(-1) ?? 'none'})`,
    );
  return lines;
}
