import type { StrategyName } from './registry.js';

/** Reps of each strategy auto measures before it settles. */
const PROBES = 2;

/** Which strategy a session uses: one of them, or `auto` (per fixture, whichever measured faster). */
export type StrategyChoice = StrategyName | 'auto';

/**
 * Picks the strategy per fixture for `auto`: the first reps alternate `remap` and `database` until each ran twice,
 * then every rep runs the one whose seed plus teardown (what a rep waits for; the template build is left out) took
 * less on average, later reps adding to it so a bad start corrects itself. Measured, because which one wins depends
 * on the fixture's size, the schema's indexes and the server.
 */
export class StrategyChooser<K extends object> {
  private readonly timings = new WeakMap<K, Record<StrategyName, number[]>>();

  /** Creates a chooser for one session's choice. */
  constructor(private readonly choice: StrategyChoice) {}

  /** The strategy for the next rep of this fixture; `remappable` false: remap cannot copy it (auto then clones). */
  next(key: K, remappable = true): StrategyName {
    if (this.choice !== 'auto') return this.choice;
    if (!remappable) return 'database';
    const seen = this.timings.get(key) ?? { remap: [], database: [] };
    // Alternate until each has PROBES reps: one rep of each is too noisy to call close sizes.
    if (seen.remap.length < PROBES || seen.database.length < PROBES)
      return seen.remap.length <= seen.database.length ? 'remap' : 'database';
    return mean(seen.database) < mean(seen.remap) ? 'database' : 'remap';
  }

  /** Records how long one rep's seed plus teardown took. */
  record(key: K, strategy: StrategyName, ms: number): void {
    const seen = this.timings.get(key) ?? { remap: [], database: [] };
    seen[strategy].push(ms);
    this.timings.set(key, seen);
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
