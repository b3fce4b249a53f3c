import type { TextBuffer } from './text-buffer.js';

/** A field's undo and redo stacks, and what kind of edit the last one was (typing is undone a word at a time). */
export interface TextHistory {
  readonly past: readonly TextBuffer[];
  readonly future: readonly TextBuffer[];
  readonly last?: 'type' | 'other' | undefined;
}

/** No edits yet. */
export const EMPTY_HISTORY: TextHistory = { past: [], future: [] };

// Enough to undo a long session of typing; older steps go, so a pasted essay cannot grow the stack without bound.
const LIMIT = 500;

/**
 * Records the step from `before` to `after`. Letters typed one after another are one step, so undo takes back a
 * word, not a letter (however the terminal grouped them into reads); a space, a deletion or a cursor move ends the step. Redo is lost once the text changes.
 */
export function record(history: TextHistory, before: TextBuffer, after: TextBuffer, typed?: string): TextHistory {
  if (after.text === before.text) return history.last === undefined ? history : { ...history, last: undefined };
  // Letters that arrive in one read (typed faster than the screen reads them) are typing all the same; a paste with
  // spaces in it is a step of its own.
  const kind = typed !== undefined && typed !== '' && !/\s/.test(typed) ? 'type' : 'other';
  if (kind === 'type' && history.last === 'type') return { ...history, future: [] };
  return { past: [...history.past, before].slice(-LIMIT), future: [], last: kind };
}

/** An undo or redo: the buffer it gives back and the history after it. */
export interface HistoryStep {
  buffer: TextBuffer;
  history: TextHistory;
}

/** Takes back the last step: the buffer before it, or undefined when there is nothing to undo. */
export function undo(history: TextHistory, current: TextBuffer): HistoryStep | undefined {
  const buffer = history.past.at(-1);
  if (!buffer) return undefined;
  return { buffer, history: { past: history.past.slice(0, -1), future: [...history.future, current] } };
}

/** Puts back the last step undone, or undefined when there is none. */
export function redo(history: TextHistory, current: TextBuffer): HistoryStep | undefined {
  const step = undo({ past: history.future, future: history.past }, current);
  return step && { buffer: step.buffer, history: { past: step.history.future, future: step.history.past } };
}
