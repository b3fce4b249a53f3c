import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readInputBytes, readInputText } from '../../src/util/read-input.js';

// Every file turnkit reads whole goes through one bounded reader: a wrong path costs one line naming it, never a hang
// (/dev/zero, a pipe) or the machine's memory.
describe('reading an input file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-read-input-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('refuses a device, a pipe and a folder in one line naming them, without reading', async () => {
    await expect(readInputText('/dev/zero', 'zero', 1024)).rejects.toThrow(
      'zero: not a regular file (a device, a pipe or a socket); give a file',
    );
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    await expect(readInputText(fifo, 'pipe', 1024)).rejects.toThrow('pipe: not a regular file');
    await expect(readInputText(dir, 'folder', 1024)).rejects.toThrow('folder: is a folder, not a file');
    await expect(readInputText(join(dir, 'gone'), 'gone', 1024)).rejects.toThrow('gone: no such file');
  });

  it('refuses a file over its limit, saying both sizes, and reads one at the limit', async () => {
    const file = join(dir, 'big.json');
    await writeFile(file, Buffer.alloc(3 * 1024 * 1024, 0x20));
    await expect(readInputBytes(file, 'big.json', 2 * 1024 * 1024)).rejects.toThrow(
      'big.json: 3.0 MiB, more than the 2.0 MiB turnkit reads from such a file',
    );
    expect((await readInputBytes(file, 'big.json', 3 * 1024 * 1024)).length).toBe(3 * 1024 * 1024);
  });

  it('names a UTF-16 file as one instead of misreading it', async () => {
    const file = join(dir, 'q.yaml');
    await writeFile(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('id: q', 'utf16le')]));
    await expect(readInputText(file, 'q.yaml', 1024)).rejects.toThrow('q.yaml: is UTF-16 text; save it as UTF-8');
    await writeFile(file, 'id: q\n');
    expect(await readInputText(file, 'q.yaml', 1024)).toBe('id: q\n');
  });
});
