import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TurnkitError } from '../../src/errors.js';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { makeMarkRun, readMarks, standardRun, tempFiles } from '../helpers/mark-run.js';

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-marking-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A fresh copy of the standard run (alpha 2 errored, beta 3 not run). */
const newRun = (): Promise<string> => makeMarkRun(standardRun(join(root, `run-${++count}`)));
const order = (session: MarkingSession): string[] => session.reps.map((rep) => `${rep.fixture}/${rep.rep}`);
const PLAN = ['alpha/1', 'beta/1', 'alpha/2', 'beta/2', 'alpha/3', 'beta/3'];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function historyLines(session: MarkingSession): Promise<any[]> {
  return (await readFile(session.historyFile, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

describe('MarkingSession.open', () => {
  it('lists the reps in the interleaved order with their records, case files and skipped flags', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(order(session)).toEqual(PLAN);
    expect(session.reps.map((rep) => rep.skipped)).toEqual([false, false, true, false, false, true]);
    expect(session.reps[0]!.record?.response).toBe('RESP-ALPHA-1 deck 2, aft.');
    expect(session.reps[2]!.record?.error).toEqual({
      stage: 'sut',
      cause: 'exit',
      message: 'BOOM-ALPHA-2 exited with code 1',
    });
    expect(session.reps[5]!.record).toBeUndefined();
    expect(session.reps[1]!.caseFile).toContain('CASE-BETA');
    expect(session.reps[4]!.caseFile).toContain('CASE-ALPHA');
    expect(session.rubric).toContain('PASS-RULE');
    expect(session.file).toBe(join(dir, 'marks.csv'));
    expect(session.historyFile).toBe(join(dir, 'marks.history.jsonl'));
    expect(session.blind).toBeUndefined();
    expect(session.who).toBe('ann');
  });

  it('shows an errored rep as error and a rep without a record as blank "not run"; progress leaves both out', async () => {
    const session = await MarkingSession.open({ dir: await newRun(), who: 'ann' });
    expect(session.markOf(2)).toEqual({ fixture: 'alpha', rep: 2, mark: 'error', note: 'sut: exit' });
    expect(session.markOf(5)).toEqual({ fixture: 'beta', rep: 3, mark: '', note: 'not run' });
    expect(session.markOf(0)).toEqual({ fixture: 'alpha', rep: 1, mark: '', note: '' });
    expect(session.progress()).toEqual({ marked: 0, total: 4 });
    expect(session.firstUnmarked()).toBe(0);
  });

  it('steps over skipped reps unless asked for all, and stays put at either end', async () => {
    const session = await MarkingSession.open({ dir: await newRun(), who: 'ann' });
    expect(session.step(1, 1)).toBe(3);
    expect(session.step(1, 1, true)).toBe(2);
    expect(session.step(3, -1)).toBe(1);
    expect(session.step(4, 1)).toBe(4);
    expect(session.step(4, 1, true)).toBe(5);
    expect(session.step(0, -1)).toBe(0);
  });

  it('refuses a grader name that is not a plain file name part', async () => {
    const error = await MarkingSession.open({ dir: await newRun(), grader: '../x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).code).toBe('USAGE');
  });
});

describe('MarkingSession.setMark', () => {
  it('says it is saving from the moment a mark counts until every mark given is on disk', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(session.saving).toBe(false);
    const first = session.setMark(0, 'pass');
    const second = session.setMark(1, 'fail');
    // Counted at once, written behind.
    expect(session.progress().marked).toBe(2);
    expect(session.saving).toBe(true);
    await first;
    await second;
    expect(session.saving).toBe(false);
    const marks = await readMarks(join(dir, 'marks.csv'));
    expect([marks['alpha/1']!.mark, marks['beta/1']!.mark]).toEqual(['pass', 'fail']);
  });

  it('writes marks.csv at once, with who, when and the rubric version on the marked row', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    const before = Date.now();
    const row = await session.setMark(0, 'pass');
    expect(row).toMatchObject({ fixture: 'alpha', rep: 1, mark: 'pass', note: '', grader: 'ann', rubricVersion: 'v3' });
    const text = await readFile(join(dir, 'marks.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('fixture,rep,mark,note,grader,marked_at,rubric_version');
    const marks = await readMarks(join(dir, 'marks.csv'));
    expect(marks['alpha/1']).toMatchObject({ mark: 'pass', note: '', grader: 'ann', rubricVersion: 'v3' });
    expect(marks['alpha/1']!.markedAt).toMatch(ISO);
    const at = Date.parse(marks['alpha/1']!.markedAt!);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    // Every rep of the run has its row: errored reps as error, unmarked ones blank.
    expect(Object.keys(marks).sort()).toEqual(['alpha/1', 'alpha/2', 'alpha/3', 'beta/1', 'beta/2', 'beta/3']);
    expect(marks['alpha/2']).toMatchObject({ mark: 'error', note: 'sut: exit' });
    expect(marks['beta/1']).toMatchObject({ mark: '', note: '' });
    expect(marks['beta/3']).toMatchObject({ mark: '', note: 'not run' });
    expect(marks['beta/1']!.grader).toBeUndefined();
    expect(session.progress()).toEqual({ marked: 1, total: 4 });
    expect(await tempFiles(dir)).toEqual([]);
  });

  it('writes marks.NAME.csv with --grader and leaves marks.csv alone', async () => {
    const dir = await newRun();
    await writeFile(join(dir, 'marks.csv'), "fixture,rep,mark,note\nalpha,1,fail,the run's own\n");
    const session = await MarkingSession.open({ dir, grader: 'bob', who: 'bob-login' });
    expect(session.file).toBe(join(dir, 'marks.bob.csv'));
    expect(session.historyFile).toBe(join(dir, 'marks.bob.history.jsonl'));
    // The grader's file does not start from the run's marks.
    expect(session.markOf(0).mark).toBe('');
    await session.setMark(1, 'fail', 'wrong deck');
    const marks = await readMarks(join(dir, 'marks.bob.csv'));
    expect(marks['beta/1']).toMatchObject({
      mark: 'fail',
      note: 'wrong deck',
      grader: 'bob-login',
      rubricVersion: 'v3',
    });
    expect(await readFile(join(dir, 'marks.csv'), 'utf8')).toBe("fixture,rep,mark,note\nalpha,1,fail,the run's own\n");
    expect(existsSync(join(dir, 'marks.history.jsonl'))).toBe(false);
  });

  it('keeps every earlier value in the history file: from the old mark to the new', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    const first = await session.setMark(0, 'pass');
    const second = await session.setMark(0, 'fail', 'deck 2 but aft is wrong');
    // The same mark and note again changes nothing and records nothing.
    expect(await session.setMark(0, 'fail')).toEqual(second);
    const history = await historyLines(session);
    expect(history).toEqual([
      {
        fixture: 'alpha',
        rep: 1,
        from: { mark: '', note: '' },
        to: { mark: 'pass', note: '', grader: 'ann', markedAt: first.markedAt, rubricVersion: 'v3' },
      },
      {
        fixture: 'alpha',
        rep: 1,
        from: { mark: 'pass', note: '', grader: 'ann', markedAt: first.markedAt },
        to: {
          mark: 'fail',
          note: 'deck 2 but aft is wrong',
          grader: 'ann',
          markedAt: second.markedAt,
          rubricVersion: 'v3',
        },
      },
    ]);
    expect((await readMarks(session.file))['alpha/1']).toMatchObject({ mark: 'fail', note: 'deck 2 but aft is wrong' });
    // A new mark without a note keeps the note it had.
    await session.setMark(0, 'na');
    expect((await readMarks(session.file))['alpha/1']).toMatchObject({ mark: 'na', note: 'deck 2 but aft is wrong' });
    expect((await historyLines(session))[2]).toMatchObject({
      from: { mark: 'fail', note: 'deck 2 but aft is wrong' },
      to: { mark: 'na', note: 'deck 2 but aft is wrong' },
    });
  });

  it('unmarking (a blank mark) is recorded too, and progress drops', async () => {
    const session = await MarkingSession.open({ dir: await newRun(), who: 'ann' });
    await session.setMark(3, 'pass');
    expect(session.progress()).toEqual({ marked: 1, total: 4 });
    await session.setMark(3, '');
    expect(session.progress()).toEqual({ marked: 0, total: 4 });
    expect((await readMarks(session.file))['beta/2']).toMatchObject({ mark: '', grader: 'ann' });
    expect((await historyLines(session)).map((line) => [line.from.mark, line.to.mark])).toEqual([
      ['', 'pass'],
      ['pass', ''],
    ]);
  });

  it('the marks file parses after every mark, and a reader polling during the writes never sees it torn', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    const file = join(dir, 'marks.csv');
    let writing = true;
    let reads = 0;
    const problems: string[] = [];
    const reader = (async () => {
      while (writing) {
        const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
          error.code === 'ENOENT' ? undefined : Promise.reject(error),
        );
        if (text === undefined) continue;
        reads++;
        try {
          const rows = parseMarks(text);
          if (
            !text.startsWith('fixture,rep,mark,note,grader,marked_at,rubric_version\n') ||
            rows.length !== 6 ||
            !text.endsWith('\n')
          )
            problems.push(text);
        } catch {
          problems.push(text);
        }
      }
    })();
    const sequence = ['pass', 'fail', 'na', 'pass'] as const;
    const open = [0, 1, 3, 4];
    for (let round = 0; round < 10; round++) {
      for (const [i, index] of open.entries()) {
        const mark = sequence[(round + i) % sequence.length]!;
        await session.setMark(index, mark, `round ${round}, a note with "quotes", commas\nand a newline`);
        const marks = await readMarks(file);
        expect(marks[`${session.reps[index]!.fixture}/${session.reps[index]!.rep}`]).toMatchObject({
          mark,
          note: `round ${round}, a note with "quotes", commas\nand a newline`,
        });
        expect(Object.keys(marks)).toHaveLength(6);
      }
    }
    writing = false;
    await reader;
    expect(problems).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(await tempFiles(dir)).toEqual([]);
    expect(await historyLines(session)).toHaveLength(40);
  });

  it('refuses to mark an errored rep or one that was not run, and writes nothing', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    for (const index of [2, 5]) {
      const error = await session.setMark(index, 'pass').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnkitError);
      expect((error as TurnkitError).code).toBe('BAD_INPUT');
    }
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
    expect(existsSync(session.historyFile)).toBe(false);
    expect(session.markOf(2).mark).toBe('error');
  });
});

describe('MarkingSession: reopening', () => {
  it('reads the marks given so far and continues at the first rep without a mark', async () => {
    const dir = await newRun();
    const first = await MarkingSession.open({ dir, who: 'ann' });
    const given = await first.setMark(0, 'pass', 'good');
    await first.setMark(1, 'fail');
    const again = await MarkingSession.open({ dir, who: 'ann' });
    expect(again.markOf(0)).toEqual(given);
    expect(again.markOf(1)).toMatchObject({ mark: 'fail', grader: 'ann', rubricVersion: 'v3' });
    expect(again.progress()).toEqual({ marked: 2, total: 4 });
    // Index 2 is the errored rep: the first unmarked is beta rep 2.
    expect(again.firstUnmarked()).toBe(3);
    await again.setMark(3, 'na');
    expect((await MarkingSession.open({ dir })).firstUnmarked()).toBe(4);
  });

  it('skips a gap: a later mark does not move the start past an earlier unmarked rep', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    await session.setMark(0, 'pass');
    await session.setMark(4, 'pass');
    expect((await MarkingSession.open({ dir })).firstUnmarked()).toBe(1);
  });

  it('starts at the first rep to mark when every rep is marked', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, who: 'ann' });
    for (const index of [0, 1, 3, 4]) await session.setMark(index, 'pass');
    const again = await MarkingSession.open({ dir });
    expect(again.progress()).toEqual({ marked: 4, total: 4 });
    expect(again.firstUnmarked()).toBe(0);
  });

  it('a marks.csv written by the run (errors filled in, no provenance) opens and is rewritten with provenance', async () => {
    const dir = await newRun();
    await writeFile(
      join(dir, 'marks.csv'),
      'fixture,rep,mark,note\nalpha,1,,\nalpha,2,error,sut: exit: exited with code 1\nalpha,3,,\nbeta,1,pass,by hand\nbeta,2,,\nbeta,3,,not run\n',
    );
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(session.markOf(1)).toEqual({ fixture: 'beta', rep: 1, mark: 'pass', note: 'by hand' });
    expect(session.progress()).toEqual({ marked: 1, total: 4 });
    expect(session.firstUnmarked()).toBe(0);
    await session.setMark(0, 'fail');
    const marks = await readMarks(join(dir, 'marks.csv'));
    expect(marks['beta/1']).toMatchObject({ mark: 'pass', note: 'by hand' });
    expect(marks['alpha/1']).toMatchObject({ mark: 'fail', grader: 'ann' });
    expect(marks['alpha/2']).toMatchObject({ mark: 'error', note: 'sut: exit: exited with code 1' });
  });
});

describe('MarkingSession: a run resumed after marking began', () => {
  it('a rep that errored or was not run when the file was written, and has since completed, is there to mark afresh', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, grader: 'g', who: 'ann' });
    await session.setMark(0, 'pass');
    // marks.g.csv now holds alpha 2 as error and beta 3 as "not run"; then `turnkit run --resume` runs both again.
    for (const [fixture, rep] of [
      ['alpha', 2],
      ['beta', 3],
    ] as const) {
      const path = join(dir, 'reps', fixture, `rep-0${rep}.json`);
      const record = JSON.parse(await readFile(join(dir, 'reps', 'beta', 'rep-01.json'), 'utf8'));
      await writeFile(
        path,
        JSON.stringify({
          ...record,
          fixture,
          rep,
          response: `RESUMED ${fixture} ${rep}`,
          request: { ...record.request, fixture, rep },
        }),
      );
    }
    const again = await MarkingSession.open({ dir, grader: 'g', who: 'ann' });
    expect(again.reps.map((rep) => rep.skipped)).toEqual([false, false, false, false, false, false]);
    expect(again.progress()).toEqual({ marked: 1, total: 6 });
    expect(again.markOf(2)).toMatchObject({ mark: '', note: '' });
    expect(again.markOf(5)).toMatchObject({ mark: '', note: '' });
    expect(again.firstUnmarked()).toBe(1);
    await again.setMark(5, 'pass');
    expect((await readMarks(again.file))['beta/3']).toMatchObject({ mark: 'pass', note: '' });
  });
});

describe('MarkingSession: error marks given by hand', () => {
  /** Rewrites a rep's record as a completed one (what `turnkit run --resume` leaves for a rep it ran again). */
  async function complete(dir: string, fixture: string, rep: number): Promise<void> {
    const record = JSON.parse(await readFile(join(dir, 'reps', 'beta', 'rep-01.json'), 'utf8'));
    await writeFile(
      join(dir, 'reps', fixture, `rep-0${rep}.json`),
      JSON.stringify({
        ...record,
        fixture,
        rep,
        response: `RESUMED ${fixture} ${rep}`,
        request: { ...record.request, fixture, rep },
      }),
    );
  }

  it('an error a person typed into marks.csv (no grader, their own note) on a rep that did not error is kept', async () => {
    const dir = await newRun();
    await writeFile(join(dir, 'marks.csv'), 'fixture,rep,mark,note\nalpha,1,error,looked broken\nbeta,1,pass,fine\n');
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(session.reps[0]!.skipped).toBe(false);
    expect(session.markOf(0)).toEqual({ fixture: 'alpha', rep: 1, mark: 'error', note: 'looked broken' });
    expect(session.markOf(1)).toEqual({ fixture: 'beta', rep: 1, mark: 'pass', note: 'fine' });
    // Marking another rep rewrites the file: the hand-given error is written back as it was.
    await session.setMark(3, 'fail', 'deck 5');
    const marks = await readMarks(join(dir, 'marks.csv'));
    expect(marks['alpha/1']).toMatchObject({ mark: 'error', note: 'looked broken' });
    expect(marks['alpha/1']!.grader).toBeUndefined();
    expect(marks['beta/2']).toMatchObject({ mark: 'fail', note: 'deck 5', grader: 'ann' });
    // And reopened once more, it is still there.
    const again = await MarkingSession.open({ dir, who: 'ann' });
    expect(again.markOf(0)).toEqual({ fixture: 'alpha', rep: 1, mark: 'error', note: 'looked broken' });
    expect(again.markOf(3)).toMatchObject({ mark: 'fail', note: 'deck 5' });
    // It counts as a mark given: alpha 1, beta 1 and beta 2 of the four reps there are to mark.
    expect(again.progress()).toEqual({ marked: 3, total: 4 });
  });

  it('the error row turnkit wrote for an errored rep (note "sut: ...", no grader) is blank once the rep completed', async () => {
    const dir = await newRun();
    await writeFile(
      join(dir, 'marks.csv'),
      'fixture,rep,mark,note\nalpha,1,error,looked broken\nalpha,2,error,sut: exit: BOOM-ALPHA-2 exited with code 1\n',
    );
    // Before the resume: alpha 2 errored, its row stands.
    expect((await MarkingSession.open({ dir, who: 'ann' })).markOf(2)).toEqual({
      fixture: 'alpha',
      rep: 2,
      mark: 'error',
      note: 'sut: exit: BOOM-ALPHA-2 exited with code 1',
    });
    await complete(dir, 'alpha', 2);
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(session.reps[2]!.skipped).toBe(false);
    expect(session.markOf(2)).toEqual({ fixture: 'alpha', rep: 2, mark: '', note: '' });
    // The hand-given error beside it stays.
    expect(session.markOf(0)).toEqual({ fixture: 'alpha', rep: 1, mark: 'error', note: 'looked broken' });
    expect(session.firstUnmarked()).toBe(1);
    await session.setMark(2, 'pass');
    const marks = await readMarks(join(dir, 'marks.csv'));
    expect(marks['alpha/2']).toMatchObject({ mark: 'pass', note: '', grader: 'ann' });
    expect(marks['alpha/1']).toMatchObject({ mark: 'error', note: 'looked broken' });
  });

  it("an error row with a grader is a person's, whatever its note says: kept after the rep completed", async () => {
    const dir = await newRun();
    await writeFile(
      join(dir, 'marks.csv'),
      'fixture,rep,mark,note,grader,marked_at,rubric_version\nalpha,2,error,sut: exit,bob,2026-01-02T00:00:00.000Z,v3\n',
    );
    await complete(dir, 'alpha', 2);
    const session = await MarkingSession.open({ dir, who: 'ann' });
    expect(session.markOf(2)).toMatchObject({ mark: 'error', note: 'sut: exit', grader: 'bob' });
  });
});

describe('MarkingSession: grader names and empty shards', () => {
  it.each(['checks', 'blind', 'history', 'judge-gpt', 'Checks', 'JUDGE-x', 'ann.blind', 'x.checks'])(
    "refuses --grader %s, a name turnkit's own files use",
    async (grader) => {
      const dir = await newRun();
      const error = await MarkingSession.open({ dir, grader, who: 'ann' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnkitError);
      expect((error as TurnkitError).code).toBe('USAGE');
      expect((error as TurnkitError).message).toBe(
        `--grader ${grader}: that name belongs to the files turnkit's judges write; choose another`,
      );
      expect(existsSync(join(dir, `marks.${grader}.csv`))).toBe(false);
    },
  );

  it('accepts --grader ana (and names that only contain a reserved word)', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, grader: 'ana', who: 'ana' });
    expect(session.file).toBe(join(dir, 'marks.ana.csv'));
    await session.setMark(0, 'pass');
    expect((await readMarks(join(dir, 'marks.ana.csv')))['alpha/1']).toMatchObject({ mark: 'pass', grader: 'ana' });
    for (const grader of ['checker', 'judge', 'blinded']) {
      expect((await MarkingSession.open({ dir, grader, who: 'x' })).file).toBe(join(dir, `marks.${grader}.csv`));
    }
  });

  it('refuses a shard that holds no reps (shard 3 of 3 of 1 fixture x 1 rep) as BAD_INPUT, writing nothing', async () => {
    const dir = await makeMarkRun({
      dir: join(root, `run-${++count}`),
      fixtures: [{ name: 'alpha', reps: ['RESP-ALPHA-1 deck 2.'] }],
    });
    const manifestFile = join(dir, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, `${JSON.stringify({ ...manifest, shard: { index: 3, count: 3 } }, null, 2)}\n`);
    const error = await MarkingSession.open({ dir, who: 'ann' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).code).toBe('BAD_INPUT');
    expect((error as TurnkitError).message).toBe(
      `${relative(process.cwd(), dir)}: this run holds no reps to mark (a shard with fewer reps than shards)`,
    );
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
    // Shard 1 of 3 holds the one rep and opens.
    await writeFile(manifestFile, `${JSON.stringify({ ...manifest, shard: { index: 1, count: 3 } }, null, 2)}\n`);
    expect(order(await MarkingSession.open({ dir, who: 'ann' }))).toEqual(['alpha/1']);
  });
});

describe('MarkingSession: blind', () => {
  it('orders the reps by its seed: a permutation of the plan, the same for the same seed, another for another', async () => {
    const dir = await newRun();
    const seven = await MarkingSession.open({ dir, blind: true, seed: 7, who: 'ann' });
    const sevenAgain = await MarkingSession.open({ dir, blind: true, seed: 7, who: 'ann' });
    const eight = await MarkingSession.open({ dir, blind: true, seed: 8, who: 'ann' });
    expect([...order(seven)].sort()).toEqual([...PLAN].sort());
    expect(order(sevenAgain)).toEqual(order(seven));
    expect(order(eight)).not.toEqual(order(seven));
    expect(order(seven)).not.toEqual(PLAN);
    // mulberry32 + Fisher-Yates: the order is the same on every machine and every version, or recorded seeds mean nothing.
    expect(order(seven)).toEqual(['alpha/3', 'beta/1', 'alpha/2', 'beta/2', 'beta/3', 'alpha/1']);
    expect(seven.blind).toEqual({ seed: 7 });
    // Skipped flags travel with their reps.
    expect(
      seven.reps
        .filter((rep) => rep.skipped)
        .map((rep) => `${rep.fixture}/${rep.rep}`)
        .sort(),
    ).toEqual(['alpha/2', 'beta/3']);
    expect(seven.progress()).toEqual({ marked: 0, total: 4 });
  });

  it('records the seed beside its file and reuses it when reopened without one', async () => {
    const dir = await newRun();
    const first = await MarkingSession.open({ dir, blind: true, seed: 7 });
    expect(JSON.parse(await readFile(join(dir, 'marks.blind.seed.json'), 'utf8'))).toMatchObject({ seed: 7 });
    const reopened = await MarkingSession.open({ dir, blind: true });
    expect(reopened.blind).toEqual({ seed: 7 });
    expect(order(reopened)).toEqual(order(first));
  });

  it('a seed file that does not read is named at its line and column, not replaced by a new seed', async () => {
    const dir = await newRun();
    await MarkingSession.open({ dir, blind: true, seed: 7 });
    const file = join(dir, 'marks.blind.seed.json');
    const edited = (await readFile(file, 'utf8')).replace('"seed": 7,', '"seed": 7');
    await writeFile(file, edited);
    await expect(MarkingSession.open({ dir, blind: true })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: `${relative(process.cwd(), file)}:3:3: invalid JSON: comma expected`,
    });
    expect(await readFile(file, 'utf8')).toBe(edited);
  });

  it('a blind session without a seed picks one, records it and reopens in the same order', async () => {
    const dir = await newRun();
    const first = await MarkingSession.open({ dir, blind: true });
    const seed = first.blind!.seed;
    expect(Number.isInteger(seed)).toBe(true);
    expect(JSON.parse(await readFile(join(dir, 'marks.blind.seed.json'), 'utf8'))).toMatchObject({ seed });
    const reopened = await MarkingSession.open({ dir, blind: true });
    expect(reopened.blind).toEqual({ seed });
    expect(order(reopened)).toEqual(order(first));
  });

  it('writes marks.blind.csv and hides the marks of marks.csv', async () => {
    const dir = await newRun();
    const open = await MarkingSession.open({ dir, who: 'ann' });
    for (const index of [0, 1, 3, 4]) await open.setMark(index, 'pass', 'seen');
    const blind = await MarkingSession.open({ dir, blind: true, seed: 7, who: 'ann' });
    expect(blind.file).toBe(join(dir, 'marks.blind.csv'));
    expect(blind.historyFile).toBe(join(dir, 'marks.blind.history.jsonl'));
    for (const [index, rep] of blind.reps.entries()) {
      const mark = blind.markOf(index);
      expect(mark.mark).toBe(rep.fixture === 'alpha' && rep.rep === 2 ? 'error' : '');
      expect(mark.note).not.toBe('seen');
    }
    expect(blind.progress()).toEqual({ marked: 0, total: 4 });
    expect(blind.firstUnmarked()).toBe(0);
    // The first rep in blind order is alpha 3.
    await blind.setMark(0, 'fail', 'blind view');
    const blindMarks = await readMarks(join(dir, 'marks.blind.csv'));
    expect(blindMarks['alpha/3']).toMatchObject({
      mark: 'fail',
      note: 'blind view',
      grader: 'ann',
      rubricVersion: 'v3',
    });
    expect(blindMarks['alpha/1']).toMatchObject({ mark: '', note: '' });
    // The open marks are as they were.
    const openMarks = await readMarks(join(dir, 'marks.csv'));
    expect(openMarks['alpha/3']).toMatchObject({ mark: 'pass', note: 'seen' });
    // Reopened blind: its own marks, continuing after them.
    const again = await MarkingSession.open({ dir, blind: true, who: 'ann' });
    expect(again.markOf(0)).toMatchObject({ mark: 'fail', note: 'blind view' });
    expect(again.firstUnmarked()).toBe(1);
  });

  it('with --grader, a blind session writes marks.NAME.blind.csv and its own seed file', async () => {
    const dir = await newRun();
    const session = await MarkingSession.open({ dir, grader: 'bob', blind: true, seed: 8, who: 'bob' });
    expect(session.file).toBe(join(dir, 'marks.bob.blind.csv'));
    expect(JSON.parse(await readFile(join(dir, 'marks.bob.blind.seed.json'), 'utf8'))).toMatchObject({ seed: 8 });
    expect(existsSync(join(dir, 'marks.blind.seed.json'))).toBe(false);
  });
});
