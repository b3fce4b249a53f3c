import type { CommonOptions } from '../config/common-options.js';
import { attribute, type AttributeInput, type AttributeResult } from '../attribution/attribute.js';
import { defaultConcurrency } from '../pipeline/run.js';
import { workersFor } from '../pipeline/run-reps.js';
import { commandContext, commandEnv } from './command-context.js';

/** Options of `turnkit attribute`: an attribution's input, with paths relative to `cwd`, and the config to load. */
export interface AttributeOptions extends CommonOptions, Omit<AttributeInput, 'question' | 'env'> {
  question?: string | undefined;
}

/**
 * `turnkit attribute` as the command line calls it: loads the config, opens the database with a connection per
 * running rep, and attributes (see `attribute`), each look's SUT seeing the command's environment.
 */
export async function attributeFixture(options: AttributeOptions): Promise<AttributeResult> {
  const poolSize = workersFor(options.concurrency ?? defaultConcurrency()) + 1;
  const context = await commandContext({ ...options, poolSize });
  return attribute(context, { ...options, env: commandEnv(options) });
}
