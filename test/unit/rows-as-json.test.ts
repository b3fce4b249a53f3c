import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../../src/db/catalog-types.js';
import { rowsAsJson } from '../../src/scratch/bulk-write.js';
import type { TextRow } from '../../src/scratch/remap/remap-rows.js';

const column = (name: string, kind: 'text' | 'int' | 'json' = 'text'): ColumnInfo =>
  ({ name, type: kind, nullable: true, default: null, identity: null, generated: null, codec: { kind } }) as ColumnInfo;

// The text rowsAsJson wrote before it built objects for one native JSON.stringify: built by hand, value by value.
function byHand(columns: readonly ColumnInfo[], rows: readonly TextRow[]): string {
  const keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
  const parts = rows.map(
    (row) =>
      `{${keys
        .map((key, i) => {
          const value = row[i];
          return (
            key +
            (value === null || value === undefined
              ? 'null'
              : columns[i]!.codec.kind === 'json'
                ? value
                : JSON.stringify(value))
          );
        })
        .join(',')}}`,
  );
  return `[${parts.join(',')}]`;
}

const awkward = [
  '',
  'plain',
  'quote " and \\ backslash',
  'line\nbreak\ttab',
  'ünïcødé ✓ 🎲',
  '\\u0000',
  '"\\u00001"',
  'x\u0001y',
];

describe('rowsAsJson', () => {
  it('writes the same text as the value-by-value builder, for awkward text, nulls and numbers', () => {
    const columns = [column('id'), column('name with "quotes"'), column('n', 'int'), column('narration')];
    const rows: TextRow[] = awkward.map((text, i) => [
      `c${i}`,
      text,
      i % 3 === 0 ? null : String(i * 7),
      text.repeat(2),
    ]);
    expect(rowsAsJson(columns, rows)).toBe(byHand(columns, rows));
    expect(rowsAsJson(columns, [])).toBe('[]');
  });

  it('splices json values in as they are: big numbers, duplicate keys and spacing survive', () => {
    const columns = [column('id'), column('data', 'json'), column('note'), column('meta', 'json')];
    const rows: TextRow[] = [
      ['a', '{"n": 12345678901234567890, "n": 1}', '\\u0000', '[1, 2.50]'],
      ['b', null, '"\\u00000"', '"a json string"'],
      ['c', '{"note": "\\u0000 inside"}', null, null],
    ];
    const text = rowsAsJson(columns, rows);
    expect(text).toBe(byHand(columns, rows));
    expect(text).toContain('12345678901234567890, "n": 1}');
  });

  it('keeps a column named __proto__', () => {
    const columns = [column('id'), column('__proto__')];
    const rows: TextRow[] = [['a', 'kept']];
    expect(JSON.parse(rowsAsJson(columns, rows))).toEqual(JSON.parse('[{"id":"a","__proto__":"kept"}]'));
    expect(rowsAsJson(columns, rows)).toBe(byHand(columns, rows));
  });
});
