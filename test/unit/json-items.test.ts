import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { itemPieces } from '../../src/util/json/json-items.js';
import { writeFixtureFile } from '../../src/fixture/capture/write-fixture.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// Fixtures are written in pieces (capture never holds a large fixture's whole text): the pieces must make exactly
// the bytes JSON.stringify(value, null, 2) makes, whatever the rows hold.
const ITEMS = ' '.repeat(8);
// A row list where a fixture has one (document -> tables -> table -> rows), its items joined from their pieces.
const inList = (items: readonly unknown[]): { expected: string; joined: string; pieces: [string, number][] } => {
  const pieces = [...itemPieces(items, ITEMS)];
  const list = items.length === 0 ? '[]' : `[\n${pieces.map(([text]) => text).join(',\n')}\n      ]`;
  return {
    expected: JSON.stringify({ tables: { turns: { rows: items } } }, null, 2),
    joined: `{\n  "tables": {\n    "turns": {\n      "rows": ${list}\n    }\n  }\n}`,
    pieces,
  };
};

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

describe('itemPieces', () => {
  it("joins to JSON.stringify's two-space text for any items, each piece counting its items", () => {
    const random = mulberry32(42);
    for (let i = 0; i < 3000; i++) {
      const items = Array.from({ length: Math.floor(random() * 6) }, () => randomValue(random, 1));
      const { expected, joined, pieces } = inList(items);
      expect(joined, JSON.stringify(expected)).toBe(expected);
      expect(pieces.reduce((sum, [, count]) => sum + count, 0)).toBe(items.length);
    }
  });

  it('writes a long row list in pieces of a few hundred rows', () => {
    const rows = Array.from({ length: 5000 }, (_, id) => ({ id, narration: `turn ${id}`, tags: ['a', id] }));
    const { expected, joined, pieces } = inList(rows);
    expect(joined).toBe(expected);
    expect(Math.max(...pieces.map(([text]) => text.length))).toBeLessThan(expected.length / 8);
  });

  it('writes rows of a megabyte a few at a time, not a batch of hundreds', () => {
    const rows = Array.from({ length: 40 }, (_, id) => ({ id, narration: 'x'.repeat(1024 * 1024) }));
    const { expected, joined, pieces } = inList(rows);
    expect(joined).toBe(expected);
    // The first piece (8 rows) is the largest; after it, one row a piece.
    expect(Math.max(...pieces.map(([text]) => text.length))).toBeLessThan(9 * 1024 * 1024);
    expect(pieces.filter(([text]) => text.length > 1024 * 1024).length).toBeGreaterThan(30);
  });
});

describe('writeFixtureFile', () => {
  it("writes serializeDocument's bytes for any rows, shared rows and head", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'turnkit-json-items-'));
    try {
      const random = mulberry32(7);
      for (let i = 0; i < 200; i++) {
        const rows = () => Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, 1));
        const tables: Record<string, unknown> = {};
        for (const name of ['b', 'a', '1', 'ünï "t"'].slice(0, Math.floor(random() * 5)))
          tables[name] =
            random() < 0.5
              ? { role: 'owned', extra: randomValue(random, 2), rows: rows() }
              : { role: 'shared', rows: rows(), note: randomValue(random, 2), sharedRows: rows() };
        const fixture = { format: 1, name: `f${i}`, source: randomValue(random, 1), tables } as unknown as Fixture;
        const file = join(dir, `f${i}.json`);
        await writeFixtureFile(file, fixture);
        expect(await readFile(file, 'utf8')).toBe(serializeDocument(fixture));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
