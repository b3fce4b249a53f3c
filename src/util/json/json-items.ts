/** A piece aims at about this many characters: the items in a piece grow or shrink to it. */
const PIECE = 256 * 1024;
/** Items in the first piece, and the most in any: rows are small, but a row of megabytes must not come 512 at once. */
const FIRST_PIECE = 8;
const MOST_PIECE = 512;

/**
 * The items of an array whose items sit at indent `inner` (spaces), one after another as
 * `JSON.stringify(array, null, 2)` separates them there (`,\n`): a streamed writer joins such pieces with `,\n`.
 */
function itemsText(items: readonly unknown[], inner: string): string {
  // JSON.stringify indents from column 0, and re-indenting its text would cost a pass over every character. Nested
  // in as many arrays as the indent has levels, the items come out already indented to their place: their text is
  // cut out of the wrapper's. (JSON text never holds a raw newline, so the wrapper's lines are known exactly.)
  const levels = inner.length / 2;
  let wrapped: unknown = items;
  for (let i = 1; i < levels; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // "[\n" + "  [\n" + ... for `levels` arrays before the items, and as many characters after them.
  const around = levels * 2 + levels * (levels - 1);
  return text.slice(around, text.length - around);
}

/**
 * itemsText in pieces of about PIECE characters, each with the count of items it holds: a large array's text is
 * never one string, whatever its items' sizes.
 */
export function* itemPieces(items: readonly unknown[], inner: string): Generator<[string, number]> {
  let size = FIRST_PIECE;
  for (let start = 0; start < items.length; ) {
    const piece = items.slice(start, start + size);
    start += size;
    const text = itemsText(piece, inner);
    yield [text, piece.length];
    // The next piece sized from this one's characters per item, so that a piece stays near PIECE.
    size = Math.max(1, Math.min(MOST_PIECE, Math.floor((size * PIECE) / Math.max(1, text.length))));
  }
}
