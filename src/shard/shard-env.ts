import { TurnkitError } from '../errors.js';
import { parseShard, type ShardSpec } from '../run-dir/rep-order.js';

/** `--shard auto` or `--shard auto/N`: the shard comes from the environment the CI engine or Kubernetes sets. */
export interface AutoShard {
  auto: true;
  /** N of `auto/N`: the number of shards, when the command line says it. */
  count?: number | undefined;
}

/** The environment variables a shard is read from (the command line passes its process's; tests pass their own). */
export type ShardEnvironment = Readonly<Record<string, string | undefined>>;

/** Parses `auto` or `auto/N`; undefined for anything else (an explicit `I/N`). */
export function parseAutoShard(text: string): AutoShard | undefined {
  const match = /^auto(?:\/(\d+))?$/.exec(text.trim());
  if (!match) return undefined;
  if (match[1] === undefined) return { auto: true };
  const count = Number(match[1]);
  if (!Number.isSafeInteger(count))
    throw new TurnkitError('USAGE', `--shard ${text}: a shard count past ${Number.MAX_SAFE_INTEGER} is not exact`);
  if (count < 1) throw new TurnkitError('USAGE', `--shard ${text}: the number of shards must be at least 1`);
  return { auto: true, count };
}

/**
 * The shard of `--shard auto[/N]` from the environment: a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` (0-based:
 * index 0 is shard 1) with the count from `auto/N` or `TURNKIT_SHARD_COUNT`; else `TURNKIT_SHARD=I/N` (a CI matrix
 * sets it). Anything missing or contradictory is a usage error saying which variable to set.
 */
export function shardFromEnvironment(auto: AutoShard, env: ShardEnvironment): ShardSpec {
  const spec = auto.count === undefined ? '--shard auto' : `--shard auto/${auto.count}`;
  const index = env.JOB_COMPLETION_INDEX;
  if (index !== undefined && index !== '') {
    if (!/^\d+$/.test(index))
      throw new TurnkitError('USAGE', `${spec}: JOB_COMPLETION_INDEX is "${index}", not a whole number`);
    const fromEnv = env.TURNKIT_SHARD_COUNT;
    if (fromEnv !== undefined && fromEnv !== '' && !/^\d+$/.test(fromEnv))
      throw new TurnkitError('USAGE', `${spec}: TURNKIT_SHARD_COUNT is "${fromEnv}", not a whole number`);
    const envCount = fromEnv ? Number(fromEnv) : undefined;
    if (auto.count !== undefined && envCount !== undefined && auto.count !== envCount)
      throw new TurnkitError('USAGE', `${spec}: TURNKIT_SHARD_COUNT says ${envCount} shards`);
    const count = auto.count ?? envCount;
    if (count === undefined)
      throw new TurnkitError(
        'USAGE',
        `${spec}: JOB_COMPLETION_INDEX is ${index} but the number of shards is unknown: use --shard auto/N or set TURNKIT_SHARD_COUNT`,
      );
    if (!Number.isSafeInteger(Number(index)) || !Number.isSafeInteger(count))
      throw new TurnkitError('USAGE', `${spec}: a shard number past ${Number.MAX_SAFE_INTEGER} is not exact`);
    const shard = { index: Number(index) + 1, count };
    const what = `${spec}: JOB_COMPLETION_INDEX ${index} (shard ${shard.index})`;
    if (count < 1) throw new TurnkitError('USAGE', `${what}: the number of shards must be at least 1`);
    if (shard.index > count) throw new TurnkitError('USAGE', `${what} is past the ${count} shard(s)`);
    // Both set and saying different shards: which one the engine meant cannot be told, and guessing runs a shard twice.
    const also = env.TURNKIT_SHARD;
    if (also !== undefined && also !== '' && also.trim() !== `${shard.index}/${shard.count}`)
      throw new TurnkitError(
        'USAGE',
        `${spec}: JOB_COMPLETION_INDEX ${index} (shard ${shard.index}/${shard.count}) and TURNKIT_SHARD=${also} disagree: unset one`,
      );
    return shard;
  }
  const given = env.TURNKIT_SHARD;
  if (given !== undefined && given !== '') {
    let shard: ShardSpec;
    try {
      shard = parseShard(given);
    } catch (error) {
      throw new TurnkitError(
        'USAGE',
        `${spec}: TURNKIT_SHARD=${given}: ${(error as Error).message.replace(/^--shard \S+: /, '')}`,
      );
    }
    if (auto.count !== undefined && shard.count !== auto.count)
      throw new TurnkitError('USAGE', `${spec}: TURNKIT_SHARD=${given} is of ${shard.count} shards`);
    return shard;
  }
  throw new TurnkitError(
    'USAGE',
    `${spec}: no shard in the environment: set JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) with TURNKIT_SHARD_COUNT, or TURNKIT_SHARD=I/N`,
  );
}

/**
 * The name a shard's run directory starts with instead of the time, so that the shards of one CI run or Job share
 * it: `TURNKIT_RUN_ID`, else GitHub's `GITHUB_RUN_ID` and `GITHUB_RUN_ATTEMPT`; undefined when neither is set.
 */
export function shardRunName(env: ShardEnvironment): string | undefined {
  const id =
    env.TURNKIT_RUN_ID || (env.GITHUB_RUN_ID ? `gh-${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || '1'}` : '');
  if (!id) return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id))
    throw new TurnkitError(
      'USAGE',
      `TURNKIT_RUN_ID "${id}": a run name is letters, digits, ".", "_" and "-" (at most 100, not starting with "." or "-")`,
    );
  return id;
}
