import { readFile, stat } from 'node:fs/promises';
import { TurnkitError } from '../errors.js';
import { describeReadError } from './shown-path.js';

/** The most bytes of a file a person writes (a config, a question, a rubric, a case template, a patch). */
export const HAND_WRITTEN_LIMIT = 8 * 1024 * 1024;
/** The most bytes of a data file turnkit reads whole (a fixture, an edited copy, a marks or calibration file). */
export const DATA_FILE_LIMIT = 512 * 1024 * 1024;

/**
 * A file's bytes, refused in one line naming it when it is not there, is not a regular file (a folder, `/dev/zero`, a
 * pipe: reading one never ends or never starts), or is larger than `limit`: so a mistaken path costs a message, not
 * the machine's memory.
 */
export async function readInputBytes(path: string, shown: string, limit: number): Promise<Buffer> {
  let size: number;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw new TurnkitError('NOT_FOUND', `${shown}: is a folder, not a file`);
    if (!info.isFile())
      throw new TurnkitError('BAD_INPUT', `${shown}: not a regular file (a device, a pipe or a socket); give a file`);
    size = info.size;
  } catch (error) {
    if (error instanceof TurnkitError) throw error;
    throw new TurnkitError('NOT_FOUND', `${shown}: ${describeReadError(error as NodeJS.ErrnoException)}`);
  }
  if (size > limit) throw tooLarge(shown, size, limit);
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('NOT_FOUND', `${shown}: ${describeReadError(error)}`);
  });
  // It may have grown since: the bound holds for what was read.
  if (bytes.length > limit) throw tooLarge(shown, bytes.length, limit);
  return bytes;
}

/** A text file's contents as UTF-8 (see readInputBytes); a UTF-16 file is named as one rather than misread. */
export async function readInputText(path: string, shown: string, limit: number): Promise<string> {
  const bytes = await readInputBytes(path, shown, limit);
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)))
    throw new TurnkitError('BAD_INPUT', `${shown}: is UTF-16 text; save it as UTF-8`);
  return bytes.toString('utf8');
}

function tooLarge(shown: string, size: number, limit: number): TurnkitError {
  return new TurnkitError(
    'BAD_INPUT',
    `${shown}: ${mebibytes(size)} MiB, more than the ${mebibytes(limit)} MiB turnkit reads from such a file`,
  );
}

function mebibytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return value >= 10 ? value.toFixed(0) : value.toFixed(1);
}
