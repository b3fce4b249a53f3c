import type { RepRecord } from '../run-dir/rep-record.js';
import type { Spend } from '../model/spend.js';

/**
 * How many times a rep called the SUT: once, or for a rollout once per turn played, less a last turn that ended
 * before its call (its player's input or its case file failed).
 */
export function sutCalls(record: RepRecord): number {
  if (!record.turns) return 1;
  const stage = record.error?.stage;
  return record.turns.length - (stage === 'player' || stage === 'case-file' ? 1 : 0);
}

/**
 * A rep's SUT spend counted in calls (a rollout of K turns is K calls, not one); undefined when it reported no usage
 * or cost. A rollout keeps one total: when its cost is unknown, none of its calls' costs is in it.
 */
export function repSpend(record: RepRecord | undefined): Spend | undefined {
  if (!record?.spend) return undefined;
  const { inputTokens, outputTokens, cost } = record.spend;
  const calls = sutCalls(record);
  return {
    calls,
    inputTokens,
    outputTokens,
    cost,
    unpriced: cost === null && inputTokens + outputTokens > 0 ? calls : 0,
  };
}
