/** A piece of a row list aims at about this many characters: the batch of items grows or shrinks to it. */
const PIECE = 256 * 1024;
/** Items in the first batch, and the most in any: rows are small, but a row of megabytes must not come 512 at once. */
const FIRST_BATCH = 8;
const MOST_BATCH = 512;

/**
 * The text `JSON.stringify(value, null, 2)` would make, in pieces: objects and arrays down to `depth` levels are
 * written key by key, the items of an array at the last level in batches of about PIECE characters, anything
 * deeper (or anything with a toJSON) by JSON.stringify itself. A large document (a fixture's rows) is then written without its whole text in
 * memory at once, and the bytes are the same (test/unit/json-chunks.test.ts compares them).
 */
export function* jsonChunks(value: unknown, depth = 4, indent = ''): Generator<string> {
  if (depth === 0 || !splittable(value)) return void (yield placed(value, indent));
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return void (yield '[]');
    yield '[\n';
    if (depth === 1) {
      let batch = FIRST_BATCH;
      for (let start = 0; start < value.length; ) {
        if (start > 0) yield ',\n';
        const text = itemsText(value.slice(start, start + batch), inner);
        start += batch;
        yield text;
        // The next batch sized from this one's characters per item, so that a piece stays near PIECE.
        batch = Math.max(1, Math.min(MOST_BATCH, Math.floor((batch * PIECE) / Math.max(1, text.length))));
      }
    } else {
      for (let i = 0; i < value.length; i++) {
        yield inner;
        // As JSON.stringify writes them in an array: undefined, functions and symbols become null.
        yield* writable(value[i]) ? jsonChunks(value[i], depth - 1, inner) : ['null'];
        yield i < value.length - 1 ? ',\n' : '\n';
      }
    }
    if (depth === 1) yield '\n';
    yield `${indent}]`;
    return;
  }
  const record = value as Record<string, unknown>;
  // In an object they are left out, key and all.
  const keys = Object.keys(record).filter((key) => writable(record[key]));
  if (keys.length === 0) return void (yield '{}');
  yield '{\n';
  for (let i = 0; i < keys.length; i++) {
    yield `${inner}${JSON.stringify(keys[i])}: `;
    yield* jsonChunks(record[keys[i]!], depth - 1, inner);
    yield i < keys.length - 1 ? ',\n' : '\n';
  }
  yield `${indent}}`;
}

// JSON.stringify indents from column 0, and re-indenting its text costs a pass over every character. Nested in as
// many arrays as the indent has levels, the value comes out already indented to its place: its text is cut out of
// the wrapper's. (JSON text never holds a raw newline, so the wrapper's lines are known exactly.)
function placed(value: unknown, indent: string): string {
  const levels = indent.length / 2;
  if (levels === 0) return (JSON.stringify(value, null, 2) as string | undefined) ?? 'null';
  const text = JSON.stringify(wrapped([value], levels - 1), null, 2);
  return text.slice(opening(levels) + indent.length, text.length - closing(levels));
}

/**
 * The items of an array whose items sit at indent `inner` (spaces), one after another as
 * `JSON.stringify(array, null, 2)` separates them there (`,\n`): a streamed writer joins such pieces with `,\n`.
 */
export function itemsText(items: readonly unknown[], inner: string): string {
  const levels = inner.length / 2;
  const text = JSON.stringify(wrapped(items, levels - 1), null, 2);
  return text.slice(opening(levels), text.length - closing(levels));
}

function wrapped(value: unknown, levels: number): unknown {
  let out = value;
  for (let i = 0; i < levels; i++) out = [out];
  return out;
}

// "[\n" + "  [\n" + ... for `levels` arrays, and "\n  ]" + "\n]" after.
function opening(levels: number): number {
  return levels * 2 + levels * (levels - 1);
}
function closing(levels: number): number {
  return opening(levels);
}

// Plain arrays and objects are split; a value with toJSON (a Date) is JSON.stringify's to turn into what it writes.
function splittable(value: unknown): value is object {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function' &&
    !(value instanceof Number || value instanceof String || value instanceof Boolean)
  );
}

function writable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
