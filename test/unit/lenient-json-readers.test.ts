import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lenientJson } from '../../src/util/json/json-source.js';
import { readRunState, repId } from '../../src/run-dir/run-state.js';
import { forEachRepRecord } from '../../src/run-dir/rep-records-in-order.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { runWriter } from '../../src/run-dir/run-writer.js';
import { constructedStandingOn } from '../../src/fixture/turns/standing-on.js';
import { acquireMarksLock, lockFileOf } from '../../src/marking/marks-lock.js';
import { makeMarkRun, standardRun } from '../helpers/mark-run.js';

// The files whose readers take one they cannot read as absent (a rep record or an order.jsonl line torn by a crash,
// a lock file still being written, a folder's constructed fixtures scanned for their base) read it through the one
// reader (util/json), leniently: what it refuses (a torn text, a repeated key) is no value, never a thrown error.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-lenient-json-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = (fixture: string, rep: number) => join(dir, 'run', 'reps', fixture, `rep-0${rep}.json`);

describe('lenientJson', () => {
  it('has the value the strict reader has, and none where it refuses the text', () => {
    expect(lenientJson('{"a": [1, null]}')).toEqual({ a: [1, null] });
    expect(lenientJson('null')).toBeNull();
    for (const text of ['{"a": [1,', '', '{"a": 1, "a": 2}', `${'['.repeat(300)}${']'.repeat(300)}`])
      expect(lenientJson(text)).toBeUndefined();
  });
});

describe("a run's rep records and order", () => {
  it('a torn record and a null one count as not run; the others are read, however deep what the SUT wrote', async () => {
    const run = await makeMarkRun(standardRun(join(dir, 'run')));
    await writeFile(record('alpha', 1), '{"fixture": "alpha", "rep": 1, "attem');
    // A SUT's jsonb 300 deep: past the depth limit of hand-written files, but the record is turnkit's own.
    const deep = `${'['.repeat(300)}${']'.repeat(300)}`;
    await writeFile(record('alpha', 3), (await readFile(record('alpha', 3), 'utf8')).replace('{', `{"deep": ${deep},`));
    await writeFile(record('beta', 1), 'null\n');
    const state = await readRunState(run);
    expect([...state.records.keys()].sort()).toEqual([
      repId({ fixture: 'alpha', rep: 2 }),
      repId({ fixture: 'alpha', rep: 3 }),
      repId({ fixture: 'beta', rep: 2 }),
    ]);
    expect([...state.completed].sort()).toEqual([
      repId({ fixture: 'alpha', rep: 3 }),
      repId({ fixture: 'beta', rep: 2 }),
    ]);
    expect([...state.errored.keys()]).toEqual([repId({ fixture: 'alpha', rep: 2 })]);
  });

  it('visited one at a time, a torn or a null record is visited as no record, as readRunState counts it', async () => {
    const run = await makeMarkRun(standardRun(join(dir, 'run')));
    await writeFile(record('alpha', 1), '{"fixture": "alpha", "rep": 1, "attem');
    await writeFile(record('beta', 1), 'null\n');
    const seen: [string, number, string | null | undefined][] = [];
    const keys = [1, 2].flatMap((rep) => ['alpha', 'beta'].map((fixture) => ({ fixture, rep })));
    await forEachRepRecord(run, keys, (key, visited) => seen.push([key.fixture, key.rep, visited?.response]));
    expect(seen).toEqual([
      ['alpha', 1, undefined],
      ['beta', 1, undefined],
      ['alpha', 2, null],
      ['beta', 2, 'RESP-BETA-2 no idea.'],
    ]);
  });

  it('order.jsonl: a torn line (a resume appends after it), a null line and a repeated key are skipped', async () => {
    const run = await makeMarkRun(standardRun(join(dir, 'run')));
    const entry = (fixture: string, rep: number) => JSON.stringify({ fixture, rep, attempt: 1 });
    await writeFile(
      join(run, 'order.jsonl'),
      `${entry('alpha', 1)}\n{"fixture":"beta","re${entry('beta', 1)}\nnull\n\n{"fixture":"alpha","rep":2,"rep":3}\n${entry('alpha', 2)}\n`,
    );
    expect((await readRunState(run)).order).toEqual([
      { fixture: 'alpha', rep: 1, attempt: 1 },
      { fixture: 'alpha', rep: 2, attempt: 1 },
    ]);
  });

  it('an earlier attempt is kept under its attempt; a torn one under attempt 0', async () => {
    const run = await makeMarkRun(standardRun(join(dir, 'run')));
    const write = runWriter(run);
    const attempt2 = JSON.parse(await readFile(record('alpha', 1), 'utf8')) as RepRecord;
    await writeFile(record('alpha', 1), JSON.stringify({ ...attempt2, attempt: 2 }));
    await write.keepEarlierAttempt({ fixture: 'alpha', rep: 1 });
    expect(existsSync(join(run, 'reps', 'alpha', 'rep-01.attempt-2.json'))).toBe(true);
    await writeFile(record('beta', 1), '{"fixture": "beta", "rep": 1, "attempt": 3');
    await write.keepEarlierAttempt({ fixture: 'beta', rep: 1 });
    expect(await readFile(join(run, 'reps', 'beta', 'rep-01.attempt-0.json'), 'utf8')).toBe(
      '{"fixture": "beta", "rep": 1, "attempt": 3',
    );
    expect(existsSync(record('beta', 1))).toBe(false);
  });
});

describe("a folder's constructed fixtures, scanned for the ones standing on a file", () => {
  it('finds the ones that name it as their base; one that does not read stands on nothing', async () => {
    const base = join(dir, 'base.json');
    const constructed = (sha256: string) =>
      JSON.stringify({ format: 'turnkit.constructed/1', base: { path: 'base.json', sha256 } });
    await writeFile(join(dir, 'a.json'), constructed('aa'));
    await writeFile(join(dir, 'b.json'), constructed('bb').slice(0, -2));
    await writeFile(join(dir, 'c.json'), constructed('cc').replace('{', '{"format": "x",'));
    await writeFile(join(dir, 'd.json'), 'null');
    expect(await constructedStandingOn([base], dir)).toEqual([
      { constructed: join(dir, 'a.json'), base, sha256: 'aa' },
    ]);
  });
});

describe('a lock file that does not read', () => {
  it('null or with a repeated key, it is being written: refused while new, taken over once old', async () => {
    const file = join(dir, 'marks.csv');
    for (const text of ['null', `{"pid": ${process.pid}, "pid": ${process.pid}}`]) {
      await writeFile(lockFileOf(file), text);
      await expect(acquireMarksLock(file, 'turnkit view')).rejects.toThrow(/being marked by another process/);
      const then = new Date(Date.now() - 60_000);
      await utimes(lockFileOf(file), then, then);
      await (await acquireMarksLock(file, 'turnkit view')).release();
    }
  });
});
