/**
 * The text `JSON.stringify(value, null, 2)` would make, in pieces: objects and arrays down to `depth` levels are
 * written key by key and item by item, anything deeper (or anything with a toJSON) by JSON.stringify itself and
 * indented to its place. A large document (a fixture's rows) is then written without its whole text in memory at
 * once, and the bytes are the same (test/unit/json-chunks.test.ts compares them).
 */
export function* jsonChunks(value: unknown, depth = 4, indent = ''): Generator<string> {
  if (depth === 0 || !splittable(value)) {
    // JSON text never holds a raw newline (strings escape theirs): every newline is a line break to indent.
    const text = JSON.stringify(value, null, 2) as string | undefined;
    yield indent === '' || text === undefined ? (text ?? 'null') : text.replaceAll('\n', `\n${indent}`);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return void (yield '[]');
    yield '[\n';
    for (let i = 0; i < value.length; i++) {
      yield inner;
      // As JSON.stringify writes them in an array: undefined, functions and symbols become null.
      yield* writable(value[i]) ? jsonChunks(value[i], depth - 1, inner) : ['null'];
      yield i < value.length - 1 ? ',\n' : '\n';
    }
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
