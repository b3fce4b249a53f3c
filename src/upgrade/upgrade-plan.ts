import { dirname } from 'node:path';
import type { Fixture } from '../fixture/format.js';
import { schemaSnapshotFile } from '../fixture/capture/schema-snapshot.js';

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
