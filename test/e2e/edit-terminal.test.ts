import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, runCli } from '../helpers/cli.js';
import { hasTmux, killTmuxServer, requireTmux, startInTmux, tmux, tmuxQuiet, waitForPane } from '../helpers/tmux.js';
import { MIDDLE_WORD, writeLongTurnFixture } from '../helpers/long-turn-fixture.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('turnkit edit in a real terminal', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-edit-e2e-'));
    await mkdir(join(project, 'fixtures'));
    await copyFile(join(REPO, 'fixtures/meridian-turn-23.json'), join(project, 'fixtures/meridian-turn-23.json'));
  });
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('has tmux to drive the editor with (required on CI)', () => {
    expect(hasTmux || !requireTmux).toBe(true);
  });

  it.runIf(hasTmux)(
    'goes from a captured fixture to a saved constructed fixture with the keyboard alone (tmux, 80x24)',
    async () => {
      const session = `turnkit-e2e-${process.pid}`;
      const command = `${process.execPath} ${BIN} edit fixtures/meridian-turn-23.json; echo "exit=$?"; sleep 30`;
      startInTmux(session, project, command);
      const keys = (...args: string[]): void => {
        tmux(['send-keys', '-t', session, ...args]);
      };
      // One key at a time, each waiting for what it shows, as a person types: keys sent in one burst can reach the app
      // in one read, which a terminal app need not take apart the way a person's keystrokes arrive.
      const press = async (key: string, shows?: string): Promise<string | undefined> => {
        keys(key);
        if (shows !== undefined) return waitForPane(session, shows);
        await new Promise((resolve) => setTimeout(resolve, 150));
        return undefined;
      };
      try {
        await waitForPane(session, 'Enter open turn');
        await press('Up', '▸   21');
        await press('Up', '▸   20');
        await press('Up', '▸   19');
        await press('Enter', 'turns[id=19]');
        await press('Down', '▸  narration');
        await press('Enter', 'editing turns[id=19].narration');
        // The cursor starts at the start of the text.
        keys('-l', 'Corrected: the mess hall is on deck 2. ');
        await waitForPane(session, 'Corrected: the mess hall is on deck 2. You step out');
        // The diff is live: it shows the words before they are applied.
        await waitForPane(session, '{+Corrected');
        const diff = (await press('C-s', 'turn 19 · 1 change(s) · unsaved'))!;
        expect(diff).toContain('~ turns[id=19].narration');
        await press('s', 'Save constructed fixture');
        await press('Enter', '▸ why');
        keys('-l', 'A prefix that states the deck');
        await waitForPane(session, 'A prefix that states the deck');
        keys('C-s');
        // Saved, the editor stays open with the file named; q then quits without asking.
        const saved = await waitForPane(session, 'wrote constructed/meridian-turn-23-turn-19.json');
        expect(saved.split('\n')[0]).toContain('· saved as meridian-turn-23-turn-19 ·');
        keys('q');
        const done = await waitForPane(session, 'exit=0');
        expect(done).toContain('wrote constructed/meridian-turn-23-turn-19.json: turn 19, 1 change(s)');
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
      const written = JSON.parse(await readFile(join(project, 'constructed/meridian-turn-23-turn-19.json'), 'utf8'));
      expect(written.why).toBe('A prefix that states the deck');
      const shown = await runCli(['show', 'constructed/meridian-turn-23-turn-19.json'], { cwd: project });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('changed turns[id=19].narration');
    },
    300_000,
  );

  it('edits one turn as JSON in $EDITOR (--editor) and records the change', async () => {
    // The "editor" is a script that rewrites the narration and fills in why, as a person would in vim.
    const editor = join(project, 'fake-editor.mjs');
    await writeFile(
      editor,
      [
        "import { readFileSync, writeFileSync } from 'node:fs';",
        'const file = process.argv[2];',
        "const text = readFileSync(file, 'utf8');",
        'writeFileSync(file, text.replace(\'here on deck 3\', \'up on deck 2\').replace(\'"why": ""\', \'"why": "edited in an editor"\'));',
      ].join('\n'),
    );
    await chmod(editor, 0o755);
    const result = await runCli(
      ['edit', 'fixtures/meridian-turn-23.json', '--editor', '--turn', '19', '--out', 'by-editor'],
      {
        cwd: project,
        env: { VISUAL: `${process.execPath} ${editor}` },
      },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      'wrote by-editor/meridian-turn-23-turn-19.json: turn 19, 1 change(s)\n  turns[id=19].narration\n',
    );
    const written = JSON.parse(await readFile(join(project, 'by-editor/meridian-turn-23-turn-19.json'), 'utf8'));
    const leaf = written.changeset[0].changes[0].changes[0].changes[0].changes[0];
    expect(leaf.value).toContain('up on deck 2');
    expect(leaf.oldValue).toContain('here on deck 3');
  });

  it('aborts --editor with nothing written when the file is left unchanged', async () => {
    const result = await runCli(
      ['edit', 'fixtures/meridian-turn-23.json', '--editor', '--turn', '19', '--out', 'unchanged'],
      {
        cwd: project,
        env: { VISUAL: 'true' },
      },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('edit aborted: the file was not changed; nothing written\n');
    expect(existsSync(join(project, 'unchanged'))).toBe(false);
  });
});

describe('turnkit edit on a long turn in a real terminal', () => {
  let project: string;

  beforeAll(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-edit-long-e2e-'));
    await mkdir(join(project, 'fixtures'));
    await writeLongTurnFixture(project);
  });
  afterAll(async () => {
    killTmuxServer();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it.runIf(hasTmux)(
    'changes one word in the middle of a 600-character narration in 10 key presses, then undoes it (tmux, 80x24)',
    async () => {
      const session = `turnkit-e2e-long-${process.pid}`;
      startInTmux(
        session,
        project,
        `${process.execPath} ${BIN} edit fixtures/long-turn.json --turn 19 --out constructed; echo "exit=$?"; sleep 30`,
      );
      const pressed: string[] = [];
      /** One key as a person presses it, waiting for what it shows; each counts. */
      const press = async (key: string, shows?: string): Promise<string> => {
        pressed.push(key);
        tmux(['send-keys', '-t', session, key]);
        if (shows !== undefined) return waitForPane(session, shows);
        await new Promise((resolve) => setTimeout(resolve, 150));
        return '';
      };
      try {
        await waitForPane(session, '▸  player_input');
        tmux(['send-keys', '-t', session, 'Down']);
        await waitForPane(session, '▸  narration');
        // From the narration selected in the turn view: find "blu", go there, delete the word, type its replacement, apply.
        // Each key waits for what it shows, as a person's next key waits for their eyes: an Alt key and the letter after
        // it, arriving in one read on a loaded machine, would be one unknown sequence.
        await press('/', 'find:');
        await press('b', 'find: b');
        await press('l', 'find: bl');
        await press('u', '(match 1 of 1)');
        await press('Enter', 'Ctrl-F find ·');
        await press('M-d', 'the quiet  hatch');
        await press('r', 'the quiet r hatch');
        await press('e', 'the quiet re hatch');
        await press('d', 'the quiet red hatch');
        const applied = await press('C-s', 'turns[id=19].narration changed');
        expect(pressed.length).toBeLessThanOrEqual(10);
        expect(applied).toContain(`[-${MIDDLE_WORD}-]{+red+}`);
        // The screen stays whole: the header on the first line, the keys on the last.
        const lines = applied.replace(/\n+$/, '').split('\n');
        expect(lines[0]).toContain('turnkit edit · turn 19 · 1 change(s) · unsaved');
        expect(lines.at(-1)).toContain('q quit');
        // Undo, in the field opened again: "red" first, then the deleted word.
        tmux(['send-keys', '-t', session, 'Enter']);
        await waitForPane(session, 'editing turns[id=19].narration');
        tmux(['send-keys', '-t', session, 'C-z']);
        await waitForPane(session, 'the quiet  hatch');
        tmux(['send-keys', '-t', session, 'C-z']);
        await waitForPane(session, `the quiet ${MIDDLE_WORD} hatch`);
        tmux(['send-keys', '-t', session, 'C-s']);
        // Back to the fixture as captured: no change, nothing to save, and q quits without asking.
        const undone = await waitForPane(session, 'no turn edited · 0 change(s)');
        expect(undone).toContain('no changes yet');
        tmux(['send-keys', '-t', session, 'q']);
        await waitForPane(session, 'exit=0');
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
    },
    300_000,
  );

  it.runIf(hasTmux)(
    'erases forward with the Delete key in the middle of a word, backwards with Backspace (tmux, 80x24)',
    async () => {
      const session = `turnkit-e2e-delete-${process.pid}`;
      startInTmux(
        session,
        project,
        `${process.execPath} ${BIN} edit fixtures/long-turn.json --turn 19 --out constructed; echo "exit=$?"; sleep 30`,
      );
      const press = (key: string, shows: string): Promise<string> => {
        tmux(['send-keys', '-t', session, key]);
        return waitForPane(session, shows);
      };
      try {
        await waitForPane(session, '▸  player_input');
        await press('Down', '▸  narration');
        await press('Enter', 'editing turns[id=19].narration');
        // The cursor starts at the start: two steps right put it between "Yo" and "u".
        tmux(['send-keys', '-t', session, 'Right']);
        await new Promise((resolve) => setTimeout(resolve, 150));
        tmux(['send-keys', '-t', session, 'Right']);
        await new Promise((resolve) => setTimeout(resolve, 150));
        // tmux sends ESC [ 3 ~ for DC (the Delete key) and DEL for BSpace, as a terminal does.
        await press('DC', 'Yo step out of engineering');
        await press('DC', 'Yostep out of engineering');
        const erased = await press('BSpace', 'Ystep out of engineering');
        expect(erased).not.toContain('You step out');
        tmux(['send-keys', '-t', session, 'Escape']);
        tmux(['send-keys', '-t', session, 'q']);
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
    },
    300_000,
  );

  it.runIf(hasTmux)(
    'scrolls the fields of a turn taller than the screen with the selection (tmux, 80x24)',
    async () => {
      const session = `turnkit-e2e-scroll-${process.pid}`;
      startInTmux(
        session,
        project,
        `${process.execPath} ${BIN} edit fixtures/long-turn.json --turn 19; echo "exit=$?"; sleep 30`,
      );
      try {
        await waitForPane(session, '▸  player_input');
        const whole = (pane: string): string[] => {
          const lines = pane.replace(/\n+$/, '').split('\n');
          expect(lines).toHaveLength(24);
          expect(lines[0]).toContain('turnkit edit · no turn edited');
          expect(lines.at(-1)).toContain('q quit');
          return lines;
        };
        // Down, one field at a time, past the bottom of the screen: the selection stays in view.
        for (let i = 0; i < 12; i++) tmux(['send-keys', '-t', session, 'Down']);
        whole(await waitForPane(session, '▸  certainty'));
        // End: the last world fact's last column, far below; PgUp a page back; Home the first field.
        tmux(['send-keys', '-t', session, 'End']);
        expect(whole(await waitForPane(session, '▸  details')).some((line) => line === 'world_facts[id=7]')).toBe(true);
        tmux(['send-keys', '-t', session, 'PPage']);
        whole(await waitForPane(session, '▸', 45_000, { without: '▸  details' }));
        tmux(['send-keys', '-t', session, 'Home']);
        whole(await waitForPane(session, '▸# id'));
        tmux(['send-keys', '-t', session, 'q']);
        await waitForPane(session, 'exit=0');
      } finally {
        tmuxQuiet(['kill-session', '-t', session]);
      }
    },
    300_000,
  );
});
