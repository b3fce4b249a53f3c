import { describe, expect, it } from 'vitest';
import { compareDecimalStrings, sortRows } from '../../src/fixture/row-order.js';

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
});
