import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeChunksAtomic } from '../../src/util/process/atomic-write.js';

// A streamed fixture copies its row lists into the file as bytes between pieces of text (write-fixture.ts): the
// file must hold the text and the bytes in their order, a character split across two byte pieces whole.
describe('writeChunksAtomic with byte pieces', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-chunks-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes text and bytes in their order, a multibyte character split across pieces intact', async () => {
    const body = Buffer.from('"ünïcode 🚀 narration"');
    const cut = body.indexOf(Buffer.from('🚀')) + 2;
    const file = join(dir, 'out.json');
    async function* pieces(): AsyncGenerator<string | Uint8Array> {
      yield '{\n  "rows": ';
      yield body.subarray(0, cut);
      yield body.subarray(cut);
      yield 'x'.repeat(1 << 20);
      yield '\n}\n';
    }
    await writeChunksAtomic(file, pieces());
    expect(await readFile(file, 'utf8')).toBe(`{\n  "rows": "ünïcode 🚀 narration"${'x'.repeat(1 << 20)}\n}\n`);
    expect(await readdir(dir)).toEqual(['out.json']);
  });
});
