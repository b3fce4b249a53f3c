import { commandContext } from '../../src/app/command-context.js';
import type { CommonOptions } from '../../src/config/common-options.js';
import type { ProjectContext } from '../../src/project/project-context.js';

/** An operation as the command line calls it: the project of the config found from `cwd`, then `op(project, input)`. */
export async function asCommand<I extends CommonOptions, R>(
  op: (project: ProjectContext, input: I) => Promise<R>,
  input: I,
): Promise<R> {
  return op(await commandContext(input), input);
}
