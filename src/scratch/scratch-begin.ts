import { CAPTURE_SETTINGS } from '../fixture/value-codec.js';

/**
 * The statement that opens a seed's or a teardown's transaction: `BEGIN`, `settings`, and `synchronous_commit = off`
 * for it alone. A scratch campaign is thrown away, so its commit need not wait for the WAL's fsync (2-4 ms, twice a
 * rep); a server crash can lose only a whole commit with its registry entry, which leaves nothing or leaves it to gc.
 */
export function scratchBegin(settings: readonly string[] = []): string {
  return ['BEGIN', ...settings, 'SET LOCAL synchronous_commit = off'].join('; ');
}

/**
 * The statement that opens a read of a campaign in one snapshot, in the settings capture reads in (the codec parses
 * Postgres's text output in them); `first`, a statement without parameters, goes along (one round trip).
 */
export function snapshotBegin(first?: string): string {
  return `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${CAPTURE_SETTINGS}${first ? `; ${first}` : ''}`;
}
