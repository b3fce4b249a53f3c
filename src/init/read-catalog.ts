import { resolve } from 'node:path';
import { configSchema } from '../config/schema.js';
import { sampleGameConfig } from '../config/sample-config.js';
import { openDb } from '../db/connect.js';
import type { Catalog } from '../db/catalog-types.js';
import { introspect } from '../db/introspect.js';
import { type InitFacts, readInitFacts } from './read-facts.js';
import { suggestScrub } from './suggest-scrub.js';

/** Where `init` looks for the game: a real server's URL, else the embedded database of the project folder. */
export interface ReadCatalogOptions {
  /** The project folder (the command line's: the shell's). */
  cwd: string;
  databaseUrl?: string | undefined;
}

/** What `init` reads from the database: its tables, the facts its proposals rank by, and the scrub rules. */
export interface InitCatalog {
  catalog: Catalog;
  facts: InitFacts;
  scrub: string[];
}

/** Reads the catalog of the database `init` scaffolds for, and closes the connection. */
export async function readInitCatalog(options: ReadCatalogOptions): Promise<InitCatalog> {
  const cwd = resolve(options.cwd);
  // No config exists yet: the defaults say where the embedded database lives.
  const config = { ...configSchema.parse(sampleGameConfig), baseDir: cwd, file: undefined };
  const db = await openDb(config, { databaseUrl: options.databaseUrl, fromEnvironment: false });
  try {
    const catalog = await introspect(db.pool);
    return { catalog, facts: await readInitFacts(db.pool, catalog), scrub: suggestScrub(catalog) };
  } finally {
    await db.close();
  }
}
