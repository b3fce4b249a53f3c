import { InvalidArgumentError, type Command } from 'commander';
import type { CommonOptions } from '../config/common-options.js';

/** Reads --config and --database-url wherever they were given on the command line. */
export function commonOptions(command: Command): CommonOptions {
  const options = command.optsWithGlobals<{ config?: string; databaseUrl?: string }>();
  return { configPath: options.config, databaseUrl: options.databaseUrl };
}

/** A commander option parser for a positive whole number; a bad value is a usage error (exit 2). */
export function positiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return Number(value);
}
