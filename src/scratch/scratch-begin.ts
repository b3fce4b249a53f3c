import { CAPTURE_SETTINGS } from '../fixture/value-codec.js';

/**
 * The statement that opens a seed's or a teardown's transaction: `BEGIN`, then `settings`, and
 * `synchronous_commit = off` for this transaction alone. A scratch campaign is made to be
 * thrown away, so its commit need not wait for the WAL's fsync (2-4 ms a commit, two a rep, on this machine's
 * PostgreSQL): the commit is visible to every other session (the SUT) at once all the same; only a crash of the
 * server within a fraction of a second (wal_writer_delay) can lose it, and then it is lost whole, with its registry
 * entry, in order: a lost seed leaves nothing, a lost teardown leaves the campaign and its entry for `turnkit gc`,
 * whose owner is gone by then. Every other transaction (the SUTs', the game's) keeps the server's setting.
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
