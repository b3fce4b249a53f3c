import { join, resolve } from 'node:path';
import { TurnkitError } from '../../errors.js';
import { shownPath } from '../../util/shown-path.js';
import { listRuns } from '../list-runs.js';
import { startViewServer, type ViewServer, type ViewServerOptions } from './view-server.js';

/** Options of `turnkit view [RUN_DIR...]`. */
export interface ViewCommandOptions extends Omit<ViewServerOptions, 'runs' | 'strict'> {
  /** Run directories; none: every run under runs/ in the working folder. */
  dirs: readonly string[];
}

/**
 * Starts the viewer on the runs named (their marks files taken at once: one that another viewer or terminal marker
 * holds is refused before anything listens), or on every run under runs/ (each taken when it is opened).
 */
export async function view(options: ViewCommandOptions): Promise<ViewServer> {
  const cwd = options.cwd ?? process.cwd();
  const named = options.dirs.length > 0;
  const runs = named ? options.dirs.map((dir) => resolve(cwd, dir)) : await listRuns(join(cwd, 'runs'));
  if (runs.length === 0)
    throw new TurnkitError(
      'NOT_FOUND',
      `${shownPath(join(cwd, 'runs'))}: no run directories (turnkit run QUESTION makes one), or name one: turnkit view RUN_DIR`,
    );
  return startViewServer({ ...options, runs, strict: named, cwd });
}
