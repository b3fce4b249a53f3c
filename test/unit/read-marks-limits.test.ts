import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMarksFile } from '../../src/run-dir/marks/read-marks.js';

describe('reading a marks file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-marks-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a UTF-16 file (a BOM) is named as UTF-16, not reported as a CSV quote error', async () => {
    const path = join(dir, 'marks.csv');
    await writeFile(
      path,
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('fixture,rep,mark,note\n', 'utf16le')]),
    );
    await expect(readMarksFile(path, undefined)).rejects.toThrow(/marks\.csv: is UTF-16 text; save it as UTF-8$/);
  });

  it('100,000 bad rows give one problem with a count', async () => {
    const path = join(dir, 'marks.csv');
    const rows = Array.from({ length: 100_000 }, (_, i) => `f1,${i + 1},maybe,\n`).join('');
    await writeFile(path, `fixture,rep,mark,note\n${rows}`);
    const error = await readMarksFile(path, undefined).then(
      () => null,
      (caught: { problems: string[] }) => caught,
    );
    expect(error?.problems).toHaveLength(1);
    expect(error?.problems[0]).toMatch(
      /:2: unknown mark "maybe" for f1 rep 1 .* \(and 99999 more rows with problems\)$/,
    );
  });
});
