import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EditSession } from '../../src/fixture/constructed/edit-session.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { EditorApp, type EditorResult } from '../../src/tui/editor/editor-app.js';
import { settled } from '../helpers/ink-settled.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BASE = join(REPO, 'fixtures/meridian-turn-23.json');
const EXAMPLE = join(REPO, 'constructed/meridian-turn-23-deck-fixed.json');

const KEYS = {
  up: '\u001B[A', down: '\u001B[B', left: '\u001B[D', right: '\u001B[C', enter: '\r', escape: '\u001B', ctrlS: '\u0013', end: '\u001B[F', backspace: '\u007F',
  ctrlEnd: '\u001B[1;5F', ctrlHome: '\u001B[1;5H', ctrlLeft: '\u001B[1;5D', ctrlRight: '\u001B[1;5C', altLeft: '\u001B[1;3D', altB: '\u001Bb', altF: '\u001Bf',
  altD: '\u001Bd', altBackspace: '\u001B\u007F', ctrlW: '\u0017', ctrlF: '\u0006', ctrlZ: '\u001A', ctrlY: '\u0019', pageDown: '\u001B[6~', pageUp: '\u001B[5~',
};
const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until a condition holds (a render or a file write landed); the deadline only bounds a hang. */
async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await tick(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Renders the editor at 80x24 and returns helpers that type like a person. */
async function openEditor(file: string, outDir: string) {
  const session = new EditSession(await loadFixture(file));
  let result: EditorResult | undefined;
  const app = render(<EditorApp session={session} outDir={outDir} width={80} height={24} onDone={(done) => (result = done)} />);
  await tick();
  await settled(app);
  const press = async (...keys: string[]): Promise<void> => {
    for (const key of keys) {
      app.stdin.write(key);
      await tick();
      await settled(app);
    }
  };
  const frame = (): string => app.lastFrame() ?? '';
  const shows = (text: string): Promise<string> => until(() => (frame().includes(text) ? frame() : undefined), JSON.stringify(text));
  return { app, session, press, frame, shows, result: () => result };
}

/** Moves the selection from the last kept turn (22) up to turn 19 and opens it. */
const openTurn19 = [KEYS.up, KEYS.up, KEYS.up, KEYS.enter];

describe('turnkit edit (ink)', () => {
  let out: string;
  beforeEach(async () => {
    out = await mkdtemp(join(tmpdir(), 'turnkit-editor-'));
  });
  afterEach(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('lists the turns with input and narration and fits 80x24 with its keys on screen', async () => {
    const editor = await openEditor(BASE, out);
    const lines = editor.frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(editor.frame()).toMatch(/▸ {3}22 {2}I check the drive readouts\./);
    await editor.shows('Enter open turn');
    await editor.shows('q quit');
    editor.app.unmount();
  });

  it('navigates to turn 19, edits the narration, shows the diff live and saves through construct', async () => {
    const editor = await openEditor(BASE, out);
    await editor.press(...openTurn19);
    await editor.shows('turns[id=19]');
    // The cursor starts on the first text field (player_input); narration is next.
    await editor.press(KEYS.down, KEYS.enter);
    await editor.shows('editing turns[id=19].narration');
    // The cursor starts at the start of the text; Ctrl-End goes to its end.
    await editor.press(KEYS.ctrlEnd, ...' Extra words.'.split(''), KEYS.ctrlS);
    await editor.shows('~ turns[id=19].narration');
    await editor.shows('{+ Extra words.+}');
    await editor.shows('turn 19 · 1 change(s) · unsaved');

    await editor.press('s');
    await editor.shows('Save constructed fixture');
    await editor.shows('meridian-turn-23-turn-19');
    // Enter moves from the name to the why; only Ctrl-S saves.
    await editor.press(KEYS.enter, ...'An extra sentence'.split(''), KEYS.enter);
    await editor.shows('Ctrl-S saves');
    expect(editor.result()).toBeUndefined();
    await editor.press(KEYS.ctrlS);
    const file = join(out, 'meridian-turn-23-turn-19.json');
    // Saved, the editor stays open on the turn with the file named; quitting now asks nothing.
    await editor.shows('wrote ');
    expect(editor.frame()).toMatch(/wrote \S*meridian-turn-23-turn-19\.json/);
    expect(editor.frame().split('\n')[0]).toContain(' · saved ');
    expect(editor.frame()).toContain('turns[id=19]');
    expect(editor.result()).toBeUndefined();
    await editor.press('q');
    expect((await until(() => editor.result(), 'the quit')).saved?.file).toBe(file);
    expect(editor.result()!.written!.map((saved) => saved.file)).toEqual([file]);
    const written = JSON.parse(await readFile(file, 'utf8'));
    expect(written).toMatchObject({ format: 'turnkit.constructed/1', name: 'meridian-turn-23-turn-19', why: 'An extra sentence', turn: 19 });
    const leaf = written.changeset[0].changes[0].changes[0].changes[0].changes[0];
    expect(leaf.key).toBe('narration');
    expect(leaf.value).toBe(`${leaf.oldValue} Extra words.`);
    // The written file materializes to the edited state.
    const loaded = await loadFixture(file);
    expect(loaded.fixture.tables.turns!.rows.find((row) => row.id === '19')!.narration).toBe(leaf.value);
  });

  it('refuses a second turn while one has changes, and refuses key columns', async () => {
    const editor = await openEditor(BASE, out);
    await editor.press(...openTurn19, KEYS.down, KEYS.enter, 'x', KEYS.ctrlS, KEYS.escape);
    await editor.press(KEYS.up, KEYS.enter, KEYS.down, KEYS.enter);
    await editor.shows('turn 19 already has changes');
    expect(editor.frame()).not.toContain('editing turns[id=18]');
    // The first field of a turn row is its primary key.
    for (let i = 0; i < 8; i++) await editor.press(KEYS.up);
    await editor.press(KEYS.enter);
    await editor.shows('turns[id=18].id is part of the primary key (keys cannot change)');
    editor.app.unmount();
  });

  it('asks before quitting with unsaved changes; n keeps editing, y quits without writing', async () => {
    const editor = await openEditor(BASE, out);
    await editor.press(...openTurn19, KEYS.down, KEYS.enter, 'x', KEYS.ctrlS, 'q');
    await editor.shows('Discard your unsaved edits and quit? (y/n)');
    await editor.press('n');
    await editor.shows('turns[id=19]');
    expect(editor.result()).toBeUndefined();
    await editor.press('q', 'y');
    expect(await until(() => editor.result(), 'the quit')).toEqual({});
    expect(existsSync(join(out, 'meridian-turn-23-turn-19.json'))).toBe(false);
  });

  it('quits at once when nothing changed', async () => {
    const editor = await openEditor(BASE, out);
    await editor.press('q');
    expect(await until(() => editor.result(), 'the quit')).toEqual({});
  });

  it('continues a constructed fixture\'s diff: a second edit of its turn records both against the original base', async () => {
    const editor = await openEditor(EXAMPLE, out);
    await editor.shows('turn 19 · 1 change(s)');
    await editor.shows('diff against meridian-turn-23 ');
    await editor.shows('{+ride+}');
    // The list opens on the constructed fixture's own turn; its first text field is player_input.
    await editor.press(KEYS.enter, KEYS.enter);
    await editor.press(KEYS.ctrlEnd, ...' Black.'.split(''), KEYS.ctrlS, 's');
    await editor.shows('meridian-turn-23-deck-fixed');
    await editor.press(KEYS.ctrlS);
    await editor.shows('wrote ');
    await editor.press('q');
    await until(() => editor.result(), 'the quit');
    const written = JSON.parse(await readFile(join(out, 'meridian-turn-23-deck-fixed.json'), 'utf8'));
    const example = JSON.parse(await readFile(EXAMPLE, 'utf8'));
    // Continued, not chained: the base is the example's own base, not the example.
    expect(written.base.path).toMatch(/(^|\/)fixtures\/meridian-turn-23\.json$/);
    expect(written.base.sha256).toBe(example.base.sha256);
    const columns = written.changeset[0].changes[0].changes[0].changes[0].changes.map((change: { key: string }) => change.key);
    expect(columns.sort()).toEqual(['narration', 'player_input']);
    expect(written.why).toContain('deck 3');
  });

  it('edits a JSON value inline and rejects text that is not JSON', async () => {
    const editor = await openEditor(BASE, out);
    await editor.press(...openTurn19);
    // Move to ship_minute (an integer) below narration and location_id.
    await editor.press(KEYS.down, KEYS.down, KEYS.down, KEYS.down, KEYS.enter);
    await editor.shows('editing turns[id=19].ship_minute (JSON)');
    await editor.press(KEYS.backspace, KEYS.backspace, 'x', KEYS.enter);
    await editor.shows('invalid JSON');
    await editor.press(KEYS.backspace, '7', KEYS.enter);
    expect(editor.session.changes().map((change) => [change.path, change.change.value])).toEqual([['turns[id=19].ship_minute', 7]]);
    editor.app.unmount();
  });
});
