import type { Db } from './connect.js';

// What differs between the backends, said once here so that no code above db/ branches on which one it is.

/** Whether the server can hold databases besides the one turnkit connects to (the embedded one has no CREATE DATABASE). */
export function canCreateDatabases(db: Pick<Db, 'backend'>): boolean {
  return db.backend !== 'embedded';
}

/** How a fixture names the database it was captured from: `embedded`, or the server's URL without its password. */
export function databaseLabel(db: Pick<Db, 'backend' | 'displayUrl'>): string {
  return db.backend === 'embedded' ? 'embedded' : db.displayUrl;
}

/** Whether sessions can wait on each other's locks (the embedded server runs one backend, so none ever waits). */
export function hasLockWaits(db: Pick<Db, 'backend'>): boolean {
  return db.backend !== 'embedded';
}

/**
 * Whether turnkit must vacuum the tables it churns itself: the embedded server (PGlite) runs no autovacuum, so the
 * rows every rep seeds and deletes stay as dead tuples, growing the files and slowing every later rep's scans.
 */
export function needsOwnVacuum(db: Pick<Db, 'backend'>): boolean {
  return db.backend === 'embedded';
}

/**
 * Whether turnkit may keep named (prepared) statements on its connections: on PostgreSQL each connection is a session
 * of its own; the embedded server runs every connection, of every process joined to it, in its one session, where
 * two connections preparing the same name collide.
 */
export function namesStatements(db: Pick<Db, 'backend'>): boolean {
  return db.backend === 'postgres';
}

/**
 * Whether a commit waits for its WAL to reach the disk (fsync): a real server's does, the embedded server runs with
 * `fsync = off` (PGlite's default), so its commits cost no disk wait to begin with.
 */
export function commitsWaitForDisk(db: Pick<Db, 'backend'>): boolean {
  return db.backend !== 'embedded';
}

/**
 * Whether every connection to the server shares one session (the embedded server: PGlite runs one backend), so that
 * what a connection prepares outlives it, and any connection can drop it.
 */
export function sharesOneSession(db: Pick<Db, 'backend'>): boolean {
  return db.backend === 'embedded';
}
