import type { SutConfig } from '../question/question-format.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { uncountedCost } from './run-limits.js';

/**
 * `--max-cost` for the rep loop: what the reps of this invocation cost, and whether the budget stops the run. A rep
 * whose cost cannot be counted stops it too: a budget that silently counts nothing is no guard.
 */
export class RepBudget {
  /** What the SUT calls of this invocation's reps cost (0 when none reported a cost). */
  spent = 0;
  /** The first rep whose cost could not be counted (one line), with a budget set. */
  uncounted: string | undefined;

  constructor(
    private readonly maxCost: number | undefined,
    private readonly sut: SutConfig,
  ) {}

  /** Counts a rep's cost as it ends. */
  add(record: RepRecord): void {
    this.spent += record.spend?.cost ?? 0;
    if (this.maxCost !== undefined) this.uncounted ??= uncountedCost(record, this.sut);
  }

  /** True once the budget is spent or cannot be counted: no more reps start (those running finish). */
  get over(): boolean {
    return this.maxCost !== undefined && (this.spent >= this.maxCost || this.uncounted !== undefined);
  }
}
