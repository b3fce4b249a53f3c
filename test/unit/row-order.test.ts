import { describe, expect, it } from 'vitest';
import type { Codec } from '../../src/db/catalog-types.js';
import { compareDecimalStrings, compareIntegerText, compareValues, sortRows } from '../../src/fixture/row-order.js';
import { mulberry32 } from '../../src/util/seeded-random.js';

// sortRows as it was (an object and a key array per row, bigint text as BigInts): the index sort must agree with it.
function sortRowsBefore<T extends Record<string, unknown>>(
  rows: T[],
  columns: readonly { name: string; codec: Codec }[],
): T[] {
  const key = (value: unknown, codec: Codec): unknown =>
    codec.kind === 'bigint' && typeof value === 'string' && /^-?\d+$/.test(value) ? BigInt(value) : value;
  const keyed = rows.map((row) => ({ row, keys: columns.map((column) => key(row[column.name], column.codec)) }));
  keyed.sort((left, right) => {
    for (let i = 0; i < columns.length; i++) {
      const a = left.keys[i];
      const b = right.keys[i];
      const order =
        typeof a === 'bigint' && typeof b === 'bigint'
          ? a < b
            ? -1
            : a > b
              ? 1
              : 0
          : compareValues(a, b, columns[i]!.codec);
      if (order !== 0) return order;
    }
    const a = JSON.stringify(left.row);
    const b = JSON.stringify(right.row);
    return a < b ? -1 : a > b ? 1 : 0;
  });
  return keyed.map((entry) => entry.row);
}

describe('row order', () => {
  it('compares decimal strings exactly, beyond float precision', () => {
    expect(compareDecimalStrings('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareDecimalStrings('10', '9')).toBe(1);
    expect(compareDecimalStrings('-10', '9')).toBe(-1);
    expect(compareDecimalStrings('-10', '-9')).toBe(-1);
    expect(compareDecimalStrings('1.50', '1.5')).toBe(0);
    expect(compareDecimalStrings('0.0', '-0')).toBe(0);
    expect(compareDecimalStrings('abc', '1')).toBeUndefined();
  });

  it('sorts rows by key columns numerically for bigint, by code unit for text, nulls first', () => {
    const rows = [
      { id: '10', t: 'b' },
      { id: '9', t: 'a' },
      { id: '100', t: 'C' },
    ];
    expect(sortRows([...rows], [{ name: 'id', codec: { kind: 'bigint' } }]).map((row) => row.id)).toEqual([
      '9',
      '10',
      '100',
    ]);
    expect(sortRows([...rows], [{ name: 't', codec: { kind: 'text' } }]).map((row) => row.t)).toEqual(['C', 'a', 'b']);
    const withNull = [{ k: 2 }, { k: null }, { k: 1 }];
    expect(sortRows(withNull, [{ name: 'k', codec: { kind: 'int' } }]).map((row) => row.k)).toEqual([null, 1, 2]);
  });

  it('compares integer text as BigInts do, leading zeros and -0 included', () => {
    const random = mulberry32(11);
    const digits = (): string => {
      const length = 1 + Math.floor(random() * 22);
      let text = '';
      for (let i = 0; i < length; i++) text += String(Math.floor(random() * (i === 0 && random() < 0.7 ? 3 : 10)));
      return text;
    };
    const sign = (a: bigint, b: bigint): number => (a < b ? -1 : a > b ? 1 : 0);
    for (let i = 0; i < 5000; i++) {
      const a = `${random() < 0.4 ? '-' : ''}${digits()}`;
      const b = `${random() < 0.4 ? '-' : ''}${random() < 0.1 ? a.replace('-', '') : digits()}`;
      expect(Math.sign(compareIntegerText(a, b)), `${a} vs ${b}`).toBe(sign(BigInt(a), BigInt(b)));
    }
    expect(compareIntegerText('-0', '0')).toBe(0);
    expect(compareIntegerText('-000', '00')).toBe(0);
    expect(compareIntegerText('007', '7')).toBe(0);
  });

  it('sorts random rows as the sort with an object per row did (composite keys, nulls, ties by whole row)', () => {
    const random = mulberry32(5);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const columns = [
      { name: 'a', codec: { kind: 'bigint' } as Codec },
      { name: 'b', codec: { kind: 'text' } as Codec },
      { name: 'c', codec: { kind: 'int' } as Codec },
    ];
    for (let round = 0; round < 200; round++) {
      const rows = Array.from({ length: Math.floor(random() * 40) }, (_, i) => ({
        a: pick(['1', '2', '10', '-3', '9007199254740993', '9007199254740992', null, 'x']),
        b: pick(['a', 'B', 'é', '', null]),
        c: pick([1, 2, -1, null]),
        extra: pick([i, 'same']),
      }));
      const used = columns.slice(0, 1 + (round % 3));
      // Rows with a non-integer bigint text beside an integer one made the old sort throw (a BigInt in JSON).
      const comparable = rows.filter((row) => row.a !== 'x');
      expect(sortRows([...comparable], used)).toEqual(sortRowsBefore([...comparable], used));
    }
  });
});
