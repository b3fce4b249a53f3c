import type { FilesContext } from '../project/project-context.js';

// Apart from command-context.ts, which loads the config reader and the database's opener: a command on files alone
// loads neither (the config schema loads zod, the opener pg).

/** A command on files alone (show, report, agree, merge, ...): the shell's folder is where its paths are; no config read. */
export function filesContext(cwd: string = process.cwd()): FilesContext {
  return { cwd, paths: { baseDir: cwd } };
}
