import type { Db } from '../db/connect.js';
import { processState } from '../util/process/process-identity.js';
import { dropOrphanDatabases, type OrphanDatabase } from './database/owned-databases.js';
import { ensureRegistry, listEntries, type RegistryEntry } from './registry.js';
import { ScratchSession } from './scratch-session.js';
import type { TeardownReport } from './remap/teardown-remap.js';
import { TeardownRefused } from './effects/outside-references.js';

/** Which scratch campaigns `gc` removes. */
export interface GcOptions {
  /** Campaigns of processes on other hosts (whose liveness cannot be seen) older than this are removed. Default 24 h. */
  ttlMs?: number;
  /** Also remove campaigns seeded by hand and campaigns of live processes: everything in the registry. */
  all?: boolean;
  /** Only campaigns of this run. */
  runId?: string;
  now?: Date;
  /** How long each teardown waits for a lock before it is reported failed, naming the holder. Default 30 s. */
  lockTimeoutMs?: number | undefined;
  /** Hears what gc waits for: a lock on a campaign, and which backend holds it. */
  onLockWait?: ((message: string) => void) | undefined;
}

/** What `gc` did. */
export interface GcReport {
  removed: (TeardownReport & { reason: string })[];
  kept: { id: string; fixture: string; reason: string }[];
  failed: { id: string; error: string }[];
  /** Campaigns whose teardown refused because rows outside point into them: skipped, named, left in place. */
  refused: { id: string; fixture: string; reason: string }[];
  /** Databases a killed turnkit left on the server (an upgrade's scratch database), dropped. */
  databases: OrphanDatabase[];
}

/** Default age after which a scratch campaign of another host counts as abandoned. */
const DEFAULT_GC_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Removes orphaned scratch campaigns: those whose seeding process is gone (killed, crashed), those of other hosts
 * older than the TTL, and with `all` every one; and the databases a killed upgrade left (owned-databases.ts). Each is torn down on its own, so one failure leaves the rest done; one
 * that rows outside point into is refused and reported, never forced.
 */
export async function collectGarbage(db: Db, options: GcOptions = {}): Promise<GcReport> {
  await ensureRegistry(db);
  const now = options.now ?? new Date();
  const report: GcReport = {
    removed: [],
    kept: [],
    failed: [],
    refused: [],
    // Whole databases too (an upgrade killed before its DROP); not when gc is asked for one run's campaigns.
    databases: options.runId === undefined ? await dropOrphanDatabases(db.pool, { all: options.all }) : [],
  };
  const session = new ScratchSession(db, { lockTimeoutMs: options.lockTimeoutMs, onLockWait: options.onLockWait });
  for (const entry of await listEntries(db.pool)) {
    if (options.runId !== undefined && entry.runId !== options.runId) continue;
    const reason = orphanReason(entry, now, options);
    if (!reason.orphan) {
      report.kept.push({ id: entry.id, fixture: entry.fixture, reason: reason.why });
      continue;
    }
    try {
      report.removed.push({ ...(await session.teardown(entry.id)), reason: reason.why });
    } catch (error) {
      // Not gc's to settle: someone must repoint the outside rows. The rest is removed all the same.
      if (error instanceof TeardownRefused)
        report.refused.push({ id: entry.id, fixture: entry.fixture, reason: error.message });
      else report.failed.push({ id: entry.id, error: (error as Error).message });
    }
  }
  return report;
}

function orphanReason(entry: RegistryEntry, now: Date, options: GcOptions): { orphan: boolean; why: string } {
  if (options.all) return { orphan: true, why: '--all' };
  if (!entry.owner) return { orphan: false, why: 'seeded by hand: remove it with `turnkit teardown` or `gc --all`' };
  const state = processState(entry.owner);
  if (state === 'gone') return { orphan: true, why: `process ${entry.owner.pid} on ${entry.owner.host} is gone` };
  if (state === 'alive') return { orphan: false, why: `process ${entry.owner.pid} is still running` };
  const age = now.getTime() - entry.createdAt.getTime();
  const ttl = options.ttlMs ?? DEFAULT_GC_TTL_MS;
  if (age > ttl)
    return { orphan: true, why: `seeded on ${entry.owner.host} more than ${Math.round(ttl / 3_600_000)} h ago` };
  return { orphan: false, why: `seeded on another host (${entry.owner.host}) ${Math.round(age / 60_000)} min ago` };
}
