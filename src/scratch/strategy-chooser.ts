import type { StrategyName } from './registry.js';

/** Reps of each strategy auto measures before it settles. */
const PROBES = 2;

/** Which strategy a session uses: one of them, or `auto` (per fixture, whichever measured faster). */
export type StrategyChoice = StrategyName | 'auto';

/**
 * Picks the strategy per fixture for `auto`: the first reps of a fixture alternate `remap` and `database` until each
 * has run twice, and every later rep runs the one whose seed plus teardown took less time on average (later reps
 * keep adding to the chosen one's average, so a bad start corrects itself). Measuring beats a rule of thumb:
 * which one wins depends on the fixture's size, the schema's indexes and the server, and one rep of each costs
 * little next to a run. The template build is a one-off per run and is left out of the comparison. What is compared
 * is what a rep waits for: a clone's drop runs behind the rep, so a `database` probe counts its CREATE DATABASE (the
 * probes find no clone made ahead: one is made only for a rep that will clone), and where that is faster than remap's
 * seed and teardown the fixture keeps to `database`, its later clones then made while the rep before runs.
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
