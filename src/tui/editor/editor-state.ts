import type { Key } from 'ink';
import type { EditSession, EditableField, EditableRow } from '../../construct/edit-session.js';
import { isTurnkitError } from '../../errors.js';
import { parseJsonText } from '../../util/json-source.js';
import { backspace, bufferOf, deleteForward, deleteToLineStart, insert, moveHorizontal, moveToLineEdge, moveVertical, type TextBuffer } from '../text-buffer.js';

/** Which field of which row a text or inline editor is changing. */
export interface FieldRef {
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
  | { name: 'text'; turn: number; field: FieldRef; buffer: TextBuffer }
  | { name: 'inline'; turn: number; field: FieldRef; buffer: TextBuffer; error?: string }
  | { name: 'diff'; scroll: number; back: Mode }
  | { name: 'save'; focus: 'name' | 'why'; nameBuffer: TextBuffer; whyBuffer: TextBuffer; back: Mode; error?: string; confirmOverwrite?: boolean }
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
  if (key.ctrl && input === 'c' && mode.name !== 'quit') return session.isDirty() ? { ...next, mode: { name: 'quit', back: mode } } : { ...next, quit: true };
  switch (mode.name) {
    case 'turns': return onTurns(next, session, input, key, layout);
    case 'turn': return onTurn(next, mode, session, input, key);
    case 'text': return onText(next, mode, session, input, key, layout);
    case 'inline': return onInline(next, mode, session, input, key);
    case 'diff': return onDiff(next, mode, input, key);
    case 'save': return onSave(next, mode, input, key, layout);
    case 'quit': return input === 'y' ? { ...next, quit: true } : { ...next, mode: mode.back };
  }
}

function onTurns(state: EditorState, session: EditSession, input: string, key: Key, layout: Layout): EditorState {
  const count = session.turns().length;
  const page = Math.max(1, layout.height - 10);
  if (key.upArrow || input === 'k') return { ...state, turnIndex: Math.max(0, state.turnIndex - 1) };
  if (key.downArrow || input === 'j') return { ...state, turnIndex: Math.min(count - 1, state.turnIndex + 1) };
  if (key.pageUp) return { ...state, turnIndex: Math.max(0, state.turnIndex - page) };
  if (key.pageDown) return { ...state, turnIndex: Math.min(count - 1, state.turnIndex + page) };
  if (key.home) return { ...state, turnIndex: 0 };
  if (key.end) return { ...state, turnIndex: count - 1 };
  if (key.return || key.rightArrow) {
    const turn = session.turns()[state.turnIndex]?.turn;
    return turn === undefined ? state : { ...state, mode: { name: 'turn', turn }, fieldIndex: firstEditable(session, turn) };
  }
  return common(state, session, input, key);
}

function onTurn(state: EditorState, mode: Extract<Mode, { name: 'turn' }>, session: EditSession, input: string, key: Key): EditorState {
  const fields = fieldsOf(session.rowsOfTurn(mode.turn));
  const selected = fields[state.fieldIndex];
  if (key.upArrow || input === 'k') return { ...state, fieldIndex: Math.max(0, state.fieldIndex - 1) };
  if (key.downArrow || input === 'j') return { ...state, fieldIndex: Math.min(fields.length - 1, state.fieldIndex + 1) };
  if (key.escape || key.leftArrow) return { ...state, mode: { name: 'turns' } };
  if (!selected) return common(state, session, input, key);
  const ref: FieldRef = { table: selected.row.table, key: selected.row.key, column: selected.field.column, label: `${selected.row.label}.${selected.field.column}`, original: selected.field.value };
  if (key.return) {
    if (selected.field.locked) return { ...state, message: `${ref.label} is ${selected.field.locked}` };
    const refused = session.refusal(mode.turn);
    if (refused) return { ...state, message: refused };
    const value = selected.field.value;
    if (selected.field.kind === 'text') return { ...state, mode: { name: 'text', turn: mode.turn, field: ref, buffer: bufferOf(typeof value === 'string' ? value : '') } };
    return { ...state, mode: { name: 'inline', turn: mode.turn, field: ref, buffer: bufferOf(JSON.stringify(value) ?? 'null') } };
  }
  if (input === 'r') return attempt(state, () => session.revert(mode.turn, ref.table, ref.key, ref.column), `${ref.label} reverted`);
  if (input === 'n') {
    if (!selected.field.nullable) return { ...state, message: `${ref.label} is NOT NULL` };
    return attempt(state, () => session.setValue(mode.turn, ref.table, ref.key, ref.column, null), `${ref.label} set to null`);
  }
  return common(state, session, input, key);
}

function onText(state: EditorState, mode: Extract<Mode, { name: 'text' }>, session: EditSession, input: string, key: Key, layout: Layout): EditorState {
  if (key.ctrl && input === 's') {
    const value = mode.buffer.text === '' && mode.field.original === null ? null : mode.buffer.text;
    return attempt({ ...state, mode: { name: 'turn', turn: mode.turn } }, () => session.setValue(mode.turn, mode.field.table, mode.field.key, mode.field.column, value), `${mode.field.label} changed`);
  }
  if (key.escape) return { ...state, mode: { name: 'turn', turn: mode.turn }, message: 'edit cancelled' };
  const buffer = editBuffer(mode.buffer, input, key, layout.width - 2, true);
  return { ...state, mode: { ...mode, buffer } };
}

function onInline(state: EditorState, mode: Extract<Mode, { name: 'inline' }>, session: EditSession, input: string, key: Key): EditorState {
  if (key.return) {
    const parsed = parseInline(mode.buffer.text);
    if ('error' in parsed) return { ...state, mode: { ...mode, error: parsed.error } };
    const value = parsed.value;
    return attempt({ ...state, mode: { name: 'turn', turn: mode.turn } }, () => session.setValue(mode.turn, mode.field.table, mode.field.key, mode.field.column, value), `${mode.field.label} changed`);
  }
  if (key.escape) return { ...state, mode: { name: 'turn', turn: mode.turn }, message: 'edit cancelled' };
  const { error: _error, ...rest } = mode;
  return { ...state, mode: { ...rest, buffer: editBuffer(mode.buffer, input, key, Number.MAX_SAFE_INTEGER, false) } };
}

function onDiff(state: EditorState, mode: Extract<Mode, { name: 'diff' }>, input: string, key: Key): EditorState {
  if (key.upArrow || input === 'k') return { ...state, mode: { ...mode, scroll: Math.max(0, mode.scroll - 1) } };
  if (key.downArrow || input === 'j') return { ...state, mode: { ...mode, scroll: mode.scroll + 1 } };
  if (key.escape || input === 'd' || input === 'q') return { ...state, mode: mode.back };
  return state;
}

function onSave(state: EditorState, mode: Extract<Mode, { name: 'save' }>, input: string, key: Key, layout: Layout): EditorState {
  if (mode.confirmOverwrite) {
    if (input === 'y') return { ...state, saveRequest: { name: mode.nameBuffer.text.trim(), why: mode.whyBuffer.text, force: true } };
    const { confirmOverwrite: _confirm, error: _error, ...rest } = mode;
    return { ...state, mode: { ...rest, focus: 'name' } };
  }
  if (key.escape) return { ...state, mode: mode.back, message: 'not saved', draft: { name: mode.nameBuffer.text, why: mode.whyBuffer.text } };
  if (key.tab || key.upArrow || key.downArrow) return { ...state, mode: { ...mode, focus: mode.focus === 'name' ? 'why' : 'name' } };
  // Only Ctrl-S saves: an Enter inside pasted text must never write the file half-typed.
  if (key.ctrl && input === 's') return { ...state, saveRequest: { name: mode.nameBuffer.text.trim(), why: mode.whyBuffer.text, force: false } };
  if (key.return) return mode.focus === 'name' ? { ...state, mode: { ...mode, focus: 'why' } } : { ...state, message: 'Ctrl-S saves' };
  const field = mode.focus === 'name' ? 'nameBuffer' : 'whyBuffer';
  return { ...state, mode: { ...mode, [field]: editBuffer(mode[field], input, key, layout.width - 8, false) } };
}

// Keys that work on the turn list and the turn view alike.
function common(state: EditorState, session: EditSession, input: string, key: Key): EditorState {
  if (input === 'd') return { ...state, mode: { name: 'diff', scroll: 0, back: state.mode } };
  if (input === 's' || (key.ctrl && input === 's')) {
    if (session.changes().length === 0) return { ...state, message: 'nothing to save: change a field of one turn first' };
    const defaults = state.draft ?? session.defaults();
    return { ...state, mode: { name: 'save', focus: 'name', nameBuffer: bufferOf(defaults.name), whyBuffer: bufferOf(defaults.why), back: state.mode } };
  }
  if (input === 'q') return session.isDirty() ? { ...state, mode: { name: 'quit', back: state.mode } } : { ...state, quit: true };
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

function editBuffer(buffer: TextBuffer, input: string, key: Key, width: number, multiline: boolean): TextBuffer {
  // Most terminals send DEL for Backspace, which ink reports as "delete": both erase backwards; Ctrl-D forwards.
  if (key.backspace || key.delete) return backspace(buffer);
  if (key.ctrl && input === 'd') return deleteForward(buffer);
  if (key.leftArrow) return moveHorizontal(buffer, -1);
  if (key.rightArrow) return moveHorizontal(buffer, 1);
  if (key.upArrow) return multiline ? moveVertical(buffer, width, -1) : buffer;
  if (key.downArrow) return multiline ? moveVertical(buffer, width, 1) : buffer;
  if (key.home || (key.ctrl && input === 'a')) return moveToLineEdge(buffer, width, 'start');
  if (key.end || (key.ctrl && input === 'e')) return moveToLineEdge(buffer, width, 'end');
  if (key.ctrl && input === 'u') return deleteToLineStart(buffer);
  if (key.return) return multiline ? insert(buffer, '\n') : buffer;
  if (key.ctrl || key.meta || key.escape || key.tab || key.pageUp || key.pageDown || input === '') return buffer;
  return insert(buffer, multiline ? input : input.replace(/[\r\n]+/g, ' '));
}

function firstEditable(session: EditSession, turn: number): number {
  const index = fieldsOf(session.rowsOfTurn(turn)).findIndex((entry) => !entry.field.locked && entry.field.kind === 'text');
  return Math.max(0, index);
}
