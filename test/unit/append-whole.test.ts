import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { appendWhole } from '../../src/util/process/append-whole.js';
import { JudgeCache } from '../../src/judge/judge-cache.js';
import { JUDGE_CACHE_FILE } from '../../src/run-dir/run-file-names.js';
import { appendMarkHistory } from '../../src/run-dir/marks/marks-history.js';

// /dev/full answers every write with ENOSPC: a full disk without mounting one.
const full = existsSync('/dev/full');

async function failure(run: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await run();
  } catch (error) {
    return { code: (error as { code: string }).code, message: (error as Error).message };
  }
  throw new Error('did not fail');
}

describe.runIf(full)('appends on a full disk (ENOSPC) in judge and the marker', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps a whole file whole and appends whole lines', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-append-'));
    const file = join(dir, 'log.jsonl');
    await writeFile(file, '{"a":1}\n');
    await appendWhole(file, '{"b":2}\n');
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
    const link = join(dir, 'full.jsonl');
    await symlink('/dev/full', link);
    expect(await failure(() => appendWhole(link, 'x\n'))).toEqual({
      code: 'IO',
      message: `${relative(process.cwd(), link)}: no space left on the disk (ENOSPC)`,
    });
  });

  it("names the judge's cache file when an answer cannot be kept, in one line", async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-append-'));
    const cache = await JudgeCache.open(dir);
    await symlink('/dev/full', join(dir, JUDGE_CACHE_FILE));
    const failed = await failure(() => cache.put('k', 'pass', {}));
    expect(failed).toEqual({
      code: 'IO',
      message: `${relative(process.cwd(), join(dir, JUDGE_CACHE_FILE))}: no space left on the disk (ENOSPC)`,
    });
    expect(failed.message).not.toContain('\n');
  });

  it("names the marks history file when the marker's change cannot be kept", async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-append-'));
    const history = join(dir, 'marks.history.jsonl');
    await symlink('/dev/full', history);
    const row = { fixture: 'f1', rep: 1, mark: 'pass' as const, note: '' };
    expect(await failure(() => appendMarkHistory(history, [{ before: { ...row, mark: '' }, after: row }]))).toEqual({
      code: 'IO',
      message: `${relative(process.cwd(), history)}: no space left on the disk (ENOSPC)`,
    });
  });
});

describe('appends whole lines to a file of its own', () => {
  let dir: string;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('cuts off a last line a killed writer left torn, so the next line stands on its own', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-append-'));
    const file = join(dir, 'ledger.jsonl');
    await writeFile(file, '{"a":1}\n{"b":');
    await appendWhole(file, '{"c":3}\n');
    expect(await readFile(file, 'utf8')).toBe('{"a":1}\n{"c":3}\n');
    await writeFile(file, '{"torn');
    await appendWhole(file, '{"d":4}\n');
    expect(await readFile(file, 'utf8')).toBe('{"d":4}\n');
  });

  it('refuses to append through a symbolic link where asked (the held-out ledger), and writes nothing there', async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-append-'));
    const target = join(dir, 'elsewhere.txt');
    await writeFile(target, 'mine\n');
    const link = join(dir, 'heldout-ledger.jsonl');
    await symlink(target, link);
    expect(await failure(() => appendWhole(link, 'x\n', { noLinks: true }))).toEqual({
      code: 'IO',
      message: `${relative(process.cwd(), link)}: is a symbolic link: turnkit appends only to a file of its own`,
    });
    expect(await readFile(target, 'utf8')).toBe('mine\n');
  });
});
