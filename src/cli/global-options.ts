import { InvalidArgumentError, type Command } from 'commander';
import { parseAutoShard, type AutoShard } from '../shard/shard-env.js';
import type { CommonOptions } from '../config/common-options.js';
import { parseShard, type ShardSpec } from '../run-dir/rep-order.js';

/** Reads --config and --database-url wherever they were given on the command line. */
export function commonOptions(command: Command): CommonOptions {
  const options = command.optsWithGlobals<{ config?: string; databaseUrl?: string }>();
  return { configPath: options.config, databaseUrl: options.databaseUrl };
}

/** A commander option parser for a positive whole number; a bad value is a usage error (exit 2). */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return Number(value);
}

/** A commander option parser for a whole number from 0 (a turn that may be a game's prologue, turn 0). */
export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return Number(value);
}

/** A commander option parser for an amount such as `--max-cost 2.50`: a finite number above zero. */
export function positiveAmount(value: string): number {
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(value.trim()) || !(Number(value) > 0))
    throw new InvalidArgumentError(`expected an amount above zero such as 2.50, got "${value}"`);
  return Number(value);
}

/**
 * A commander option parser for `--shard I/N` or `--shard auto[/N]` (resolved from the environment by the command);
 * a bad spec is a usage error (exit 2) saying what is wrong.
 */
export function shardSpec(value: string): ShardSpec | AutoShard {
  try {
    return parseAutoShard(value) ?? parseShard(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message.replace(/^--shard \S+: /, ''));
  }
}
