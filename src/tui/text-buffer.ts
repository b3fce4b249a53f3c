/** Text being edited and the cursor in it (an offset in UTF-16 units); operations return a new buffer. */
export interface TextBuffer {
  readonly text: string;
  readonly cursor: number;
}

/** One screen line of a soft-wrapped buffer: where it starts in the text and what it shows. */
export interface VisualLine {
  start: number;
  text: string;
}

/** A buffer with the cursor at the end. */
export function bufferOf(text: string): TextBuffer {
  return { text, cursor: text.length };
}

/** Inserts text (typed or pasted) at the cursor. */
export function insert(buffer: TextBuffer, text: string): TextBuffer {
  // Terminals send Enter inside a paste as "\r"; the text keeps "\n".
  const clean = text.replace(/\r\n?/g, '\n');
  return {
    text: buffer.text.slice(0, buffer.cursor) + clean + buffer.text.slice(buffer.cursor),
    cursor: buffer.cursor + clean.length,
  };
}

/** Deletes the character before the cursor. */
export function backspace(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor === 0) return buffer;
  const from = previousBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, from) + buffer.text.slice(buffer.cursor), cursor: from };
}

/** Deletes the character under the cursor. */
export function deleteForward(buffer: TextBuffer): TextBuffer {
  if (buffer.cursor >= buffer.text.length) return buffer;
  const to = nextBoundary(buffer.text, buffer.cursor);
  return { text: buffer.text.slice(0, buffer.cursor) + buffer.text.slice(to), cursor: buffer.cursor };
}

/** Deletes from the start of the cursor's line (after the last newline) to the cursor, like Ctrl-U in a shell. */
export function deleteToLineStart(buffer: TextBuffer): TextBuffer {
  const start = buffer.text.lastIndexOf('\n', buffer.cursor - 1) + 1;
  return { text: buffer.text.slice(0, start) + buffer.text.slice(buffer.cursor), cursor: start };
}

/** Moves the cursor one character left or right. */
export function moveHorizontal(buffer: TextBuffer, direction: -1 | 1): TextBuffer {
  const cursor =
    direction < 0 ? previousBoundary(buffer.text, buffer.cursor) : nextBoundary(buffer.text, buffer.cursor);
  return { ...buffer, cursor };
}

/** Moves the cursor to the start or end of its screen line. */
export function moveToLineEdge(buffer: TextBuffer, width: number, edge: 'start' | 'end'): TextBuffer {
  const lines = wrap(buffer.text, width);
  const { row } = cursorPosition(lines, buffer.cursor);
  const line = lines[row]!;
  return { ...buffer, cursor: edge === 'start' ? line.start : line.start + line.text.length };
}

/** Moves the cursor up or down one screen line, keeping its column where the line is long enough. */
export function moveVertical(buffer: TextBuffer, width: number, direction: -1 | 1): TextBuffer {
  const lines = wrap(buffer.text, width);
  const { row, column } = cursorPosition(lines, buffer.cursor);
  const target = lines[row + direction];
  if (!target) return { ...buffer, cursor: direction < 0 ? 0 : buffer.text.length };
  return { ...buffer, cursor: target.start + Math.min(column, target.text.length) };
}

/**
 * Soft-wraps text to a width: hard line breaks first, then after the last space that fits, so words stay whole; only
 * a word longer than the width is cut. A line that ends at a wrap keeps its trailing space (which may take the one
 * column past the width: the text area keeps it for the cursor), so offsets map back to the text one to one.
 */
export function wrap(text: string, width: number): VisualLine[] {
  const lines: VisualLine[] = [];
  let start = 0;
  for (const hard of text.split('\n')) {
    let rest = hard;
    let offset = start;
    while (rest.length > width) {
      const space = rest.lastIndexOf(' ', width);
      const cut = space > 0 ? space + 1 : width;
      lines.push({ start: offset, text: rest.slice(0, cut) });
      rest = rest.slice(cut);
      offset += cut;
    }
    lines.push({ start: offset, text: rest });
    start += hard.length + 1;
  }
  return lines;
}

/** The screen row and column of an offset in wrapped lines. */
export function cursorPosition(lines: readonly VisualLine[], cursor: number): { row: number; column: number } {
  for (let row = lines.length - 1; row >= 0; row--) {
    const line = lines[row]!;
    if (cursor >= line.start) {
      // An offset right at a soft wrap belongs to the next line's start, except at the very end of the text.
      return { row, column: Math.min(cursor - line.start, line.text.length) };
    }
  }
  return { row: 0, column: 0 };
}

// Surrogate pairs (emoji) move and delete as one character.
function previousBoundary(text: string, cursor: number): number {
  const code = text.charCodeAt(cursor - 1);
  return cursor >= 2 && code >= 0xdc00 && code <= 0xdfff ? cursor - 2 : Math.max(0, cursor - 1);
}

function nextBoundary(text: string, cursor: number): number {
  const code = text.charCodeAt(cursor);
  return code >= 0xd800 && code <= 0xdbff && cursor + 2 <= text.length ? cursor + 2 : Math.min(text.length, cursor + 1);
}
