import type { VerifyResult } from '../construct/verify-fixtures.js';
import { verify } from '../pipeline/verify.js';
import { commandContext, commandEnv } from './command-context.js';
import type { VerifyOptions } from './verify-command.js';

/** `turnkit verify`: fixtures, constructed fixtures and questions (see `verify`); paths are relative to `cwd`. */
export async function verifyProject(options: VerifyOptions): Promise<VerifyResult> {
  return verify(await commandContext(options), { ...options, env: commandEnv(options) });
}
