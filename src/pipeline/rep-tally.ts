import type { Manifest } from '../run-dir/manifest.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { repId, type RepKey } from '../run-dir/run-state.js';
import { addSpend, NO_SPEND, type Spend } from '../model/spend.js';
import { repSpend } from './run-spend.js';

/**
 * What a run's end needs of its reps, gathered one record at a time (`forEachRepRecord`) in constant space: counts,
 * the spend and the SUT's model ids summed as they come, and by rep only the reps that did not complete (errored
 * with their one-line cause, or not run), which a run that went well has none of. Reading every record into a map
 * instead made a run's end grow with its reps (a few KB each, even lean).
 */
export class RepTally {
  /** Reps of the plan that completed. */
  completedCount = 0;
  /** Errored reps with their one-line cause, for marks.csv's note, in the plan's order. */
  readonly errored = new Map<string, string>();
  /** Reps of the plan with no readable record. */
  readonly notRun = new Set<string>();
  /** Reps whose scratch campaign could not be seeded, and the first of them in the plan's order. */
  seedFailed = 0;
  firstSeedFailure?: string;
  /** The first errored rep in the plan's order. */
  firstErrored?: RepKey;
  private spent: Spend | undefined;
  private readonly models = new Set<string>();

  /** Starts from the SUT model ids the manifest already records (a resumed run's earlier ones first). */
  constructor(recordedModels: readonly string[] = []) {
    for (const id of recordedModels) this.models.add(id);
  }

  /** Whether a rep of the plan completed (as `RunState.completed` answers, for marks.csv's rows). */
  readonly completed = { has: (id: string): boolean => !this.notRun.has(id) && !this.errored.has(id) };

  /** Counts one rep of the plan, visited in the plan's order. */
  add(key: RepKey, record: RepRecord | undefined): void {
    const id = repId(key);
    if (!record) {
      this.notRun.add(id);
      return;
    }
    if (record.error) {
      this.errored.set(id, `${record.error.stage}: ${record.error.cause}: ${record.error.message}`.slice(0, 200));
      this.firstErrored ??= key;
      if (record.error.stage === 'seed') {
        this.seedFailed++;
        this.firstSeedFailure ??= `${key.fixture} rep ${key.rep}: ${record.error.message}`;
      }
    } else this.completedCount++;
    // The same sums, in the same order, as summing the reps' spends once all were read.
    const spend = repSpend(record);
    if (spend) this.spent = addSpend(this.spent ?? { ...NO_SPEND }, spend);
    for (const model of record.models ?? []) this.models.add(model);
  }

  /** The manifest's `spend`: undefined when no rep reported usage or cost. */
  spend(): Manifest['spend'] {
    return this.spent ? { sut: this.spent } : undefined;
  }

  /** The SUT's model ids over the run, those recorded before first, each once in the order first seen. */
  sutModels(): string[] {
    return [...this.models];
  }
}
