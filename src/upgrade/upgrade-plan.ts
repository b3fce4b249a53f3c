import { dirname } from 'node:path';
import type { Fixture } from '../fixture/format.js';
import { pendingMigrations, type MigrationState } from '../fixture/migration-state.js';
import { schemaSnapshotFile, type SchemaSnapshot } from '../fixture/schema-snapshot.js';

/** Where a fixture stands against the live schema. */
export type FixtureStanding =
  | { kind: 'current' }
  | { kind: 'stale'; pending: string[] }
  | { kind: 'unknown'; why: string };

/**
 * Whether a fixture is behind the live database's migrations, and by which: from the full list its schema snapshot
 * holds when it is at hand, else from its recorded count and latest migration (a prefix of the live list).
 */
export function fixtureStanding(
  fixture: Fixture,
  live: MigrationState | undefined,
  snapshot?: SchemaSnapshot,
): FixtureStanding {
  const recorded = fixture.source.migrations;
  if (!live) return { kind: 'unknown', why: 'the database has no migration table turnkit knows' };
  if (!recorded) return { kind: 'unknown', why: 'it was captured before turnkit recorded the migration state' };
  if (recorded.tool !== live.tool || recorded.table !== live.table)
    return {
      kind: 'unknown',
      why: `it was captured under ${recorded.tool} (${recorded.table}), the database uses ${live.tool}`,
    };
  const applied = snapshot?.migrations?.applied ?? live.applied.slice(0, recorded.applied);
  if (!snapshot && (recorded.applied > live.applied.length || live.applied[recorded.applied - 1] !== recorded.latest))
    return {
      kind: 'unknown',
      why: `its migrations (${recorded.applied}, last ${recorded.latest}) are not the database's first ones`,
    };
  const pending = pendingMigrations({ applied }, live);
  return pending.length === 0 ? { kind: 'current' } : { kind: 'stale', pending };
}

/** The schema snapshot a fixture names: beside the fixture, by its fingerprint and migration count. */
export function snapshotFileOf(file: string, fixture: Fixture): string {
  return schemaSnapshotFile(dirname(file), fixture.source.schemaFingerprint, fixture.source.migrations);
}

/**
 * Splits fixtures into groups that can share one rebuilt database: no two of one campaign (their rows have the
 * same keys), and one holding another campaign's rows (`sharedRows`) alone.
 */
export function batchesOf<T extends { fixture: Fixture }>(items: readonly T[]): T[][] {
  const batches: { roots: Set<string>; items: T[] }[] = [];
  for (const item of items) {
    const root = item.fixture.source.root.value;
    const alone = Object.values(item.fixture.tables).some((table) => (table.sharedRows?.length ?? 0) > 0);
    const batch = alone
      ? undefined
      : batches.find(
          (candidate) => !candidate.roots.has(root) && candidate.roots.size > 0 && !candidate.roots.has('\0alone'),
        );
    if (batch) {
      batch.roots.add(root);
      batch.items.push(item);
    } else batches.push({ roots: new Set(alone ? ['\0alone', root] : [root]), items: [item] });
  }
  return batches.map((batch) => batch.items);
}
