import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';

// Work a command must finish before the process goes because its output went away (a save under way).
const pending = new Set<() => Promise<unknown>>();
let quitting = false;
// The descriptors that were terminals when the process started: Node restores their settings at exit.
const terminals = [0, 1, 2].filter((fd) => isatty(fd));

/** Registers work to finish before a quiet exit (see `quitWhenGone`); returns a function that unregisters it. */
export function finishBeforeQuit(task: () => Promise<unknown>): () => void {
  pending.add(task);
  return () => pending.delete(task);
}

/**
 * An 'error' listener for stdout, stderr and stdin: when the reader closed the pipe (`turnkit materialize X | head`,
 * EPIPE) or the terminal went away (EIO), that is not turnkit's failure. The registered work (the marker's last
 * save) finishes, then the process exits with the code it already had, without a stack trace. Other errors throw.
 */
export function quitWhenGone(error: NodeJS.ErrnoException): void {
  if (error.code !== 'EPIPE' && error.code !== 'EIO') throw error;
  if (quitting) return;
  quitting = true;
  void Promise.allSettled([...pending].map((task) => task())).then(() => process.exit(process.exitCode ?? 0));
}

/**
 * Closes the descriptors of a terminal that has gone away (hung up: no longer a terminal), for the 'exit' event.
 * Node 20 restores a terminal's settings at exit and aborts on an assertion, with a native stack, when it is gone;
 * it skips descriptors that are closed.
 */
export function closeDeadTerminals(): void {
  for (const fd of terminals) {
    if (isatty(fd)) continue;
    try {
      closeSync(fd);
    } catch {
      // Closed already: nothing to restore either.
    }
  }
}
