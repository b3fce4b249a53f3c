import type { CommonOptions } from '../config/common-options.js';
import {
  checkConstructSource,
  construct as constructInProject,
  type ConstructInput,
} from '../construct/construct-fixture.js';
import type { SavedConstructed } from '../construct/save-constructed.js';
import { commandContext } from './command-context.js';

/** Options of `turnkit construct`. */
export interface ConstructOptions extends CommonOptions, ConstructInput {}

/** `turnkit construct`: see `construct`; paths are relative to `cwd`. */
export async function construct(options: ConstructOptions): Promise<SavedConstructed> {
  // Said before the config is read, as it always was.
  checkConstructSource(options);
  return constructInProject(await commandContext(options), options);
}
