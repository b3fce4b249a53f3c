import type { CommonOptions } from '../config/common-options.js';
import { loadConfig } from '../config/load.js';
import { usingDb, type OpenDbOptions } from '../db/connect.js';
import { projectPaths } from '../project/open-project.js';
import type { ProjectContext } from '../project/project-context.js';

/**
 * A command's project: the config it loads, paths relative to the shell's folder, and a database opened only when
 * the operation reaches it (with the command's `--database-url`, DATABASE_URL and the config), closed after.
 */
export async function commandContext(
  options: CommonOptions & OpenDbOptions & { onWarning?: ((message: string) => void) | undefined },
): Promise<ProjectContext> {
  const cwd = options.cwd ?? process.cwd();
  const config = await loadConfig({ configPath: options.configPath, cwd });
  return {
    config,
    paths: projectPaths(config),
    cwd,
    // The command line's environment is the process's, unless a caller gives another.
    usingDb: (fn) => usingDb(config, { ...options, env: commandEnv(options) }, fn),
    onWarning: options.onWarning,
  };
}

/** The environment of a command: the one given, else the process's (read here, at the edge, never below). */
export function commandEnv(options: Pick<CommonOptions, 'env'>): Readonly<Record<string, string | undefined>> {
  return options.env ?? process.env;
}
