import type { RepRecord } from '../run-dir/rep-record.js';
import type { RepKey } from '../run-dir/run-state.js';
import type { RunInput } from './run-input.js';

/** The rep loop's progress: reps recorded, errors among them, and `onProgress` told after each with an estimate. */
export class RepProgress {
  /** Reps run and recorded by this invocation. */
  done = 0;
  private errors = 0;
  private readonly started = performance.now();

  constructor(
    private readonly total: number,
    private readonly onProgress: RunInput['onProgress'],
  ) {}

  /** Counts a recorded rep and says so. */
  recorded(key: RepKey, record: RepRecord): void {
    this.done++;
    if (record.error) this.errors++;
    const elapsedMs = performance.now() - this.started;
    const left = this.total - this.done;
    this.onProgress?.({
      done: this.done,
      total: this.total,
      errors: this.errors,
      elapsedMs,
      etaMs: left > 0 ? (elapsedMs / this.done) * left : 0,
      last: {
        fixture: key.fixture,
        rep: key.rep,
        ms: record.timings.totalMs,
        ...(record.error ? { error: record.error.cause } : {}),
      },
    });
  }
}
