import { describe, expect, it } from 'vitest';
import { jsonChunks } from '../../src/util/json/json-chunks.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// Fixtures are written in pieces (capture never holds a large fixture's whole text): the pieces must make exactly
// the bytes JSON.stringify(value, null, 2) makes, whatever the document holds.
const joined = (value: unknown, depth?: number): string => [...jsonChunks(value, depth)].join('');

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const kind = depth > 4 ? pick(['scalar', 'scalar', 'odd']) : pick(['scalar', 'odd', 'array', 'object', 'object']);
  if (kind === 'scalar')
    return pick<unknown>([
      null,
      true,
      false,
      0,
      -1.5,
      1e21,
      Number.NaN,
      'plain',
      'two\nlines\tand "quotes" \\ and \u2028',
      'ünïcödé 🚀',
      '',
    ]);
  if (kind === 'odd')
    return pick<unknown>([undefined, () => 1, Symbol('s'), new Date(Date.UTC(2026, 2, 14)), { toJSON: () => 'mine' }]);
  const length = Math.floor(random() * 5);
  if (kind === 'array') return Array.from({ length }, () => randomValue(random, depth + 1));
  const record: Record<string, unknown> = {};
  for (let i = 0; i < length; i++)
    record[pick(['a', 'b', '1', 'key with "quote"', 'é', `k${i}`])] = randomValue(random, depth + 1);
  return record;
}

describe('jsonChunks', () => {
  it("joins to JSON.stringify's two-space text for any document and split depth", () => {
    const random = mulberry32(42);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(random, 0);
      for (const depth of [0, 1, 2, 4, 8]) {
        const expected = JSON.stringify(value, null, 2) ?? 'null';
        expect(joined(value, depth), JSON.stringify(expected)).toBe(expected);
      }
    }
  });

  it('writes a long row list in pieces of a few hundred rows', () => {
    const rows = Array.from({ length: 5000 }, (_, id) => ({ id, narration: `turn ${id}`, tags: ['a', id] }));
    const document = { tables: { turns: { rows } } };
    const pieces = [...jsonChunks(document, 4)];
    const text = pieces.join('');
    expect(text).toBe(JSON.stringify(document, null, 2));
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(text.length / 8);
  });

  it('writes rows of a megabyte a few at a time, not a batch of hundreds', () => {
    const rows = Array.from({ length: 40 }, (_, id) => ({ id, narration: 'x'.repeat(1024 * 1024) }));
    const document = { tables: { turns: { rows } } };
    const pieces = [...jsonChunks(document, 4)];
    expect(pieces.join('')).toBe(JSON.stringify(document, null, 2));
    // The first batch (8 rows) is the largest; after it, one row a piece.
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(9 * 1024 * 1024);
    expect(pieces.filter((piece) => piece.length > 1024 * 1024).length).toBeGreaterThan(30);
  });
});
