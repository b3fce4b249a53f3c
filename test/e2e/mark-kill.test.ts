import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { hasTmux, killTmuxServer, requireTmux, startInTmux, tmux, tmuxQuiet, waitForPane } from '../helpers/tmux.js';
import { MarkingSession } from '../../src/marking/marking-session.js';
import { makeMarkRun, readMarks } from '../helpers/mark-run.js';

/** Waits until a process is gone (after SIGKILL); the deadline only bounds a hang. */
async function waitGone(pid: number, deadlineMs = 90_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`process ${pid} is still there`);
}

/** Starts the marker in a tmux session of 80x24; `exec` makes the pane's process the marker itself, so its pid is the pane's. */
function startMarker(session: string, cwd: string, args: string, options: { exec: boolean }): number {
  const command = options.exec
    ? `exec ${process.execPath} ${BIN} mark ${args}`
    : `${process.execPath} ${BIN} mark ${args}; echo "exit=$?"; sleep 30`;
  startInTmux(session, cwd, command);
  return Number(tmux(['list-panes', '-t', session, '-F', '#{pane_pid}']).trim());
}

const keys = (session: string, ...args: string[]): void => {
  tmux(['send-keys', '-t', session, ...args]);
};

const RESPONSES = {
  alpha: ['A1 deck 2.', 'A2 deck 2.', 'A3 deck 4.'],
  beta: ['B1 deck 2.', 'B2 deck 3.', 'B3 deck 2.'],
};

describe('turnkit mark in a real terminal', () => {
  let project: string;
  let run: string;
  const makeRun = (stamp: string): Promise<string> =>
    makeMarkRun({
      dir: join(project, 'runs', 'places', stamp),
      rubricVersion: 'v3',
      fixtures: Object.entries(RESPONSES).map(([name, reps]) => ({ name, reps })),
    });

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-mark-e2e-'));
    // 2 fixtures x 3 reps, all complete: the plan is alpha 1, beta 1, alpha 2, beta 2, alpha 3, beta 3.
    run = await makeRun('stamp');
  });
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive the marker with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'keeps every mark given when the process is killed between marks, and a reopened marker continues after them (tmux, 80x24)',
    async () => {
      const session = `turnkit-mark-e2e-${process.pid}`;
      const file = join(run, 'marks.g.csv');
      try {
        const pid = startMarker(session, project, 'runs/places/stamp --grader g', { exec: true });
        // The pane's process is the marker itself (not a shell around it): that is what gets killed.
        expect(
          await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() =>
            execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }),
          ),
        ).toContain('bin.js');
        const first = await waitForPane(session, 'marked 0/6');
        expect(first).toContain('places · rep 1 of 6 · alpha rep 1 · marked 0/6');
        expect(first).toContain('A1 deck 2.');
        keys(session, 'p');
        await waitForPane(session, 'marked 1/6');
        keys(session, 'f');
        // The header counts a mark at once and says "saving" until it is on disk; a person reads it as saved after.
        const second = await waitForPane(session, 'marked 2/6', undefined, { without: 'saving' });
        expect(second).toContain('rep 3 of 6 · alpha rep 2');
        process.kill(pid, 'SIGKILL');
        await waitGone(pid);
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }

      // Both marks are on disk, in a file that parses, with their provenance; no temporary file is left behind.
      const marks = await readMarks(file);
      expect(Object.fromEntries(Object.entries(marks).map(([id, row]) => [id, row.mark]))).toEqual({
        'alpha/1': 'pass',
        'beta/1': 'fail',
        'alpha/2': '',
        'beta/2': '',
        'alpha/3': '',
        'beta/3': '',
      });
      expect(marks['alpha/1']!.grader).toBeTruthy();
      expect(marks['alpha/1']!.rubricVersion).toBe('v3');
      expect(marks['beta/1']!.markedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect((await readdir(run)).filter((name) => name.startsWith('.marks.g.csv.') || name.endsWith('.tmp'))).toEqual(
        [],
      );
      const history = (await readFile(join(run, 'marks.g.history.jsonl'), 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line));
      expect(history.map((line) => [line.fixture, line.rep, line.from.mark, line.to.mark])).toEqual([
        ['alpha', 1, '', 'pass'],
        ['beta', 1, '', 'fail'],
      ]);
      expect(existsSync(join(run, 'marks.csv'))).toBe(false);

      // Reopened: it continues at the first unmarked rep, and says so when it quits.
      const again = `${session}-again`;
      try {
        startMarker(again, project, 'runs/places/stamp --grader g', { exec: false });
        const pane = await waitForPane(again, 'marked 2/6');
        expect(pane).toContain('places · rep 3 of 6 · alpha rep 2 · marked 2/6');
        expect(pane).toContain('A2 deck 2.');
        keys(again, 'Left');
        const back = await waitForPane(again, 'rep 2 of 6');
        expect(back).toContain('mark: fail');
        keys(again, 'q');
        const done = await waitForPane(again, 'exit=0');
        expect(done).toContain('runs/places/stamp/marks.g.csv: 2 of 6 rep(s) marked');
      } finally {
        tmuxQuiet(['kill-session', '-t', again]);
      }
    },
    300_000,
  );

  it.runIf(hasTmux)(
    'a kill right after a key, whenever it lands, leaves the marks file whole and the earlier marks in it',
    async () => {
      const session = `turnkit-mark-e2e-race-${process.pid}`;
      const raceRun = await makeRun('race');
      const file = join(raceRun, 'marks.g.csv');
      const earlier = await MarkingSession.open({ dir: raceRun, grader: 'g', who: 'earlier' });
      await earlier.setMark(0, 'pass');
      await earlier.setMark(1, 'fail');
      try {
        const pid = startMarker(session, project, 'runs/places/race --grader g', { exec: true });
        await waitForPane(session, 'marked 2/6');
        // No waiting for the save: the kill may land before, during or after the write of this mark.
        keys(session, 'n');
        process.kill(pid, 'SIGKILL');
        await waitGone(pid);
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      const marks = await readMarks(file);
      expect(marks['alpha/1']!.mark).toBe('pass');
      expect(marks['beta/1']!.mark).toBe('fail');
      expect(['', 'na']).toContain(marks['alpha/2']!.mark);
      expect([marks['beta/2']!.mark, marks['alpha/3']!.mark, marks['beta/3']!.mark]).toEqual(['', '', '']);

      // Whatever the kill left (at most a stray temporary file), the marker opens on it again.
      const again = `${session}-again`;
      try {
        startMarker(again, project, 'runs/places/race --grader g', { exec: false });
        const pane = await waitForPane(again, marks['alpha/2']!.mark === 'na' ? 'marked 3/6' : 'marked 2/6');
        expect(pane).toContain(
          marks['alpha/2']!.mark === 'na' ? 'rep 4 of 6 · beta rep 2' : 'rep 3 of 6 · alpha rep 2',
        );
        keys(again, 'q');
        await waitForPane(again, 'exit=0');
      } finally {
        tmuxQuiet(['kill-session', '-t', again]);
      }
    },
    300_000,
  );

  it('without a terminal, exits 2 with one line and writes nothing', async () => {
    const before = (await readdir(run)).sort();
    const result = await runCli(['mark', 'runs/places/stamp'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'turnkit mark needs a terminal; or mark the reps in marks.csv with a spreadsheet or an editor\n',
    );
    expect((await readdir(run)).sort()).toEqual(before);
  });

  it('a --seed that is not a whole number is wrong usage', async () => {
    const result = await runCli(['mark', 'runs/places/stamp', '--blind', '--seed', 'seven'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('expected a whole number, got "seven"');
  });
});
