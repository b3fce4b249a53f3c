import type { Key } from 'ink';
import type { EditSession, EditableField, EditableRow } from '../../fixture/constructed/edit-session.js';
import { isTurnkitError } from '../../errors.js';
import { parseJsonText } from '../../util/json/json-source.js';
import { bufferOf, type TextBuffer } from '../text-buffer.js';
import { EMPTY_HISTORY, type TextHistory } from '../text-history.js';
import { editBuffer } from './edit-keys.js';
import { fieldTextKey, openFieldText, type FieldText } from './text-mode.js';

/** Which field of which row a text or inline editor is changing. */
interface FieldRef {
  table: string;
  key: string;
  column: string;
  label: string;
  /** The value when the editor opened: an untouched NULL text field stays NULL rather than becoming "". */
  original: unknown;
}

/** What the editor shows and where input goes. */
export type Mode =
  | { name: 'turns' }
  | { name: 'turn'; turn: number }
  | ({ name: 'text'; turn: number; field: FieldRef } & FieldText)
  | ({ name: 'inline'; turn: number; field: FieldRef; error?: string } & FieldText)
  | { name: 'diff'; scroll: number; back: Mode }
  | {
      name: 'save';
      focus: 'name' | 'why';
      nameBuffer: TextBuffer;
      whyBuffer: TextBuffer;
      back: Mode;
      error?: string;
      confirmOverwrite?: boolean;
    }
  | { name: 'quit'; back: Mode };

/** The editor's whole state besides the session: mode, selections and a one-line message. */
export interface EditorState {
  mode: Mode;
  turnIndex: number;
  fieldIndex: number;
  message?: string;
  /** Set when the user asked to write the file; the app performs the write and reports back. */
  saveRequest?: { name: string; why: string; force: boolean };
  /** Set when the user confirmed quitting. */
  quit?: boolean;
  /** Name and why typed in a save dialog that was closed without saving, offered again next time. */
  draft?: { name: string; why: string };
  /** The last file saved, and the edited copy it holds: quitting with nothing changed since asks nothing. */
  saved?: { file: string; name: string; of: unknown };
  /** Each field's undo history as its editor left it, kept while the field still holds that text. */
  histories?: Readonly<Record<string, { text: string; history: TextHistory }>>;
  /** The last search, offered again when a search is opened. */
  lastQuery?: string;
}

/** Whether quitting would lose work: edits the file as opened lacks, and no save has written them since. */
export function hasUnsaved(state: EditorState, session: EditSession): boolean {
  return session.isDirty() && state.saved?.of !== session.current;
}

/** The first state: the given turn opened, else the turn list with the edited turn (or the last turn) selected. */
export function initialState(session: EditSession, openTurn?: number): EditorState {
  const turns = session.turns();
  const wanted = openTurn ?? session.editedTurn();
  const index = wanted !== undefined ? turns.findIndex((entry) => entry.turn === wanted) : turns.length - 1;
  const state: EditorState = { mode: { name: 'turns' }, turnIndex: Math.max(0, index), fieldIndex: 0 };
  if (openTurn === undefined || index < 0) return state;
  return { ...state, mode: { name: 'turn', turn: openTurn }, fieldIndex: firstEditable(session, openTurn) };
}

/** A field of a turn flattened for selection: row headers are not selectable, fields are. */
export function fieldsOf(rows: readonly EditableRow[]): { row: EditableRow; field: EditableField }[] {
  return rows.flatMap((row) => row.fields.map((field) => ({ row, field })));
}

/** Screen size the editor lays out for; the text editors wrap to `width`. */
export interface Layout {
  width: number;
  height: number;
}

/** Applies one key press; the session changes in place when a field is set. */
export function reduce(state: EditorState, session: EditSession, input: string, key: Key, layout: Layout): EditorState {
  // A message lives until the next key press.
  const { message: _shown, ...next } = state;
  const mode = state.mode;
  // Ctrl-C means quit wherever it is pressed; with unsaved changes the user confirms first.
  if (key.ctrl && input === 'c' && mode.name !== 'quit')
    return hasUnsaved(state, session) ? { ...next, mode: { name: 'quit', back: mode } } : { ...next, quit: true };
  switch (mode.name) {
    case 'turns':
      return onTurns(next, session, input, key, layout);
    case 'turn':
      return onTurn(next, mode, session, input, key, layout);
    case 'text':
      return onText(next, mode, session, input, key, layout);
    case 'inline':
      return onInline(next, mode, session, input, key);
    case 'diff':
      return onDiff(next, mode, input, key);
    case 'save':
      return onSave(next, mode, input, key, layout);
    case 'quit':
      return input === 'y' ? { ...next, quit: true } : { ...next, mode: mode.back };
  }
}

function onTurns(state: EditorState, session: EditSession, input: string, key: Key, layout: Layout): EditorState {
  const turnIndex = listMove(state.turnIndex, session.turns().length, layout.height - 10, input, key);
  if (turnIndex !== undefined) return { ...state, turnIndex };
  if (key.return || key.rightArrow) {
    const turn = session.turns()[state.turnIndex]?.turn;
    return turn === undefined
      ? state
      : { ...state, mode: { name: 'turn', turn }, fieldIndex: firstEditable(session, turn) };
  }
  return common(state, session, input, key);
}

function onTurn(
  state: EditorState,
  mode: Extract<Mode, { name: 'turn' }>,
  session: EditSession,
  input: string,
  key: Key,
  layout: Layout,
): EditorState {
  const fields = fieldsOf(session.rowsOfTurn(mode.turn));
  const selected = fields[state.fieldIndex];
  // A turn with many tied rows is taller than the screen: the list scrolls with the selection, a page or all the way.
  const fieldIndex = listMove(state.fieldIndex, fields.length, layout.height - 16, input, key);
  if (fieldIndex !== undefined) return { ...state, fieldIndex };
  if (key.escape || key.leftArrow) return { ...state, mode: { name: 'turns' } };
  if (!selected) return common(state, session, input, key);
  const ref: FieldRef = {
    table: selected.row.table,
    key: selected.row.key,
    column: selected.field.column,
    label: `${selected.row.label}.${selected.field.column}`,
    original: selected.field.value,
  };
  // `/` opens a text field with its search line open: the quickest way to one word of a long narration.
  if (key.return || (input === '/' && selected.field.kind === 'text')) {
    if (selected.field.locked) return { ...state, message: `${ref.label} is ${selected.field.locked}` };
    const refused = session.refusal(mode.turn);
    if (refused) return { ...state, message: refused };
    const value = selected.field.value;
    const kept = state.histories?.[fieldId(ref)];
    if (selected.field.kind === 'text') {
      const text = typeof value === 'string' ? value : '';
      const history = kept?.text === text ? kept.history : EMPTY_HISTORY;
      return {
        ...state,
        mode: {
          name: 'text',
          turn: mode.turn,
          field: ref,
          ...openFieldText(text, history, input === '/' ? (state.lastQuery ?? '') : undefined),
        },
      };
    }
    // A JSON value is short: the cursor at its end, where a number or a closing quote is changed.
    const json = JSON.stringify(value) ?? 'null';
    return {
      ...state,
      mode: {
        name: 'inline',
        turn: mode.turn,
        field: ref,
        buffer: bufferOf(json),
        history: kept?.text === json ? kept.history : EMPTY_HISTORY,
      },
    };
  }
  if (input === 'r')
    return attempt(state, () => session.revert(mode.turn, ref.table, ref.key, ref.column), `${ref.label} reverted`);
  if (input === 'n') {
    if (!selected.field.nullable) return { ...state, message: `${ref.label} is NOT NULL` };
    return attempt(
      state,
      () => session.setValue(mode.turn, ref.table, ref.key, ref.column, null),
      `${ref.label} set to null`,
    );
  }
  return common(state, session, input, key);
}

/** The lines of the text editor's area at this screen size (the app lays it out the same way). */
export function textAreaHeight(layout: Layout): number {
  return Math.max(1, layout.height - TEXT_CHROME);
}

/** Screen lines around the text area: header, field label, search line, diff title and pane, message, keys. */
const TEXT_CHROME = 13;

/** The width text wraps to in the field editor: one column is kept for the cursor after the last character. */
function textWrapWidth(layout: Layout): number {
  return Math.max(1, layout.width - 1);
}

function onText(
  state: EditorState,
  mode: Extract<Mode, { name: 'text' }>,
  session: EditSession,
  input: string,
  key: Key,
  layout: Layout,
): EditorState {
  if (!mode.search && key.ctrl && input === 's') {
    const value = mode.buffer.text === '' && mode.field.original === null ? null : mode.buffer.text;
    return apply(state, mode, session, value);
  }
  if (!mode.search && key.escape)
    return { ...state, mode: { name: 'turn', turn: mode.turn }, message: 'edit cancelled' };
  const step = fieldTextKey(mode, input, key, {
    width: textWrapWidth(layout),
    page: Math.max(1, textAreaHeight(layout) - 1),
    multiline: true,
  });
  const query = mode.search && !step.text.search ? mode.search.query.text : undefined;
  return {
    ...state,
    ...(query ? { lastQuery: query } : {}),
    mode: { ...mode, ...step.text, search: step.text.search },
    ...(step.message ? { message: step.message } : {}),
  };
}

function onInline(
  state: EditorState,
  mode: Extract<Mode, { name: 'inline' }>,
  session: EditSession,
  input: string,
  key: Key,
): EditorState {
  if (key.return && !mode.search) {
    const parsed = parseInline(mode.buffer.text);
    if ('error' in parsed) return { ...state, mode: { ...mode, error: parsed.error } };
    return apply(state, mode, session, parsed.value);
  }
  if (key.escape && !mode.search)
    return { ...state, mode: { name: 'turn', turn: mode.turn }, message: 'edit cancelled' };
  const step = fieldTextKey(mode, input, key, { width: Number.MAX_SAFE_INTEGER, page: 1, multiline: false });
  // The error said what was wrong with the value; once the value changes it no longer applies.
  const { error, ...rest } = mode;
  const kept = step.text.buffer.text === mode.buffer.text && error !== undefined ? { error } : {};
  return {
    ...state,
    mode: { ...rest, ...kept, ...step.text, search: step.text.search },
    ...(step.message ? { message: step.message } : {}),
  };
}

// Sets the field and goes back to the turn; its undo history is kept for when the field is opened again.
function apply(
  state: EditorState,
  mode: Extract<Mode, { name: 'text' | 'inline' }>,
  session: EditSession,
  value: unknown,
): EditorState {
  const histories = { ...state.histories, [fieldId(mode.field)]: { text: mode.buffer.text, history: mode.history } };
  return attempt(
    { ...state, histories, mode: { name: 'turn', turn: mode.turn } },
    () => session.setValue(mode.turn, mode.field.table, mode.field.key, mode.field.column, value),
    `${mode.field.label} changed`,
  );
}

function fieldId(field: Pick<FieldRef, 'table' | 'key' | 'column'>): string {
  return `${field.table}\u0000${field.key}\u0000${field.column}`;
}

function onDiff(state: EditorState, mode: Extract<Mode, { name: 'diff' }>, input: string, key: Key): EditorState {
  if (key.upArrow || input === 'k') return { ...state, mode: { ...mode, scroll: Math.max(0, mode.scroll - 1) } };
  if (key.downArrow || input === 'j') return { ...state, mode: { ...mode, scroll: mode.scroll + 1 } };
  if (key.escape || input === 'd' || input === 'q') return { ...state, mode: mode.back };
  return state;
}

function onSave(
  state: EditorState,
  mode: Extract<Mode, { name: 'save' }>,
  input: string,
  key: Key,
  layout: Layout,
): EditorState {
  if (mode.confirmOverwrite) {
    if (input === 'y')
      return { ...state, saveRequest: { name: mode.nameBuffer.text.trim(), why: mode.whyBuffer.text, force: true } };
    const { confirmOverwrite: _confirm, error: _error, ...rest } = mode;
    return { ...state, mode: { ...rest, focus: 'name' } };
  }
  if (key.escape)
    return {
      ...state,
      mode: mode.back,
      message: 'not saved',
      draft: { name: mode.nameBuffer.text, why: mode.whyBuffer.text },
    };
  if (key.tab || key.upArrow || key.downArrow)
    return { ...state, mode: { ...mode, focus: mode.focus === 'name' ? 'why' : 'name' } };
  // Only Ctrl-S saves: an Enter inside pasted text must never write the file half-typed. Saving again under the
  // name this session last wrote replaces that file without asking: it is the same fixture, further along.
  if (key.ctrl && input === 's') {
    const name = mode.nameBuffer.text.trim();
    return { ...state, saveRequest: { name, why: mode.whyBuffer.text, force: state.saved?.name === name } };
  }
  if (key.return)
    return mode.focus === 'name'
      ? { ...state, mode: { ...mode, focus: 'why' } }
      : { ...state, message: 'Ctrl-S saves' };
  const field = mode.focus === 'name' ? 'nameBuffer' : 'whyBuffer';
  const buffer = editBuffer(mode[field], input, key, { width: layout.width - 8, page: 1, multiline: false });
  // An error is about what was typed: once the text changes it may no longer hold, so it goes.
  const { error: _error, ...rest } = mode;
  return { ...state, mode: { ...(buffer.text === mode[field].text ? mode : rest), [field]: buffer } };
}

// A list's moves: ↑↓ (k j) a row, PgUp/PgDn a page, Home/End to either end; undefined for any other key.
function listMove(index: number, count: number, page: number, input: string, key: Key): number | undefined {
  const last = Math.max(0, count - 1);
  const by = key.upArrow || input === 'k' ? -1 : key.downArrow || input === 'j' ? 1 : 0;
  if (by !== 0) return Math.max(0, Math.min(last, index + by));
  if (key.pageUp || key.pageDown) return Math.max(0, Math.min(last, index + (key.pageUp ? -1 : 1) * Math.max(1, page)));
  if (key.home || key.end) return key.home ? 0 : last;
  return undefined;
}

// Keys that work on the turn list and the turn view alike.
function common(state: EditorState, session: EditSession, input: string, key: Key): EditorState {
  if (input === 'd') return { ...state, mode: { name: 'diff', scroll: 0, back: state.mode } };
  if (input === 's' || (key.ctrl && input === 's')) {
    if (session.changes().length === 0)
      return { ...state, message: 'nothing to save: change a field of one turn first' };
    const defaults = state.draft ?? session.defaults();
    return {
      ...state,
      mode: {
        name: 'save',
        focus: 'name',
        nameBuffer: bufferOf(defaults.name),
        whyBuffer: bufferOf(defaults.why),
        back: state.mode,
      },
    };
  }
  if (input === 'q')
    return hasUnsaved(state, session)
      ? { ...state, mode: { name: 'quit', back: state.mode } }
      : { ...state, quit: true };
  return state;
}

/** A typed JSON value, or the syntax error as "line 1, column 21: ..." (the field has no file name). */
export function parseInline(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseJsonText(text, 'value') };
  } catch (error) {
    if (!isTurnkitError(error)) throw error;
    return { error: error.message.replace(/^value:(\d+):(\d+): /, 'line $1, column $2: ') };
  }
}

function attempt(state: EditorState, action: () => void, success: string): EditorState {
  try {
    action();
    return { ...state, message: success };
  } catch (error) {
    if (!isTurnkitError(error)) throw error;
    return { ...state, message: error.message };
  }
}

function firstEditable(session: EditSession, turn: number): number {
  const index = fieldsOf(session.rowsOfTurn(turn)).findIndex(
    (entry) => !entry.field.locked && entry.field.kind === 'text',
  );
  return Math.max(0, index);
}
