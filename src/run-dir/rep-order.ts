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

/**
 * The order reps start in: round by round (every fixture's rep 1, then rep 2, ...), each round the reverse of the one
 * before, so that which fixture goes first alternates rep by rep. A constructed fixture listed after its base would
 * otherwise always run warm after it (caches, a model's prompt cache, the database's buffers): with the rounds
 * alternating, every pair of fixtures runs in each order equally often (give or take a round). `keys` is any subset
 * of a run's reps (a shard's, a resume's pending ones); within a rep number, fixtures keep the question's order.
 */
export function startOrder(fixtures: readonly string[], keys: readonly RepKey[]): RepKey[] {
  const place = new Map(fixtures.map((name, i) => [name, i]));
  const at = (key: RepKey): number => place.get(key.fixture) ?? fixtures.length;
  return [...keys].sort((a, b) => a.rep - b.rep || (a.rep % 2 === 1 ? at(a) - at(b) : at(b) - at(a)));
}
