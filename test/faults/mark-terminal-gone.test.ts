import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from '../helpers/cli.js';
import { hasTmux, requireTmux } from '../helpers/tmux.js';
import { makeMarkRun, readMarks, tempFiles } from '../helpers/mark-run.js';

/** Polls until `check` holds; the deadline only bounds a hang (a loaded machine). */
async function until(check: () => boolean | Promise<boolean>, what: string, deadlineMs = 45_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

describe('turnkit mark when its terminal goes away', () => {
  let project: string;
  // A tmux server of this test's own, killed at the end (and killing it is the fault).
  const server = `turnkit-eio-${process.pid}`;
  const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', server, ...args], { encoding: 'utf8' });

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-eio-'));
    await makeMarkRun({
      dir: join(project, 'runs', 'places', 'stamp'),
      fixtures: [
        { name: 'alpha', reps: ['A1 deck 2.', 'A2', 'A3'] },
        { name: 'beta', reps: ['B1', 'B2', 'B3'] },
      ],
    });
  });
  afterAll(async () => {
    spawnSync('tmux', ['-L', server, 'kill-server']);
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive the marker with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'exits 0 without a stack trace once the last mark is saved (tmux, SIGHUP ignored as under nohup)',
    async () => {
      // The shell and the marker ignore SIGHUP, so the marker lives on and meets the dead terminal as EIO.
      const inner = `trap '' HUP; ${process.execPath} ${BIN} mark runs/places/stamp --grader g 2> err.txt; echo $? > code.txt`;
      tmux('new-session', '-d', '-s', 'm', '-x', '80', '-y', '24', '-c', project, `sh -c ${JSON.stringify(inner)}`);
      await until(() => tmux('capture-pane', '-p', '-t', 'm').includes('marked 0/6'), 'the marker drew');
      tmux('send-keys', '-t', 'm', 'p');
      await until(() => {
        const pane = tmux('capture-pane', '-p', '-t', 'm');
        return pane.includes('marked 1/6') && !pane.includes('saving');
      }, 'the mark was saved');
      tmux('kill-server');
      await until(() => existsSync(join(project, 'code.txt')), 'the marker exited');

      const stderr = await readFile(join(project, 'err.txt'), 'utf8');
      expect(stderr).not.toMatch(/Error|Assertion|^\s+at /m);
      expect((await readFile(join(project, 'code.txt'), 'utf8')).trim()).toBe('0');
      const marks = await readMarks(join(project, 'runs/places/stamp/marks.g.csv'));
      expect(marks['alpha/1']).toMatchObject({ mark: 'pass' });
      expect(Object.values(marks).filter((row) => row.mark !== '')).toHaveLength(1);
      expect(await tempFiles(join(project, 'runs/places/stamp'))).toEqual([]);
    },
  );
});
