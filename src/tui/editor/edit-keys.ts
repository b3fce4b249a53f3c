import type { KeyPress } from '../key-events.js';
import {
  backspace,
  deleteForward,
  deleteToLineStart,
  insert,
  moveHorizontal,
  moveToLineEdge,
  moveVertical,
  type TextBuffer,
} from '../text-buffer.js';
import { deleteWord, moveToTextEdge, moveWord } from '../text-words.js';

/** How a buffer is laid out: the width it wraps to, the lines a page moves, and whether Enter is a new line. */
export interface BufferLayout {
  width: number;
  page: number;
  multiline: boolean;
}

/**
 * Applies one editing key to a buffer: characters, deletion (a character, a word, to the line start), and moves by
 * character, word, screen line, page, line edge and text edge. Keys it does not know leave the buffer as it is.
 */
export function editBuffer(buffer: TextBuffer, input: string, key: KeyPress, layout: BufferLayout): TextBuffer {
  const { width, multiline } = layout;
  // Alt-Backspace arrives as ESC DEL (ink: delete + meta); Ctrl-W is the shell's word rub-out.
  if ((key.meta && (key.backspace || key.delete)) || (key.ctrl && input === 'w')) return deleteWord(buffer, -1);
  if (key.meta && input === 'd') return deleteWord(buffer, 1);
  // The Delete key (ESC [ 3 ~) erases forward, as Ctrl-D does. Most terminals send DEL for Backspace, which ink also
  // reports as "delete": that erases backwards.
  if (key.forwardDelete) return deleteForward(buffer);
  if (key.backspace || key.delete) return backspace(buffer);
  if (key.ctrl && input === 'd') return deleteForward(buffer);
  // Word moves: Ctrl or Alt with an arrow (xterm), or Alt-B / Alt-F (readline, and macOS Option-arrows in many terminals).
  if ((key.leftArrow && (key.ctrl || key.meta)) || (key.meta && input === 'b')) return moveWord(buffer, -1);
  if ((key.rightArrow && (key.ctrl || key.meta)) || (key.meta && input === 'f')) return moveWord(buffer, 1);
  if (key.leftArrow) return moveHorizontal(buffer, -1);
  if (key.rightArrow) return moveHorizontal(buffer, 1);
  if ((key.home && (key.ctrl || key.meta)) || (key.meta && input === '<')) return moveToTextEdge(buffer, 'start');
  if ((key.end && (key.ctrl || key.meta)) || (key.meta && input === '>')) return moveToTextEdge(buffer, 'end');
  if (key.upArrow) return multiline ? moveVertical(buffer, width, -1) : buffer;
  if (key.downArrow) return multiline ? moveVertical(buffer, width, 1) : buffer;
  if (key.pageUp || key.pageDown) return multiline ? movePage(buffer, layout, key.pageUp ? -1 : 1) : buffer;
  if (key.home || (key.ctrl && input === 'a')) return moveToLineEdge(buffer, width, 'start');
  if (key.end || (key.ctrl && input === 'e')) return moveToLineEdge(buffer, width, 'end');
  if (key.ctrl && input === 'u') return deleteToLineStart(buffer);
  if (key.return) return multiline ? insert(buffer, '\n') : buffer;
  if (key.ctrl || key.meta || key.escape || key.tab || input === '') return buffer;
  return insert(buffer, multiline ? input : input.replace(/[\r\n]+/g, ' '));
}

/** Moves a page of screen lines up or down (to the start or end of the text past either end). */
function movePage(buffer: TextBuffer, layout: BufferLayout, direction: -1 | 1): TextBuffer {
  let moved = buffer;
  for (let i = 0; i < Math.max(1, layout.page); i++) {
    const next = moveVertical(moved, layout.width, direction);
    if (next.cursor === moved.cursor) break;
    moved = next;
  }
  return moved;
}
