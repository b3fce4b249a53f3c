import { TurnkitError } from '../errors.js';
import type { RepKey } from './run-state.js';

/** One slice of a run split across machines: `--shard 2/3` is index 2 of count 3. */
export interface ShardSpec {
  index: number;
  count: number;
}

/** Parses `I/N` (1 <= I <= N); anything else is a usage error that says what is wrong with it. */
export function parseShard(text: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) throw new TurnkitError('USAGE', `--shard ${text}: expected I/N, for example 1/3 (shard 1 of 3)`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  // Past 2^53 a number is rounded: 9007199254740993 would silently become another shard count.
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(index))
    throw new TurnkitError('USAGE', `--shard ${text}: a shard number past ${Number.MAX_SAFE_INTEGER} is not exact`);
  if (count < 1) throw new TurnkitError('USAGE', `--shard ${text}: the number of shards must be at least 1`);
  if (index < 1 || index > count)
    throw new TurnkitError('USAGE', `--shard ${text}: the shard must be between 1 and ${count}`);
  return { index, count };
}

/** Every (fixture, rep) of a run in the order they start: rep 1 of every fixture, then rep 2, ... (interleaved). */
export function interleave(fixtures: readonly string[], reps: number): RepKey[] {
  const keys: RepKey[] = [];
  for (let rep = 1; rep <= reps; rep++) for (const fixture of fixtures) keys.push({ fixture, rep });
  return keys;
}

/**
 * The reps a run (or one shard of it) holds, in the interleaved order. Shards deal each fixture's reps out like
 * cards, each fixture starting one shard further on, so that every shard gets reps of every fixture (once there
 * are at least as many reps as shards) and the slices depend on nothing but the fixture list and reps.
 */
export function planReps(fixtures: readonly string[], reps: number, shard?: ShardSpec): RepKey[] {
  const all = interleave(fixtures, reps);
  return shard ? all.filter((key) => inShard(fixtures, shard, key)) : all;
}

/** Whether a rep belongs to a shard of a run of these fixtures. */
export function inShard(fixtures: readonly string[], shard: ShardSpec, key: RepKey): boolean {
  return (key.rep - 1 + fixtures.indexOf(key.fixture)) % shard.count === shard.index - 1;
}
