import { TurnkitError } from '../errors.js';
import type { RepRecord } from './rep-record.js';
import { readRunText } from './run-file.js';
import { repFileBase } from './run-layout.js';
import { repRecordOf, type RepKey } from './run-state.js';

// Records read ahead of the one visited: enough to keep the disk busy, few enough that memory stays flat.
const READ_AHEAD = 16;

/**
 * Visits the record of each rep of `keys` (`reps/FIXTURE/rep-NN.json`, its latest attempt), in the keys' order, one
 * at a time: at most a few records are held at once, however many reps the run has, so that a run's end reads its
 * 10,000 records in the memory of a handful. A rep with no record, or a record torn by a crash, is visited as
 * undefined (not run: `--resume` runs it again), as `readRunState` counts it; a record that is a link out of the run
 * directory is an error.
 */
export async function forEachRepRecord(
  dir: string,
  keys: readonly RepKey[],
  visit: (key: RepKey, record: RepRecord | undefined, index: number) => void,
): Promise<void> {
  const read = (key: RepKey): Promise<RepRecord | undefined> =>
    readRunText(dir, `${repFileBase(key.fixture, key.rep)}.json`).then(repRecordOf, (error: unknown) => {
      if (error instanceof TurnkitError) throw error;
      return undefined;
    });
  const ahead: Promise<RepRecord | undefined>[] = [];
  let next = 0;
  const fill = (): void => {
    while (ahead.length < READ_AHEAD && next < keys.length) ahead.push(read(keys[next++]!));
  };
  try {
    for (let index = 0; index < keys.length; index++) {
      fill();
      visit(keys[index]!, await ahead.shift()!, index);
    }
  } finally {
    // A refusal part-way leaves reads in flight: their outcome is not wanted, but none may go unhandled.
    for (const pending of ahead) pending.catch(() => {});
  }
}
