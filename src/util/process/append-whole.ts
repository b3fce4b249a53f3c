import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { TurnkitError } from '../../errors.js';
import { describeWriteError, shownPath } from '../shown-path.js';

// Read (to find a torn last line) and append, creating the file when missing.
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

/**
 * Appends text to a file (made owner-only when new) so that it holds the whole text or none of it: a write that fails
 * part-way (a full disk, ENOSPC) is cut back to the old end, so that no torn line joins the next append, and is one
 * error naming the file. A last line left torn by a process killed mid-write (no newline at its end) is cut off first,
 * for the same reason. `noLinks` refuses a symbolic link (a file committed to a repository, which a link would point
 * anywhere). `sync` flushes it to the disk before answering.
 */
export async function appendWhole(
  path: string,
  text: string,
  options: { sync?: boolean; noLinks?: boolean } = {},
): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  let size: number | undefined;
  try {
    handle = await open(path, APPEND_FLAGS | (options.noLinks ? constants.O_NOFOLLOW : 0), 0o600);
    size = await wholeLinesEnd(handle, (await handle.stat()).size);
    await handle.appendFile(text);
    if (options.sync) await handle.sync();
  } catch (error) {
    // A device or file system that cannot be cut back keeps what it has; the error still names the file.
    if (handle && size !== undefined) await handle.truncate(size).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ELOOP'
        ? 'is a symbolic link: turnkit appends only to a file of its own'
        : describeWriteError(error as NodeJS.ErrnoException);
    throw new TurnkitError('IO', `${shownPath(path)}: ${why}`);
  } finally {
    await handle?.close().catch(() => {});
  }
}

// The end of the file's last whole line: the file is cut back there when its last line has no newline (torn).
async function wholeLinesEnd(handle: Awaited<ReturnType<typeof open>>, size: number): Promise<number> {
  if (size === 0) return 0;
  const chunk = Buffer.alloc(Math.min(size, 64 * 1024));
  let end = size;
  let first = true;
  while (end > 0) {
    const length = Math.min(chunk.length, end);
    await handle.read(chunk, 0, length, end - length);
    if (first && chunk[length - 1] === 0x0a) return size;
    first = false;
    const newline = chunk.subarray(0, length).lastIndexOf(0x0a);
    if (newline >= 0) {
      await handle.truncate(end - length + newline + 1);
      return end - length + newline + 1;
    }
    end -= length;
  }
  await handle.truncate(0);
  return 0;
}
