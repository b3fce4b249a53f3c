import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { introspect } from '../db/introspect.js';
import { migrateOneUp, migrationsFolder } from '../db/migrate.js';
import { schemaFingerprint } from '../fixture/capture/build-fixture.js';
import { configuredMigrationTable } from '../fixture/turns/fixture-standing.js';
import type { Fixture } from '../fixture/format.js';
import { readMigrationState, type MigrationState } from '../fixture/capture/migration-state.js';
import {
  readSchemaSnapshot,
  SCHEMA_SNAPSHOT_DIR,
  takeSchemaSnapshot,
  type SchemaSnapshot,
} from '../fixture/capture/schema-snapshot.js';
import { shownPath } from '../util/shown-path.js';
import { runMigrationCommand } from './run-migrations.js';
import type { UpgradeDatabase } from './scratch-database.js';

/** Where a fixture captured before turnkit recorded migration states stood, found again. */
export interface RecoveredState {
  /** The migrations applied when it was captured, oldest first. */
  applied: string[];
  snapshot: SchemaSnapshot;
  /** How it was found: a snapshot with its fingerprint, the migration `--from` named, or stepping through them. */
  how: 'snapshot' | 'named' | 'inferred';
}

/** A fixture whose state is to be found: its file and document. */
export interface Unrecorded {
  file: string;
  fixture: Fixture;
}

type Config = Pick<LoadedConfig, 'game' | 'baseDir' | 'migrations' | 'database'>;

/**
 * Finds the migration state of fixtures that recorded none: a snapshot beside it with its fingerprint, else the one
 * migration (or `from`) after which, applied one at a time to `scratch`, the captured tables' fingerprint is its own.
 */
export async function recoverStates(
  scratch: () => Promise<UpgradeDatabase>,
  config: Config,
  items: readonly Unrecorded[],
  live: MigrationState,
  from: string | undefined,
  signal?: AbortSignal,
): Promise<Map<string, RecoveredState | { why: string }>> {
  const found = new Map<string, RecoveredState | { why: string }>();
  if (from !== undefined && !live.applied.includes(from)) {
    const why = `--from ${from}: not a migration the database has applied (its latest is ${live.applied.at(-1) ?? 'none'})`;
    for (const item of items) found.set(item.file, { why });
    return found;
  }
  const rest: Unrecorded[] = [];
  for (const item of items) {
    const snapshot = await snapshotFor(item, live, from);
    if (snapshot) found.set(item.file, { applied: snapshot.migrations!.applied, snapshot, how: 'snapshot' });
    else rest.push(item);
  }
  if (rest.length === 0) return found;
  const step = stepper(config, signal);
  if (typeof step === 'string') {
    for (const item of rest) found.set(item.file, { why: step });
    return found;
  }
  const database = await scratch();
  const { db } = database;
  const matches = new Map<string, RecoveredState[]>(rest.map((item) => [item.file, []]));
  const configured = configuredMigrationTable(config);
  await database.reset();
  const target = from === undefined ? live.applied.length : live.applied.indexOf(from) + 1;
  for (let applied = 0; applied < target; ) {
    await step(db);
    const state = await readMigrationState(db.pool, configured);
    // A step that applied nothing: the project's migrations end before the database's (or the tools differ).
    if (!state || state.applied.length <= applied) break;
    applied = state.applied.length;
    if (from !== undefined && applied < target) continue;
    const catalog = await introspect(db.pool);
    for (const item of rest) {
      const names = Object.keys(item.fixture.tables);
      const tables = names.map((name) => catalog.tables.get(name));
      if (tables.some((table) => table === undefined)) continue;
      if (schemaFingerprint(tables.map((table) => table!)) !== item.fixture.source.schemaFingerprint) continue;
      const snapshot = await takeSchemaSnapshot(
        db.pool,
        item.fixture.source.schemaFingerprint,
        item.fixture.source.serverVersion,
        state,
      );
      matches
        .get(item.file)!
        .push({ applied: state.applied, snapshot, how: from === undefined ? 'inferred' : 'named' });
    }
  }
  for (const item of rest) found.set(item.file, verdict(matches.get(item.file)!, from, live));
  return found;
}

function verdict(
  matches: readonly RecoveredState[],
  from: string | undefined,
  live: MigrationState,
): RecoveredState | { why: string } {
  if (matches.length === 1) return matches[0]!;
  if (from !== undefined)
    return { why: `its schema is not the one after ${from} (the captured tables' fingerprint differs)` };
  if (matches.length === 0)
    return {
      why: `its schema matches the schema after none of the ${live.applied.length} migration(s): capture it again`,
    };
  const names = matches.map((match) => match.applied.at(-1)!);
  return {
    why: `its schema matches the schema after each of ${names.join(', ')} (a migration that changes no captured table): name the last one applied when it was captured with --from`,
  };
}

// A snapshot beside the fixture whose fingerprint is the fixture's, taken under the live database's tool, whose
// migrations are the live ones' first: the only one, or the one ending with `from`.
async function snapshotFor(
  item: Unrecorded,
  live: MigrationState,
  from: string | undefined,
): Promise<SchemaSnapshot | undefined> {
  const dir = join(dirname(item.file), SCHEMA_SNAPSHOT_DIR);
  const short = item.fixture.source.schemaFingerprint.replace(/^sha256:/, '').slice(0, 16);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.startsWith(`${short}-m`));
  const fitting: SchemaSnapshot[] = [];
  for (const name of names.sort()) {
    const file = join(dir, name);
    const snapshot = await readSchemaSnapshot(file, shownPath(file));
    const state = snapshot.migrations;
    if (snapshot.fingerprint !== item.fixture.source.schemaFingerprint || !state) continue;
    if (state.tool !== live.tool || state.table !== live.table) continue;
    if (state.applied.some((migration, i) => live.applied[i] !== migration)) continue;
    if (from === undefined || state.applied.at(-1) === from) fitting.push(snapshot);
  }
  return fitting.length === 1 ? fitting[0] : undefined;
}

// Applies the next migration: kysely's next one for turnkit's own migrations, else the step command the config names.
function stepper(
  config: Config,
  signal: AbortSignal | undefined,
): ((db: UpgradeDatabase['db']) => Promise<void>) | string {
  const migrate = config.game.migrate;
  if (!migrate?.command)
    return async (db) => {
      await migrateOneUp(db, migrationsFolder(config));
    };
  const step = migrate.step;
  if (!step)
    return 'it was captured before turnkit recorded the migration state, and no snapshot has its fingerprint: name the command that applies one migration in game.migrate.step, so that turnkit can find its state';
  return (db) => runMigrationCommand(db, config, step, 'game.migrate.step', signal);
}

/** The fixture with the state found recorded, as capture records it (tool, table, count, last one). */
export function withRecoveredState(fixture: Fixture, live: MigrationState, state: RecoveredState): Fixture {
  const latest = state.applied.at(-1);
  return {
    ...fixture,
    source: {
      ...fixture.source,
      migrations: {
        tool: live.tool,
        table: live.table,
        applied: state.applied.length,
        ...(latest !== undefined ? { latest } : {}),
      },
    },
  };
}
