import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import {
  hasTmux,
  killTmuxServer,
  requireTmux,
  startInTmux,
  tmux,
  TMUX_SOCKET,
  tmuxQuiet,
  waitForPane,
} from '../helpers/tmux.js';
import { DEMO_FIXTURES, demoLikeRun } from '../helpers/mark-run.js';
import { parseMarksText } from '../../src/run-dir/marks/read-marks.js';

/** Anything on a blind screen that tells which fixture or which rep: a name, a file, a rep number. */
const TELLS = /meridian|deck-fixed|fixtures\/|constructed\/|\brep \d|\brep-\d/;

const REPS = 4;

describe('turnkit mark --blind in a real terminal', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-blind-e2e-'));
    await demoLikeRun(join(project, 'runs', 'places', 'stamp'), REPS);
  });
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive the marker with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'makes a whole blind pass over a base and its constructed fix: no pane names a fixture or a rep (tmux, 80x24)',
    async () => {
      const session = `turnkit-blind-${process.pid}`;
      const total = DEMO_FIXTURES.length * REPS;
      const panes: string[] = [];
      const capture = (): string => {
        const pane =
          spawnSync('tmux', ['-L', TMUX_SOCKET, 'capture-pane', '-p', '-t', session], { encoding: 'utf8' }).stdout ??
          '';
        panes.push(pane);
        return pane;
      };
      const keys = (...args: string[]): void => {
        tmux(['send-keys', '-t', session, ...args]);
      };
      startInTmux(
        session,
        project,
        `${process.execPath} ${BIN} mark runs/places/stamp --blind --seed 5; echo "exit=$?"; sleep 30`,
      );
      try {
        for (let item = 1; item <= total; item++) {
          panes.push(await waitForPane(session, `item ${item} of ${total} · marked ${item - 1}/${total}`));
          // Every pane of every item: the response, the case file (which a grader needs) and the rubric.
          keys('2');
          panes.push(await waitForPane(session, '# Case: case 1'));
          keys('3');
          panes.push(await waitForPane(session, '[3 rubric]'));
          keys('1');
          await waitForPane(session, '[1 response]');
          const pane = capture();
          keys(pane.includes('deck 2') ? 'p' : 'f');
        }
        panes.push(await waitForPane(session, `all ${total} reps marked`));
        keys('q');
        panes.push(await waitForPane(session, 'exit=0'));
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      for (const pane of panes) expect(pane).not.toMatch(TELLS);
      // Base and fix are one case: the label never tells the arms apart.
      expect(panes.some((pane) => /case [2-9]/.test(pane))).toBe(false);
      expect(panes.at(-1)).toContain(`marks.blind.csv: ${total} of ${total} rep(s) marked (blind, seed 5)`);

      // The marks file names fixture and rep as every marks file does (the report joins it); the labels are beside it.
      const dir = join(project, 'runs', 'places', 'stamp');
      const marks = parseMarksText(await readFile(join(dir, 'marks.blind.csv'), 'utf8'), 'marks.blind.csv', {
        fixtures: [...DEMO_FIXTURES],
        reps: REPS,
      });
      expect(marks.size).toBe(total);
      const recorded = JSON.parse(await readFile(join(dir, 'marks.blind.seed.json'), 'utf8'));
      expect(recorded.labels.map((entry: { label: string }) => entry.label)).toEqual(
        Array.from({ length: total }, (_, i) => `case 1 · item ${i + 1} of ${total}`),
      );
      // A right answer names deck 2: the marks given by what the screen showed match what each rep answered.
      for (const entry of recorded.labels as { fixture: string; rep: number }[]) {
        const record = JSON.parse(await readFile(join(dir, 'reps', entry.fixture, `rep-0${entry.rep}.json`), 'utf8'));
        const row = [...marks.values()].find((mark) => mark.fixture === entry.fixture && mark.rep === entry.rep)!;
        expect(row.mark).toBe(record.response.includes('deck 2') ? 'pass' : 'fail');
      }
    },
    300_000,
  );
});
