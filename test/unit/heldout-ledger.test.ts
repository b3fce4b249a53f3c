import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import {
  countHeldoutLooks,
  heldoutLedgerFile,
  readHeldoutLedger,
  recordHeldoutUse,
} from '../../src/report/heldout-ledger.js';
import { heldoutFixtureNames } from '../../src/cli/heldout-use.js';

describe('the held-out ledger', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-ledger-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const entry = (who: string, fixtures: string[], use: 'look' | 'debug-example' = 'look') => ({
    at: '2026-12-01T10:00:00.000Z',
    who,
    command: 'report',
    use,
    fixtures,
    targets: ['runs/q/s'],
  });

  it('writes nothing, not even an empty file, when no held-out fixture is touched', async () => {
    expect(await recordHeldoutUse(dir, entry('ann', []))).toBe(false);
    expect(existsSync(heldoutLedgerFile(dir))).toBe(false);
    expect(await readHeldoutLedger(dir)).toEqual([]);
    expect(countHeldoutLooks([])).toBeUndefined();
  });

  it('appends exactly one line per use, fixtures sorted and once each', async () => {
    expect(await recordHeldoutUse(dir, entry('ann', ['b', 'a', 'b']))).toBe(true);
    await recordHeldoutUse(dir, { ...entry('bo', ['a']), at: '2026-12-02T10:00:00.000Z' });
    await recordHeldoutUse(dir, entry('bo', ['a'], 'debug-example'));
    const text = await readFile(heldoutLedgerFile(dir), 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    const entries = await readHeldoutLedger(dir);
    expect(entries[0]!.fixtures).toEqual(['a', 'b']);
    // Frozen at the first line; two looks by two people; the debugging example counted apart.
    expect(countHeldoutLooks(entries)).toEqual({
      frozenAt: '2026-12-01T10:00:00.000Z',
      looks: 2,
      debugExamples: 1,
      people: 2,
    });
  });

  it('a line that is not an entry is one error naming the file and the line', async () => {
    await writeFile(heldoutLedgerFile(dir), `${JSON.stringify(entry('ann', ['a']))}\n{"at": 1}\n`);
    await expect(readHeldoutLedger(dir)).rejects.toThrow(/heldout-ledger\.jsonl:2: expected \{ at, who/);
    await writeFile(heldoutLedgerFile(dir), 'not json\n');
    // Read as every JSON file is: line and column, in the standard message.
    await expect(readHeldoutLedger(dir)).rejects.toMatchObject({
      message: `${relative(process.cwd(), heldoutLedgerFile(dir))}:1:1: invalid JSON: invalid symbol`,
    });
  });

  it("picks a manifest's held-out fixtures by tag", () => {
    expect(heldoutFixtureNames([{ name: 'a', tag: 'dev' }, { name: 'b', tag: 'heldout' }, { name: 'c' }])).toEqual([
      'b',
    ]);
  });
});
