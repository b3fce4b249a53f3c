import { open, readFile, rename, rm, mkdir, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { tempSibling } from './temp-names.js';
import { TurnkitError } from '../../errors.js';
import { describeWriteError, shownPath } from '../shown-path.js';

/** Options for an atomic write. */
export interface AtomicWriteOptions {
  /** File mode of the new file (0o644 unless given). */
  mode?: number;
  /** fsync before the rename (default true): off for files that can be made again, where speed matters more. */
  durable?: boolean;
}

/** Writes a file so that readers see the old bytes or the new ones, never a torn file: temp file, fsync, rename. */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await namingTheFile(path, () => writeWhole(path, data, options));
}

async function writeWhole(path: string, data: string | Uint8Array, options: AtomicWriteOptions): Promise<void> {
  await throughTemp(path, options, (handle) => handle.writeFile(data));
}

/**
 * The one way a file is replaced: `write` fills a temporary sibling, which is fsynced (unless `durable: false`),
 * closed and renamed over the target; whatever fails, the temporary file goes and the target is as it was.
 */
async function throughTemp(
  path: string,
  options: AtomicWriteOptions,
  write: (handle: FileHandle) => Promise<void>,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = tempSibling(path);
  const handle = await open(temp, 'w', options.mode ?? 0o644);
  try {
    await write(handle);
    if (options.durable !== false) await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The most characters held before a write: the chunks of a large document reach the file in pieces this big. */
const CHUNKED_WRITE_BUFFER = 1 << 20;

/**
 * Writes text given in pieces (a large document serialised as it is written) with the guarantees of
 * writeFileAtomic: readers, and a process killed at any point, see the old file or the whole new one. A piece
 * may be bytes already (UTF-8 copied from another file): it is written as it is, after the text before it.
 */
export async function writeChunksAtomic(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<void> {
  await namingTheFile(path, () => writeInChunks(path, chunks, options));
}

/**
 * Runs a write, turning the file system's own error (ENOSPC, EACCES: "no space left on device, write", naming no
 * file) into one line naming the file that was being written; other errors (a scrubber's, a signal's) pass as they are.
 */
async function namingTheFile(path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (error instanceof TurnkitError || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) throw error;
    // The file system's error stays its cause: a caller naming the file its own way reads the errno from it.
    throw new TurnkitError(
      'IO',
      `${shownPath(path)}: ${describeWriteError(error as NodeJS.ErrnoException)}`,
      undefined,
      {
        cause: error,
      },
    );
  }
}

async function writeInChunks(
  path: string,
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
  options: AtomicWriteOptions,
): Promise<void> {
  await throughTemp(path, options, async (handle) => {
    let pending: string[] = [];
    let size = 0;
    for await (const chunk of chunks) {
      if (typeof chunk !== 'string') {
        await handle.writeFile(pending.join(''));
        pending = [];
        size = 0;
        await handle.writeFile(chunk);
        continue;
      }
      pending.push(chunk);
      size += chunk.length;
      if (size >= CHUNKED_WRITE_BUFFER) {
        await handle.writeFile(pending.join(''));
        pending = [];
        size = 0;
      }
    }
    await handle.writeFile(pending.join(''));
  });
}

/**
 * Writes `text` atomically unless the file holds it already (a JSON Schema beside the fixtures, refreshed by every
 * capture): unchanged bytes are not rewritten, so the file's time and a watcher stay still.
 */
export async function refreshFile(path: string, text: string): Promise<void> {
  const current = await readFile(path, 'utf8').catch(() => undefined);
  if (current !== text) await writeFileAtomic(path, text);
}
