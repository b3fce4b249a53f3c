import { open } from 'node:fs/promises';
import { TurnkitError } from '../errors.js';
import { describeWriteError, shownPath } from './shown-path.js';

/**
 * Appends text to a file (made owner-only when new) so that it holds the whole text or none of it: a write that fails
 * part-way (a full disk, ENOSPC) is cut back to the old end, so that no torn line joins the next append, and is one
 * error naming the file. `sync` flushes it to the disk before answering.
 */
export async function appendWhole(path: string, text: string, options: { sync?: boolean } = {}): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let size: number | undefined;
  try {
    handle = await open(path, 'a', 0o600);
    size = (await handle.stat()).size;
    await handle.appendFile(text);
    if (options.sync) await handle.sync();
  } catch (error) {
    // A device or file system that cannot be cut back keeps what it has; the error still names the file.
    if (handle && size !== undefined) await handle.truncate(size).catch(() => {});
    throw new TurnkitError('IO', `${shownPath(path)}: ${describeWriteError(error as NodeJS.ErrnoException)}`);
  } finally {
    await handle?.close().catch(() => {});
  }
}
