import type { TextBuffer } from './text-buffer.js';

// A word is a run of letters, digits and underscores in any script; everything else separates words.
const WORD = /[\p{L}\p{N}_]/u;

/** Moves the cursor to the start of the previous word (left) or just past the end of the next word (right). */
export function moveWord(buffer: TextBuffer, direction: -1 | 1): TextBuffer {
  return { ...buffer, cursor: wordBoundary(buffer.text, buffer.cursor, direction) };
}

/** Deletes from the cursor to the start of the previous word (Ctrl-W, Alt-Backspace) or past the next one (Alt-D). */
export function deleteWord(buffer: TextBuffer, direction: -1 | 1): TextBuffer {
  const other = wordBoundary(buffer.text, buffer.cursor, direction);
  const from = Math.min(other, buffer.cursor);
  const to = Math.max(other, buffer.cursor);
  return { text: buffer.text.slice(0, from) + buffer.text.slice(to), cursor: from };
}

/** Moves the cursor to the start or the end of the whole text (Ctrl-Home, Ctrl-End). */
export function moveToTextEdge(buffer: TextBuffer, edge: 'start' | 'end'): TextBuffer {
  return { ...buffer, cursor: edge === 'start' ? 0 : buffer.text.length };
}

/** Where a word move from `cursor` lands: separators are skipped first, then the word. */
export function wordBoundary(text: string, cursor: number, direction: -1 | 1): number {
  let at = cursor;
  if (direction < 0) {
    while (at > 0 && !WORD.test(text[at - 1]!)) at--;
    while (at > 0 && WORD.test(text[at - 1]!)) at--;
  } else {
    while (at < text.length && !WORD.test(text[at]!)) at++;
    while (at < text.length && WORD.test(text[at]!)) at++;
  }
  return at;
}
