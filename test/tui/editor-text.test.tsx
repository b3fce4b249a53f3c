import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EditSession } from '../../src/fixture/constructed/edit-session.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { EditorApp, type EditorResult } from '../../src/tui/editor/editor-app.js';
import { LONG_NARRATION, MIDDLE_WORD, writeLongTurnFixture } from '../helpers/long-turn-fixture.js';
import { settled } from '../helpers/ink-settled.js';

const KEYS = {
  up: '\u001B[A', down: '\u001B[B', left: '\u001B[D', right: '\u001B[C', enter: '\r', escape: '\u001B', ctrlS: '\u0013', backspace: '\u007F',
  ctrlEnd: '\u001B[1;5F', ctrlHome: '\u001B[1;5H', ctrlLeft: '\u001B[1;5D', ctrlRight: '\u001B[1;5C', altLeft: '\u001B[1;3D', altRight: '\u001B[1;3C',
  altB: '\u001Bb', altF: '\u001Bf', altD: '\u001Bd', altBackspace: '\u001B\u007F', ctrlW: '\u0017', ctrlF: '\u0006', ctrlZ: '\u001A', ctrlY: '\u0019',
  pageDown: '\u001B[6~', pageUp: '\u001B[5~', ctrlU: '\u0015', delete: '\u001B[3~',
};
const tick = (ms = 30): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => T | undefined, what: () => string): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    await tick(25);
  }
  throw new Error(`timed out waiting for ${what()}`);
}

/** The editor at 80x24 on a fixture, opened at a turn, with helpers that type like a person. */
async function openEditor(file: string, outDir: string, turn: number) {
  const session = new EditSession(await loadFixture(file));
  let result: EditorResult | undefined;
  const app = render(<EditorApp session={session} outDir={outDir} width={80} height={24} openTurn={turn} onDone={(done) => (result = done)} />);
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
  const shows = (text: string): Promise<string> => until(() => (frame().includes(text) ? frame() : undefined), () => `${JSON.stringify(text)} in:\n${frame()}`);
  /** The narration as it would be applied now: the session's value after Ctrl-S, or the text being typed. */
  const narration = (): string => session.current.tables.turns!.rows.find((row) => row.id === '19')!.narration as string;
  return { app, session, press, frame, shows, narration, result: () => result };
}

/** The text being typed as the text area shows it, lines joined and runs of spaces made one (wrapping keeps none). */
function typed(editor: Awaited<ReturnType<typeof openEditor>>): string {
  const lines = editor.frame().split('\n');
  const start = lines.findIndex((line) => line.startsWith('editing '));
  const end = lines.findIndex((line) => line.startsWith('── diff'));
  return lines.slice(start + 1, end).filter((line) => !line.startsWith('find:')).join(' ').replace(/\s+/g, ' ').trim();
}

describe('the field editor edits text well (ink, 80x24)', () => {
  let project: string;
  let file: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'turnkit-editor-text-'));
    await mkdir(join(project, 'fixtures'));
    file = await writeLongTurnFixture(project);
  });
  afterEach(async () => {
    await rm(project, { recursive: true, force: true });
  });

  it('changes one word in the middle of a long narration in 10 keys with / and Alt-D, and undoes it after', async () => {
    expect(LONG_NARRATION.length).toBeGreaterThanOrEqual(600);
    const editor = await openEditor(file, project, 19);
    // Turn 19 opens on player_input; narration is next.
    await editor.press(KEYS.down);
    await editor.shows('▸  narration');
    const keys = ['/', 'b', 'l', 'u', KEYS.enter, KEYS.altD, 'r', 'e', 'd', KEYS.ctrlS];
    expect(keys.length).toBeLessThanOrEqual(10);
    await editor.press(...keys.slice(0, 4));
    await editor.shows('find: blu');
    await editor.shows('(match 1 of 1)');
    await editor.press(...keys.slice(4));
    await editor.shows('turns[id=19].narration changed');
    expect(editor.narration()).toBe(LONG_NARRATION.replace(` ${MIDDLE_WORD} `, ' red '));
    await editor.shows(`[-${MIDDLE_WORD}-]{+red+}`);
    // Opened again, the field keeps its history: Ctrl-Z takes back "red", then the deleted word.
    await editor.press(KEYS.enter, KEYS.ctrlZ);
    await editor.shows('editing turns[id=19].narration');
    await editor.press(KEYS.ctrlZ, KEYS.ctrlS);
    await editor.shows('turns[id=19].narration changed');
    expect(editor.narration()).toBe(LONG_NARRATION);
    expect(editor.session.changes()).toEqual([]);
    editor.app.unmount();
  });

  it('opens a text field with the cursor at the start, and moves by word, text edge and page', async () => {
    const editor = await openEditor(file, project, 19);
    await editor.press(KEYS.down, KEYS.enter);
    await editor.shows('editing turns[id=19].narration');
    // Typing at the cursor shows where it is: at the start, not the end.
    await editor.press('X');
    expect(typed(editor).startsWith('XYou step out')).toBe(true);
    await editor.press(KEYS.backspace, KEYS.ctrlRight, KEYS.ctrlRight, '_');
    expect(typed(editor).startsWith('You step_ out')).toBe(true);
    await editor.press(KEYS.backspace, KEYS.altRight, KEYS.altF, '_');
    expect(typed(editor).startsWith('You step out of_ engineering')).toBe(true);
    await editor.press(KEYS.backspace, KEYS.ctrlLeft, KEYS.altLeft, KEYS.altB, '_');
    expect(typed(editor).startsWith('You _step out of engineering')).toBe(true);
    await editor.press(KEYS.backspace, KEYS.ctrlEnd, '_');
    expect(typed(editor).endsWith('awake._')).toBe(true);
    await editor.press(KEYS.backspace, KEYS.ctrlHome, '_');
    expect(typed(editor).startsWith('_You')).toBe(true);
    // A page down moves by the text area's lines (11 at 24 rows): 611 characters are 9 lines at 79 columns, so the
    // first page down lands on the last line, and a page up back on the first.
    await editor.press(KEYS.backspace, KEYS.pageDown, '_');
    const afterPage = typed(editor);
    expect(afterPage.indexOf('_')).toBeGreaterThan(500);
    await editor.press(KEYS.backspace, KEYS.pageUp, '_');
    expect(typed(editor).indexOf('_')).toBeLessThan(79);
    editor.app.unmount();
  });

  it('erases forward with the Delete key in the middle of a word, and backwards with Backspace (DEL)', async () => {
    const editor = await openEditor(file, project, 19);
    await editor.press(KEYS.down, KEYS.enter, KEYS.right, KEYS.right);
    await editor.shows('editing turns[id=19].narration');
    // The cursor is between "Yo" and "u": Delete takes the "u" under it, Backspace the "o" before it.
    await editor.press(KEYS.delete);
    expect(typed(editor).startsWith('Yo step out')).toBe(true);
    await editor.press(KEYS.delete);
    expect(typed(editor).startsWith('Yostep out')).toBe(true);
    await editor.press(KEYS.backspace);
    expect(typed(editor).startsWith('Ystep out')).toBe(true);
    editor.app.unmount();
  });

  it('deletes a word back with Ctrl-W or Alt-Backspace, and redoes with Ctrl-Y what Ctrl-Z undid', async () => {
    const editor = await openEditor(file, project, 19);
    await editor.press(KEYS.down, KEYS.enter, KEYS.ctrlRight, KEYS.ctrlRight, KEYS.ctrlW);
    expect(typed(editor).startsWith('You out of')).toBe(true);
    await editor.press(KEYS.altBackspace);
    expect(typed(editor).startsWith('out of')).toBe(true);
    await editor.press(KEYS.ctrlZ);
    expect(typed(editor).startsWith('You out of')).toBe(true);
    await editor.press(KEYS.ctrlZ);
    expect(typed(editor).startsWith('You step out')).toBe(true);
    await editor.press(KEYS.ctrlZ);
    await editor.shows('nothing to undo');
    await editor.press(KEYS.ctrlY, KEYS.ctrlY);
    expect(typed(editor).startsWith('out of')).toBe(true);
    // Typed letters are undone a word at a time.
    await editor.press(...'deck two'.split(''), KEYS.ctrlZ);
    expect(typed(editor).startsWith('deck out of')).toBe(true);
    editor.app.unmount();
  });

  it('searches with Ctrl-F inside the field: next and previous match, Esc back where it was, "not found"', async () => {
    const editor = await openEditor(file, project, 19);
    await editor.press(KEYS.down, KEYS.enter, KEYS.ctrlF, ...'the'.split(''));
    const count = (LONG_NARRATION.toLowerCase().match(/the/g) ?? []).length;
    await editor.shows(`(match 1 of ${count})`);
    await editor.press(KEYS.ctrlF);
    await editor.shows(`(match 2 of ${count})`);
    await editor.press(KEYS.up, KEYS.up);
    await editor.shows(`(match ${count} of ${count})`);
    await editor.press(KEYS.escape);
    expect(editor.frame()).not.toContain('find:');
    await editor.press('_');
    expect(typed(editor).startsWith('_You')).toBe(true);
    await editor.press(KEYS.ctrlF, KEYS.ctrlU, 'z', 'q', KEYS.enter);
    await editor.shows('not found: zq');
    editor.app.unmount();
  });

  it('scrolls a long turn\'s fields with the selection: the selected field is on screen at every step', async () => {
    const editor = await openEditor(file, project, 19);
    const fields = editor.session.rowsOfTurn(19).flatMap((row) => row.fields.map((field) => `${row.label}.${field.column}`));
    expect(fields.length).toBeGreaterThan(30);
    // To the first field (the turn opens on its first text field), then down through every one.
    await editor.press(...fields.map(() => KEYS.up));
    for (let i = 1; i < fields.length; i++) {
      await editor.press(KEYS.down);
      const lines = editor.frame().split('\n');
      expect(lines.length).toBeLessThanOrEqual(24);
      const selected = lines.filter((line) => line.startsWith('▸'));
      expect(selected, `field ${i} (${fields[i]})`).toHaveLength(1);
      expect(selected[0]).toContain(fields[i]!.split('.').at(-1)!.slice(0, 17));
      // The key help stays on the bottom line.
      expect(lines.at(-1)).toContain('q quit');
    }
    editor.app.unmount();
  });

  it('keeps one screen line per field when a value is wide (CJK), so the selection stays on screen', async () => {
    const fixture = JSON.parse(await readFile(file, 'utf8'));
    fixture.tables.turns.rows.find((row: { id: string }) => row.id === '19').narration = '食堂は第二デッキにあります。'.repeat(10);
    await writeFile(file, JSON.stringify(fixture));
    const editor = await openEditor(file, project, 19);
    const fields = editor.session.rowsOfTurn(19).flatMap((row) => row.fields.map((field) => field.column));
    // Before, the narration's line wrapped in two and the list ran one line past its height.
    await editor.press(KEYS.down, KEYS.down);
    const lines = editor.frame().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    const divider = lines.findIndex((line) => line.startsWith('── # cannot change'));
    const selected = lines.findIndex((line) => line.startsWith('▸'));
    expect(selected).toBeGreaterThan(0);
    expect(selected).toBeLessThan(divider);
    expect(lines[selected]).toContain(fields[3 + 2]!);
    // The narration's line is one line, cut at the screen's edge; the preview below shows the selected field.
    expect(lines.filter((line) => line.includes('食堂'))).toHaveLength(1);
    expect(lines[divider + 1]).toBe('# location_id is a foreign key column (keys cannot change)');
    editor.app.unmount();
  });

  it('save dialog: an error clears once the name changes; Ctrl-S saves and returns to the editor, and saves again', async () => {
    const editor = await openEditor(file, project, 19);
    await editor.press(KEYS.down, KEYS.enter, 'X', KEYS.ctrlS, 's');
    await editor.shows('Save constructed fixture');
    // A name with a slash is refused; the error goes as soon as the name is changed.
    await editor.press(KEYS.ctrlU, ...'bad/name'.split(''), KEYS.enter, ...'why'.split(''), KEYS.ctrlS);
    await editor.shows('name "bad/name"');
    await editor.press(KEYS.up);
    expect(editor.frame()).toContain('name "bad/name"');
    await editor.press(KEYS.ctrlU);
    await until(() => (!editor.frame().includes('name "bad/name"') ? true : undefined), () => editor.frame());
    await editor.press(...'fixed-blue'.split(''), KEYS.ctrlS);
    await editor.shows('wrote ');
    expect(editor.frame().split('\n')[0]).toContain(' · saved ');
    expect(editor.frame()).toContain('▸* narration');
    // Another change, saved under the same name: replaced without asking, it is this session's own file.
    await editor.press(KEYS.enter, 'Y', KEYS.ctrlS);
    expect(editor.frame().split('\n')[0]).toContain(' · unsaved');
    await editor.press('s');
    await editor.shows('fixed-blue');
    await editor.press(KEYS.ctrlS);
    await until(() => (editor.frame().split('\n')[0]!.includes(' · saved ') ? true : undefined), () => editor.frame());
    expect(editor.frame()).not.toContain('overwrite');
    await editor.press('q');
    const result = await until(() => editor.result(), () => 'the quit');
    const target = join(project, 'fixed-blue.json');
    expect(result.written?.map((saved) => saved.file)).toEqual([target, target]);
    const written = await loadFixture(target);
    expect((written.fixture.tables.turns!.rows.find((row) => row.id === '19')!.narration as string).startsWith('YXYou')).toBe(true);
    editor.app.unmount();
  });
});

