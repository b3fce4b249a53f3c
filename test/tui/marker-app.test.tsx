import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { MarkerApp } from '../../src/tui/marker/marker-app.js';
import { demoLikeRun, makeMarkRun, readMarks, standardRun, tempFiles } from '../helpers/mark-run.js';
import { settled } from '../helpers/ink-settled.js';

const KEYS = { right: '\u001B[C', left: '\u001B[D', up: '\u001B[A', down: '\u001B[B', enter: '\r', escape: '\u001B', tab: '\t', pageDown: '\u001B[6~', pageUp: '\u001B[5~', backspace: '\u007F', ctrlC: '\u0003' };
const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a condition holds (a render or a file write landed); the deadline only bounds a hang. */
async function until<T>(probe: () => T | undefined | false | Promise<T | undefined | false>, what: string | (() => string)): Promise<T> {
  for (let i = 0; i < 800; i++) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await tick(25);
  }
  throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
}

let root: string;
let count = 0;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnkit-marker-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const newRun = (options: Parameters<typeof standardRun>[1] = {}): Promise<string> => makeMarkRun(standardRun(join(root, `run-${++count}`), options));

/** Renders the marker at 80x24 on a session and returns helpers that type like a person. */
async function openMarker(session: MarkingSession) {
  let result: { marked: number; total: number } | undefined;
  let done = 0;
  const app = render(
    <MarkerApp
      session={session}
      width={80}
      height={24}
      onDone={(value) => {
        result = value;
        done++;
      }}
    />,
  );
  await tick();
  const frame = (): string => app.lastFrame() ?? '';
  const header = (): string => frame().split('\n')[0] ?? '';
  const shows = (text: string): Promise<string> => until(() => (frame().includes(text) ? frame() : undefined), () => `the frame to show ${JSON.stringify(text)}; it shows:\n${frame()}`);
  /** Every mark on disk, and the screen no longer saying "saving". */
  const saved = async (): Promise<void> => {
    await session.flush();
    await until(() => !frame().includes(' · saving'), () => `the frame to stop saying saving; it shows:\n${frame()}`);
  };
  const press = async (...keys: string[]): Promise<void> => {
    for (const key of keys) {
      app.stdin.write(key);
      await tick();
      await settled(app);
    }
    await saved();
  };
  /** Presses a key and waits for the frame to show what it should. */
  const pressUntil = async (key: string, text: string): Promise<string> => {
    // A person's keys come one frame apart; keys faster than frames have a test of their own below.
    await tick();
    app.stdin.write(key);
    await shows(text);
    // The screen counts a mark at once; the file gets it in order just after. Tests read the file next.
    await saved();
    return frame();
  };
  return { app, session, frame, header, shows, press, pressUntil, saved, result: () => result, doneCalls: () => done };
}

const open = (dir: string, options: { grader?: string; blind?: boolean; seed?: number } = {}) => MarkingSession.open({ dir, who: 'ann', ...options });

describe('turnkit mark (ink)', () => {
  it('first frame: header with the rep, its position and progress, the response, the mark line and the keys, within 80x24', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.shows('RESP-ALPHA-1 deck 2, aft.');
    expect(marker.header()).toBe('places · rep 1 of 6 · alpha rep 1 · marked 0/4');
    const lines = marker.frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toContain('[1 response]');
    expect(marker.frame()).toContain('mark: (none)');
    expect(marker.frame()).toContain('p/f/n pass/fail/na');
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
    marker.app.unmount();
  });

  it('the key help fits 80 columns: the quit key is on screen', async () => {
    const marker = await openMarker(await open(await newRun()));
    await marker.shows('p/f/n pass/fail/na');
    const help = marker.frame().split('\n').at(-1)!;
    expect(help).toContain('q quit');
    expect(help).not.toContain('…');
    marker.app.unmount();
  });

  it('says there are no more reps at the last rep to mark, even when an errored rep comes after it', async () => {
    const marker = await openMarker(await open(await newRun()));
    await marker.pressUntil(KEYS.right, 'rep 2 of 6');
    await marker.pressUntil(KEYS.right, 'rep 4 of 6');
    await marker.pressUntil(KEYS.right, 'rep 5 of 6');
    // beta 3 (rep 6 of 6) was never run and is skipped: alpha 3 is the last rep to mark.
    await marker.press(KEYS.right);
    await marker.shows('no more reps that way');
    expect(marker.header()).toContain('rep 5 of 6');
    marker.app.unmount();
  });

  it('p, f and n save the mark at once and move on; the errored and not-run reps are stepped over', async () => {
    const dir = await newRun();
    const file = join(dir, 'marks.csv');
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('p', 'marked 1/4');
    expect((await readMarks(file))['alpha/1']).toMatchObject({ mark: 'pass', grader: 'ann', rubricVersion: 'v3' });
    expect(marker.header()).toBe('places · rep 2 of 6 · beta rep 1 · marked 1/4');
    expect(marker.frame()).toContain('RESP-BETA-1 deck 2.');

    await marker.pressUntil('f', 'marked 2/4');
    expect((await readMarks(file))['beta/1']).toMatchObject({ mark: 'fail' });
    // alpha 2 errored: the next rep shown is beta 2.
    expect(marker.header()).toBe('places · rep 4 of 6 · beta rep 2 · marked 2/4');

    await marker.pressUntil('n', 'marked 3/4');
    expect((await readMarks(file))['beta/2']).toMatchObject({ mark: 'na' });
    expect(marker.header()).toBe('places · rep 5 of 6 · alpha rep 3 · marked 3/4');

    await marker.pressUntil('p', 'marked 4/4');
    // beta 3 was never run: nothing after alpha 3 to mark, the marker stays and says all are marked.
    expect(marker.header()).toBe('places · rep 5 of 6 · alpha rep 3 · marked 4/4');
    expect(marker.frame()).toContain('all 4 reps marked; saved in marks.csv');
    const marks = await readMarks(file);
    expect(Object.fromEntries(Object.entries(marks).map(([id, row]) => [id, row.mark]))).toEqual({ 'alpha/1': 'pass', 'beta/1': 'fail', 'alpha/2': 'error', 'beta/2': 'na', 'alpha/3': 'pass', 'beta/3': '' });
    expect(await tempFiles(dir)).toEqual([]);
    marker.app.unmount();
  });

  it('← goes back and shows the mark given; → and h/l step too', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('p', 'marked 1/4');
    await marker.pressUntil(KEYS.left, 'rep 1 of 6');
    expect(marker.frame()).toContain('mark: pass');
    expect(marker.frame()).toContain('RESP-ALPHA-1');
    await marker.pressUntil(KEYS.right, 'rep 2 of 6');
    expect(marker.frame()).toContain('mark: (none)');
    await marker.pressUntil('l', 'rep 4 of 6');
    await marker.pressUntil('h', 'rep 2 of 6');
    await marker.pressUntil('h', 'rep 1 of 6');
    // Already at the first rep.
    await marker.pressUntil('h', 'no more reps that way');
    expect(marker.header()).toContain('rep 1 of 6');
    marker.app.unmount();
  });

  it('changing a mark on a rep gone back to rewrites it and keeps the earlier value in the history', async () => {
    const dir = await newRun();
    const session = await open(dir);
    const marker = await openMarker(session);
    await marker.pressUntil('p', 'marked 1/4');
    await marker.pressUntil(KEYS.left, 'rep 1 of 6');
    await marker.press('f');
    await until(async () => (await readMarks(join(dir, 'marks.csv')))['alpha/1']!.mark === 'fail', 'the changed mark');
    await marker.shows('rep 2 of 6');
    expect(marker.header()).toContain('marked 1/4');
    const history = (await readFile(session.historyFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(history.map((line) => [line.fixture, line.rep, line.from.mark, line.to.mark])).toEqual([['alpha', 1, '', 'pass'], ['alpha', 1, 'pass', 'fail']]);
    marker.app.unmount();
  });

  it('u unmarks a rep, and the file says so', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('p', 'marked 1/4');
    await marker.pressUntil(KEYS.left, 'mark: pass');
    await marker.pressUntil('u', 'saved in marks.csv');
    expect(marker.header()).toContain('marked 0/4');
    expect(marker.frame()).toContain('mark: (none)');
    expect((await readMarks(join(dir, 'marks.csv')))['alpha/1']).toMatchObject({ mark: '' });
    marker.app.unmount();
  });

  it('e, a note, Enter saves the note without moving; Esc cancels one; Backspace edits it', async () => {
    const dir = await newRun();
    const file = join(dir, 'marks.csv');
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('p', 'marked 1/4');
    await marker.pressUntil(KEYS.left, 'rep 1 of 6');
    await marker.pressUntil('e', 'note: █  (Enter save · Esc cancel)');
    await marker.press(...'aft is wrongX'.split(''), KEYS.backspace);
    await marker.shows('note: aft is wrong█');
    await marker.pressUntil(KEYS.enter, 'saved in marks.csv');
    expect(marker.header()).toContain('rep 1 of 6');
    expect(marker.frame()).toContain('mark: pass · note: aft is wrong');
    expect((await readMarks(file))['alpha/1']).toMatchObject({ mark: 'pass', note: 'aft is wrong' });

    // Esc leaves the note as it was, on screen and on disk.
    await marker.pressUntil('e', 'note: aft is wrong█');
    await marker.press(...' and more'.split(''));
    await marker.shows('note: aft is wrong and more█');
    await marker.press(KEYS.escape);
    await marker.shows('mark: pass · note: aft is wrong');
    expect(marker.frame()).not.toContain('and more');
    expect((await readMarks(file))['alpha/1']).toMatchObject({ mark: 'pass', note: 'aft is wrong' });

    // Keys typed into a note are text, not commands.
    await marker.press(KEYS.right);
    await marker.shows('rep 2 of 6');
    await marker.pressUntil('e', 'note: █');
    await marker.press('q', 'p');
    await marker.shows('note: qp█');
    await marker.pressUntil(KEYS.enter, 'saved in marks.csv');
    expect(marker.result()).toBeUndefined();
    expect(marker.header()).toContain('marked 1/4');
    // A note on an unmarked rep leaves it unmarked.
    expect((await readMarks(file))['beta/1']).toMatchObject({ mark: '', note: 'qp', grader: 'ann' });
    marker.app.unmount();
  });

  it('applies keys that come faster than the screen redraws, one after the other or in one chunk, each to the screen before it', async () => {
    const dir = await newRun();
    const file = join(dir, 'marks.csv');
    const marker = await openMarker(await open(dir));
    // Three keys written in the same instant: each must reach the rep its predecessor moved to.
    marker.app.stdin.write('p');
    marker.app.stdin.write('f');
    marker.app.stdin.write('n');
    await marker.shows('marked 3/4');
    await marker.saved();
    expect(marker.header()).toBe('places · rep 5 of 6 · alpha rep 3 · marked 3/4');

    // Back to beta 2, a note typed in a burst of single keys, and Enter in the same burst.
    marker.app.stdin.write(KEYS.left);
    await marker.shows('rep 4 of 6');
    await tick();
    for (const key of ['e', ...'no deck given', KEYS.backspace, 'N', KEYS.enter]) marker.app.stdin.write(key);
    await marker.shows('note: no deck giveN');
    await marker.saved();
    // Text in one read outside the note line is a paste: it marks nothing ("up" would unmark and pass beta 2).
    await tick();
    marker.app.stdin.write('up');
    await marker.shows('pasted text ignored: press e to write a note');
    expect(marker.header()).toBe('places · rep 4 of 6 · beta rep 2 · marked 3/4');
    expect((await readMarks(file))['beta/2']).toMatchObject({ mark: 'na', note: 'no deck giveN' });
    // In the note line, text with an Enter inside is the note, then Enter.
    await tick();
    marker.app.stdin.write('e');
    await marker.shows('note: no deck giveN█');
    marker.app.stdin.write(' twice\r');
    await marker.shows('note: no deck giveN twice · saved in marks.csv');
    expect(marker.frame()).toContain('mark: na · note: no deck giveN twice');
    await marker.saved();

    const marks = await readMarks(file);
    expect(Object.fromEntries(Object.entries(marks).map(([id, row]) => [id, [row.mark, row.note]]))).toEqual({
      'alpha/1': ['pass', ''],
      'beta/1': ['fail', ''],
      'alpha/2': ['error', 'sut: exit'],
      'beta/2': ['na', 'no deck giveN twice'],
      'alpha/3': ['', ''],
      'beta/3': ['', 'not run'],
    });
    marker.app.unmount();
  });

  it('keeps the count and "saving" in a header too long for the screen, cutting the fixture name instead', async () => {
    const long = 'meridian-turn-23-deck-fixed-with-a-much-longer-name-than-fits';
    const dir = await makeMarkRun({ dir: join(root, `run-${++count}`), rubricVersion: 'v3', fixtures: [{ name: long, reps: ['R1 deck 2.', 'R2 deck 2.'] }] });
    const session = await open(dir);
    const app = render(<MarkerApp session={session} width={60} height={20} onDone={() => {}} />);
    await tick();
    const header = (): string => (app.lastFrame() ?? '').split('\n')[0] ?? '';
    expect(header()).toHaveLength(60);
    expect(header().endsWith('· marked 0/2')).toBe(true);
    expect(header()).toBe('places · rep 1 of 2 · meridian-turn-23-deck-fi… · marked 0/2');
    expect(header()).toContain('…');
    app.stdin.write('p');
    await until(() => header().includes('marked 1/2'), () => header());
    // Counted at once; "saving" (or, once written, nothing) at the end, never cut.
    expect(header()).toMatch(/· marked 1\/2( · saving)?$/);
    await session.flush();
    await until(() => header().endsWith('· marked 1/2'), () => header());
    app.unmount();
  });

  it('Tab and 1/2/3 switch between the response, the case file and the rubric', async () => {
    const marker = await openMarker(await open(await newRun()));
    await marker.shows('RESP-ALPHA-1');
    await marker.pressUntil(KEYS.tab, 'CASE-ALPHA: the mess hall is on deck 2.');
    expect(marker.frame().split('\n')[1]).toContain('[2 case file]');
    expect(marker.frame()).not.toContain('RESP-ALPHA-1');
    await marker.pressUntil(KEYS.tab, 'PASS-RULE: the game master names deck 2');
    expect(marker.frame()).toContain('QUESTION-TEXT: where is the mess hall?');
    expect(marker.frame()).toContain('Rubric version v3');
    expect(marker.frame().split('\n')[1]).toContain('[3 rubric]');
    await marker.pressUntil(KEYS.tab, 'RESP-ALPHA-1');
    await marker.pressUntil('3', 'PASS-RULE');
    await marker.pressUntil('2', 'CASE-ALPHA');
    // The pane stays when the rep changes: the next rep's case file.
    await marker.pressUntil(KEYS.right, 'CASE-BETA');
    await marker.pressUntil('1', 'RESP-BETA-1');
    marker.app.unmount();
  });

  it('↓/j, space and PgDn/PgUp scroll a long response; the next rep starts at the top', async () => {
    const marker = await openMarker(await open(await newRun({ longAlpha1: true })));
    await marker.shows('(lines 1-20 of 61)');
    expect(marker.frame()).toContain('RESP-ALPHA-1 first line');
    expect(marker.frame()).not.toContain('LONGLINE-20');
    await marker.pressUntil(KEYS.down, '(lines 2-21 of 61)');
    expect(marker.frame()).not.toContain('RESP-ALPHA-1 first line');
    expect(marker.frame()).toContain('LONGLINE-20');
    await marker.pressUntil('j', '(lines 3-22 of 61)');
    await marker.pressUntil(KEYS.up, '(lines 2-21 of 61)');
    await marker.pressUntil('k', '(lines 1-20 of 61)');
    await marker.pressUntil('k', '(lines 1-20 of 61)');
    await marker.pressUntil(' ', '(lines 20-39 of 61)');
    await marker.pressUntil(KEYS.pageDown, '(lines 39-58 of 61)');
    await marker.pressUntil(KEYS.pageDown, '(lines 42-61 of 61)');
    expect(marker.frame()).toContain('LONGLINE-60');
    await marker.pressUntil(KEYS.down, '(lines 42-61 of 61)');
    await marker.pressUntil(KEYS.pageUp, '(lines 23-42 of 61)');
    await marker.pressUntil(KEYS.right, 'RESP-BETA-1');
    expect(marker.frame()).not.toContain('(lines');
    await marker.pressUntil(KEYS.left, '(lines 1-20 of 61)');
    marker.app.unmount();
  });

  it('errored reps are skipped until a shows them; p on one says why and writes nothing', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.pressUntil(KEYS.right, 'rep 2 of 6');
    await marker.pressUntil(KEYS.right, 'rep 4 of 6');
    await marker.pressUntil(KEYS.left, 'rep 2 of 6');
    await marker.pressUntil('a', 'errored reps shown');
    await marker.pressUntil(KEYS.right, 'rep 3 of 6');
    expect(marker.header()).toBe('places · rep 3 of 6 · alpha rep 2 · marked 0/4');
    expect(marker.frame()).toContain('ERROR (sut: exit): BOOM-ALPHA-2 exited with code 1');
    expect(marker.frame()).toContain('mark: error · note: sut: exit');
    await marker.pressUntil('p', 'this rep errored: it keeps its mark');
    await marker.press('e');
    expect(marker.frame()).not.toContain('Enter save');
    expect(marker.header()).toBe('places · rep 3 of 6 · alpha rep 2 · marked 0/4');
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);

    // The rep that was never run, shown as such.
    await marker.pressUntil(KEYS.right, 'rep 4 of 6');
    await marker.pressUntil(KEYS.right, 'rep 5 of 6');
    await marker.pressUntil(KEYS.right, 'rep 6 of 6');
    expect(marker.frame()).toContain('NOT RUN: this rep has no record');
    await marker.pressUntil('f', 'this rep was not run: it keeps its mark');
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);

    await marker.pressUntil('a', 'errored reps skipped');
    await marker.pressUntil(KEYS.left, 'rep 5 of 6');
    await marker.pressUntil(KEYS.left, 'rep 4 of 6');
    await marker.pressUntil(KEYS.left, 'rep 2 of 6');
    marker.app.unmount();
  });

  it('with errored reps shown, p moves on to the errored rep next', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('a', 'errored reps shown');
    await marker.pressUntil('p', 'marked 1/4');
    await marker.pressUntil('p', 'marked 2/4');
    expect(marker.header()).toBe('places · rep 3 of 6 · alpha rep 2 · marked 2/4');
    marker.app.unmount();
  });

  it('q calls onDone once with the progress, and a reopened marker continues at the first unmarked rep', async () => {
    const dir = await newRun();
    const first = await openMarker(await open(dir));
    await first.pressUntil('p', 'marked 1/4');
    await first.pressUntil('f', 'marked 2/4');
    await first.press('q');
    expect(await until(() => first.result(), 'the quit')).toEqual({ marked: 2, total: 4 });
    // Keys after quitting do nothing.
    await first.press('p', 'q');
    expect(first.doneCalls()).toBe(1);
    first.app.unmount();
    expect(Object.fromEntries(Object.entries(await readMarks(join(dir, 'marks.csv'))).map(([id, row]) => [id, row.mark]))).toMatchObject({ 'alpha/1': 'pass', 'beta/1': 'fail', 'beta/2': '' });

    const second = await openMarker(await open(dir));
    await second.shows('RESP-BETA-2 no idea.');
    expect(second.header()).toBe('places · rep 4 of 6 · beta rep 2 · marked 2/4');
    await second.pressUntil(KEYS.left, 'rep 2 of 6');
    expect(second.frame()).toContain('mark: fail');
    await second.press(KEYS.ctrlC);
    expect(await until(() => second.result(), 'the Ctrl-C quit')).toEqual({ marked: 2, total: 4 });
    second.app.unmount();
  });

  it('Ctrl-C while typing a note quits without saving the note', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir));
    await marker.pressUntil('e', 'note: █');
    await marker.press('x');
    await marker.shows('note: x█');
    await marker.press(KEYS.ctrlC);
    expect(await until(() => marker.result(), 'the quit')).toEqual({ marked: 0, total: 4 });
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
    marker.app.unmount();
  });

  it('--grader: marks go to marks.NAME.csv', async () => {
    const dir = await newRun();
    const marker = await openMarker(await open(dir, { grader: 'g' }));
    await marker.pressUntil('n', 'marked 1/4');
    expect((await readMarks(join(dir, 'marks.g.csv')))['alpha/1']).toMatchObject({ mark: 'na', grader: 'ann' });
    expect(existsSync(join(dir, 'marks.csv'))).toBe(false);
    marker.app.unmount();
  });

  it('blind: the shuffled order, no earlier marks shown, its own file, and a neutral label in the header', async () => {
    const dir = await newRun();
    const openSession = await open(dir);
    for (const index of [0, 1, 3, 4]) await openSession.setMark(index, 'pass', 'EARLIER-NOTE');
    const marker = await openMarker(await open(dir, { blind: true, seed: 7 }));
    // Seed 7 orders alpha 3, beta 1, alpha 2, beta 2, beta 3, alpha 1; alpha is case 1 (it comes first), beta case 2.
    await marker.shows('RESP-ALPHA-3 deck 5.');
    expect(marker.header()).toBe('places · case 1 · item 1 of 6 · marked 0/4 · blind');
    expect(marker.frame()).toContain('mark: (none)');
    await marker.pressUntil('f', 'marked 1/4');
    expect(marker.header()).toBe('places · case 2 · item 2 of 6 · marked 1/4 · blind');
    await marker.pressUntil(KEYS.right, 'item 4 of 6');
    await marker.pressUntil(KEYS.right, 'item 6 of 6');
    expect(marker.header()).toBe('places · case 1 · item 6 of 6 · marked 1/4 · blind');
    expect(marker.frame()).not.toContain('EARLIER-NOTE');
    expect(marker.frame()).not.toContain('mark: pass');
    expect((await readMarks(join(dir, 'marks.blind.csv')))['alpha/3']).toMatchObject({ mark: 'fail' });
    expect((await readMarks(join(dir, 'marks.csv')))['alpha/3']).toMatchObject({ mark: 'pass', note: 'EARLIER-NOTE' });
    marker.app.unmount();

    // Reopened without a seed: the recorded one, continuing at the first unmarked rep in blind order.
    const again = await openMarker(await open(dir, { blind: true }));
    await again.shows('RESP-BETA-1');
    expect(again.header()).toBe('places · case 2 · item 2 of 6 · marked 1/4 · blind');
    again.app.unmount();
  });

  it('blind: a base and its constructed fixture are one case, their case files labelled alike, names nowhere', async () => {
    const dir = await demoLikeRun(join(root, `run-${++count}`), 3);
    const session = await open(dir, { blind: true, seed: 11 });
    const marker = await openMarker(session);
    for (let item = 1; item <= 6; item++) {
      await marker.shows(`item ${item} of 6`);
      for (const pane of ['1', '2', '3']) {
        await marker.press(pane);
        const frame = marker.frame();
        expect(frame).not.toMatch(/meridian|deck-fixed|constructed\/|fixtures\/|\brep \d/);
        expect(frame).toContain('case 1 · item');
        if (pane === '2') expect(frame).toContain('# Case: case 1');
      }
      await marker.press(KEYS.right);
    }
    marker.app.unmount();
    // Beside the blind marks file: which rep each label stands for, so the label a note names can be looked up.
    const recorded = JSON.parse(await readFile(join(dir, 'marks.blind.seed.json'), 'utf8'));
    expect(recorded.seed).toBe(11);
    expect(recorded.labels).toHaveLength(6);
    expect(recorded.labels.map((entry: { label: string }) => entry.label)).toEqual(session.reps.map((rep) => rep.label));
    expect(new Set(recorded.labels.map((entry: { fixture: string; rep: number }) => `${entry.fixture}/${entry.rep}`)).size).toBe(6);
    expect(recorded.labels[0]).toEqual({ label: 'case 1 · item 1 of 6', case: 1, item: 1, fixture: session.reps[0]!.fixture, rep: session.reps[0]!.rep });
  });

  it("shows a response's control characters as visible escapes, never raw (OSC 52, a title, a colour)", async () => {
    const spec = standardRun(join(root, `run-${++count}`));
    spec.fixtures[0]!.reps[0] = 'RESP-HOSTILE \x1b]52;c;aGk=\x07 \x1b]0;owned\x07 \x1b[31mred\x1b[0m\r\nnext line';
    const marker = await openMarker(await open(await makeMarkRun(spec)));
    const frame = await marker.shows('RESP-HOSTILE');
    expect(frame).not.toMatch(/[\x07\x1b]/);
    expect(frame).toContain('\\u001b]52;c;aGk=\\u0007 \\u001b]0;owned\\u0007 \\u001b[31mred\\u001b[0m');
    // CRLF is one line break, not an escape at the end of the line.
    expect(frame.split('\n').some((line) => line.trim() === 'next line')).toBe(true);
    marker.app.unmount();
  });

  it('reflows a hard-wrapped rubric into paragraphs wrapped to the pane', async () => {
    const rubric = '# Rubric\n\nPass when the route agrees with the world facts: the mess hall is on deck 2, engineering\non deck 3, and getting there means changing decks.\n\n- **fail**: the response puts the mess hall on\n  deck 3.\n';
    const dir = await makeMarkRun({ ...standardRun(join(root, `run-${++count}`)), rubric });
    const marker = await openMarker(await open(dir));
    await marker.press('3');
    await marker.shows('Pass when the route');
    const lines = marker.frame().split('\n');
    // One paragraph wrapped at 79 columns: "engineering" is no longer the end of a line of its own.
    expect(lines).toContain('Pass when the route agrees with the world facts: the mess hall is on deck 2,');
    expect(lines).toContain('engineering on deck 3, and getting there means changing decks.');
    expect(lines).toContain('- **fail**: the response puts the mess hall on deck 3.');
    marker.app.unmount();
  });

  it('reflows a hard-wrapped case file into paragraphs wrapped to the pane, keeping its list and headings', async () => {
    const spec = standardRun(join(root, `run-${++count}`));
    spec.fixtures[0]!.caseFile =
      '# Case alpha\n\nCASE-ALPHA: the mess is on deck 2, beside the\nmedbay.\n\n## Facts\n\n- the lift runs\n  between decks 1 and 4\n- deck 3 is engineering\n';
    const marker = await openMarker(await open(await makeMarkRun(spec)));
    await marker.press('2');
    await marker.shows('CASE-ALPHA');
    const lines = marker.frame().split('\n');
    // The author's line break after "the" is gone: one paragraph, one list item per line, the headings as they were.
    expect(lines).toContain('CASE-ALPHA: the mess is on deck 2, beside the medbay.');
    expect(lines).toContain('## Facts');
    expect(lines).toContain('- the lift runs between decks 1 and 4');
    expect(lines).toContain('- deck 3 is engineering');
    marker.app.unmount();
  });
});
