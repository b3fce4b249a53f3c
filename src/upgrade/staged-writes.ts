import { rename, rm } from 'node:fs/promises';
import { tempSibling } from '../util/process/temp-names.js';

/**
 * The files of one upgrade, written all or none: each beside its target under a temporary name, renamed into place
 * only by `commit`, after every fixture succeeded.
 */
export class StagedWrites {
  private readonly staged: { temp: string; target: string }[] = [];

  /** Where to write what is meant for `target` now. */
  stage(target: string): string {
    const temp = tempSibling(target);
    this.staged.push({ temp, target });
    return temp;
  }

  /** Moves every staged file onto its target (each rename atomic). */
  async commit(): Promise<void> {
    for (const { temp, target } of this.staged.splice(0)) await rename(temp, target);
  }

  /** Removes every staged file: the targets stay as they were. */
  async discard(): Promise<void> {
    for (const { temp } of this.staged.splice(0)) await rm(temp, { force: true });
  }
}
