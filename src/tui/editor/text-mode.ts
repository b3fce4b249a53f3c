import type { Key } from 'ink';
import { bufferOf, insert, backspace, type TextBuffer } from '../text-buffer.js';
import { EMPTY_HISTORY, record, redo, undo, type TextHistory } from '../text-history.js';
import { findMatch } from '../text-search.js';
import { editBuffer, type BufferLayout } from './edit-keys.js';

/** A search within the field being edited: the query, where the cursor was, and the match shown (its offset). */
interface FieldSearch {
  readonly query: TextBuffer;
  readonly origin: number;
  readonly match?: number | undefined;
}

/** The text being typed into a field, with its undo history and, while one is open, a search. */
export interface FieldText {
  readonly buffer: TextBuffer;
  readonly history: TextHistory;
  readonly search?: FieldSearch | undefined;
}

/** What a key did to a field's text: the new text, and a message to show (a search that found nothing, say). */
export interface FieldTextStep {
  text: FieldText;
  message?: string;
}

/** A field opened for editing: the cursor at the start, or at the first match of a search opened with it. */
export function openFieldText(value: string, history: TextHistory = EMPTY_HISTORY, query?: string): FieldText {
  const text: FieldText = { buffer: { text: value, cursor: 0 }, history };
  return query === undefined ? text : startSearch(text, query);
}

/** Opens the search line, offering the last query again (typing extends it, Ctrl-U clears it). */
function startSearch(text: FieldText, lastQuery = ''): FieldText {
  const origin = text.buffer.cursor;
  return withMatch({ ...text, search: { query: bufferOf(lastQuery), origin } }, origin);
}

/**
 * Applies a key to a field's text: Ctrl-Z undoes, Ctrl-Y redoes, Ctrl-F opens a search (and, open, finds the next
 * match), the rest edits. Ctrl-S and Esc are the caller's (they leave the field), except Esc closing a search.
 */
export function fieldTextKey(text: FieldText, input: string, key: Key, layout: BufferLayout): FieldTextStep {
  if (text.search) return searchKey(text, text.search, input, key);
  if (key.ctrl && input === 'f') return { text: startSearch(text) };
  if (key.ctrl && (input === 'z' || input === 'y')) {
    const step = input === 'z' ? undo(text.history, text.buffer) : redo(text.history, text.buffer);
    if (!step) return { text, message: input === 'z' ? 'nothing to undo' : 'nothing to redo' };
    return { text: { buffer: step.buffer, history: step.history } };
  }
  const buffer = editBuffer(text.buffer, input, key, layout);
  const typed = !key.ctrl && !key.meta && !key.return ? input : undefined;
  return { text: { buffer, history: record(text.history, text.buffer, buffer, typed) } };
}

/** The search line's keys: type the query, Enter goes to the match, Ctrl-F or ↓ the next, ↑ the previous, Esc back. */
function searchKey(text: FieldText, search: FieldSearch, input: string, key: Key): FieldTextStep {
  const { search: _closed, ...closed } = text;
  if (key.escape) return { text: { ...closed, buffer: { ...text.buffer, cursor: search.origin } } };
  if (key.return) {
    if (search.match === undefined && search.query.text !== '')
      return { text: closed, message: `not found: ${search.query.text}` };
    return { text: closed };
  }
  if ((key.ctrl && input === 'f') || key.downArrow || key.upArrow) {
    const direction = key.upArrow ? -1 : 1;
    const from = search.match === undefined ? search.origin : search.match + (direction > 0 ? 1 : 0);
    const match = findMatch(text.buffer.text, search.query.text, from, direction);
    return { text: moved(text, { ...search, match }), ...(match === undefined ? { message: 'no match' } : {}) };
  }
  let query = search.query;
  if (key.backspace || key.delete) query = backspace(query);
  else if (key.ctrl && input === 'u') query = bufferOf('');
  else if (!key.ctrl && !key.meta && !key.tab && input !== '') query = insert(query, input.replace(/[\r\n]+/g, ' '));
  else return { text };
  return { text: withMatch({ ...text, search: { ...search, query } }, search.origin) };
}

// The first match at or after where the search started; the cursor goes there as the query is typed.
function withMatch(text: FieldText, from: number): FieldText {
  const search = text.search!;
  return moved(text, { ...search, match: findMatch(text.buffer.text, search.query.text, from) });
}

function moved(text: FieldText, search: FieldSearch): FieldText {
  const cursor = search.match ?? search.origin;
  return { ...text, buffer: { ...text.buffer, cursor }, search };
}
