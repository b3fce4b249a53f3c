import type { Manifest } from './manifest.js';
import type { SutConfig } from './question-format.js';
import { repId, type RepKey, type RunState } from './run-state.js';
import { sumSpend, type Price } from './spend.js';

/** The price of a SUT's model from the config's prices (an http SUT names its model; other SUTs report their cost). */
export function sutPrice(prices: Record<string, Price>, sut: SutConfig): Price | undefined {
  return sut.type === 'http' ? prices[sut.model] : undefined;
}

/** What the SUT's calls of a run's reps spent, for the manifest; undefined when no rep reported usage or cost. */
export function runSpend(keys: readonly RepKey[], state: RunState): Manifest['spend'] {
  const calls = keys.flatMap((key) => {
    const spend = state.records.get(repId(key))?.spend;
    return spend ? [spend] : [];
  });
  return calls.length > 0 ? { sut: sumSpend(calls) } : undefined;
}
