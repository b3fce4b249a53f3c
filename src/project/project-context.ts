import { resolve } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import type { Db } from '../db/connect.js';
import { TurnkitError } from '../errors.js';
import type { ProjectPaths } from './open-project.js';

/**
 * What an operation on files alone (show, report, agree, merge, ...) needs of a project: the folder its input's
 * relative paths are resolved against. A `ProjectContext` is one; the command line gives one for the shell's folder.
 */
export interface FilesContext {
  paths: Pick<ProjectPaths, 'baseDir'>;
  /** The folder an input's relative paths are resolved against (default: the project folder; the CLI's: the shell's). */
  cwd?: string | undefined;
}

/**
 * What an operation needs of a project: its config and paths, and its database when the operation reaches one. An
 * open `Project` is one; the command line gives one whose database opens only when, and each time, it is used.
 */
export interface ProjectContext extends FilesContext {
  config: LoadedConfig;
  paths: ProjectPaths;
  /** The open database. */
  db?: Db | undefined;
  /** Opens the database for `fn` and closes it after (when there is no `db`). */
  usingDb?: (<T>(fn: (db: Db) => Promise<T>) => Promise<T>) | undefined;
  onWarning?: ((message: string) => void) | undefined;
  /** The folder an input's relative paths are resolved against (default: the project folder; the CLI's: the shell's). */
  cwd?: string | undefined;
}

/** The folder an input's relative paths are resolved against: the context's `cwd`, else the project folder. */
export function inputDir(project: FilesContext): string {
  return project.cwd ?? project.paths.baseDir;
}

/** Where an input's path is: relative to the context's `cwd`, else to the project folder. */
export function inputPath(project: FilesContext, path: string): string {
  return resolve(inputDir(project), path);
}

/** Runs `fn` with the project's database: the open one, or one opened for it. */
export async function withProjectDb<T>(project: ProjectContext, fn: (db: Db) => Promise<T>): Promise<T> {
  if (project.db) return fn(project.db);
  if (project.usingDb) return project.usingDb(fn);
  throw new TurnkitError('USAGE', 'this operation needs a database: open the project with one');
}
