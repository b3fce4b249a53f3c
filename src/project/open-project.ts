import { resolve } from 'node:path';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { configSchema, type TurnkitConfigInput } from '../config/schema.js';
import { openDb, type Db } from '../db/connect.js';
import { parseWithSchema } from '../util/json/json-source.js';

/** Where a project keeps its files, resolved against its config's folder. */
export interface ProjectPaths {
  /** The folder relative paths of the config are resolved against. */
  baseDir: string;
  fixtures: string;
  constructed: string;
  questions: string;
  runs: string;
}

/** A project's config, its paths and its open database; close it (or `await using` it) when done. */
export interface Project extends AsyncDisposable {
  config: LoadedConfig;
  paths: ProjectPaths;
  db: Db;
  /** Hears what the library would warn a person about (unindexed foreign keys, ...). */
  onWarning: (message: string) => void;
  /** Closes the database when the project opened it; a `db` passed in stays open (its owner closes it). */
  close(): Promise<void>;
}

/** How to open a project: where it is, which config, which database. */
export interface OpenProjectOptions {
  /** The project folder (default `.`: a relative folder is the process's, as for any path), where the config is looked up. */
  cwd?: string;
  /** The config as an object (the shape of `defineConfig`), instead of a file. */
  config?: TurnkitConfigInput;
  /** A config file, relative to `cwd`. */
  configPath?: string;
  /** An open database to use; it stays open when the project closes. */
  db?: Db;
  /** A real Postgres server; wins over the config's `database.url`. Without either: the embedded database. */
  databaseUrl?: string;
  /** The environment of the programs turnkit runs for the database (pg_dump for `strategy: database`); none read. */
  env?: Readonly<Record<string, string | undefined>>;
  onWarning?: (message: string) => void;
}

/**
 * Opens a project for library callers: no environment variable is read (pass `databaseUrl`) and no signal handler
 * is installed (stop work with an `AbortSignal`).
 * @example
 * await using project = await openProject({ cwd: 'my-game', databaseUrl: 'postgres://localhost/game' });
 */
export async function openProject(options: OpenProjectOptions = {}): Promise<Project> {
  const cwd = resolve(options.cwd ?? '.');
  const config: LoadedConfig = options.config
    ? { ...parseWithSchema(configSchema, options.config, '<config object>'), baseDir: cwd, file: undefined }
    : await loadConfig({ cwd, configPath: options.configPath });
  const db =
    options.db ??
    (await openDb(config, {
      databaseUrl: options.databaseUrl,
      fromEnvironment: false,
      env: options.env,
    }));
  const owned = options.db === undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    if (owned) await db.close();
  };
  return {
    config,
    paths: projectPaths(config),
    db,
    onWarning: options.onWarning ?? (() => {}),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The project's folders, absolute. */
export function projectPaths(config: LoadedConfig): ProjectPaths {
  const at = (path: string): string => resolve(config.baseDir, path);
  return {
    baseDir: config.baseDir,
    fixtures: at(config.paths.fixtures),
    constructed: at(config.paths.constructed),
    questions: at(config.paths.questions),
    runs: at(config.paths.runs),
  };
}
