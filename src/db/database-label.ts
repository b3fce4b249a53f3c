import type { Db } from './connect.js';

/** How a fixture names the database it was captured from: `embedded`, or the server's URL without its password. */
export function databaseLabel(db: Pick<Db, 'backend' | 'displayUrl'>): string {
  return db.backend === 'embedded' ? 'embedded' : db.displayUrl;
}
