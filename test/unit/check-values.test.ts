import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkValues } from '../../src/fixture/check-fixture.js';
import type { FixtureTable } from '../../src/fixture/format.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The problems checkValues finds in one row of a table of the given column types. */
function problems(types: Record<string, string>, row: Record<string, unknown>): string[] {
  const table = {
    role: 'owned',
    columns: Object.entries(types).map(([name, type]) => ({ name, type, nullable: true })),
    primaryKey: [],
    foreignKeys: [],
    rows: [row],
  } as unknown as FixtureTable;
  const found: string[] = [];
  checkValues('t', table, (path, message) => found.push(`${path.slice(4).join('.')}: ${message}`));
  return found;
}

describe('values against the column types a fixture declares', () => {
  it('takes whole numbers in range, as numbers or strings, and NULL', () => {
    expect(
      problems(
        { a: 'smallint', b: 'integer', c: 'bigint', d: 'bigint', e: 'integer' },
        { a: -32768, b: 2147483647, c: '-9223372036854775808', d: 42, e: null },
      ),
    ).toEqual([]);
  });

  it('takes canonical base64 in $bytea and refuses what Node would decode to other bytes', () => {
    expect(problems({ a: 'bytea', b: 'bytea' }, { a: { $bytea: 'AAEC/w==' }, b: { $bytea: '' } })).toEqual([]);
    expect(
      problems({ a: 'bytea', b: 'bytea', c: 'bytea' }, { a: { $bytea: 'AAEC*w==' }, b: { $bytea: 'AAE' }, c: 'AAEC' }),
    ).toEqual([
      'a: $bytea is not base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4)',
      'b: $bytea is not base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4)',
      'c: is not {"$bytea": base64} (the column is bytea)',
    ]);
  });

  it('refuses Infinity (1e400), fractions, out-of-range values and inexact big numbers', () => {
    expect(
      problems(
        { a: 'integer', b: 'smallint', c: 'bigint', d: 'integer', e: 'bigint', f: 'integer' },
        { a: Infinity, b: 32768, c: '12345678901234567890123', d: 1.5, e: 2 ** 60, f: 'x' },
      ),
    ).toEqual([
      'a: Infinity is not a whole number (the number in the file is past what a double holds; the column is integer)',
      'b: 32768 is out of range for smallint (-32768 to 32767)',
      'c: 12345678901234567890123 is out of range for bigint (-9223372036854775808 to 9223372036854775807)',
      'd: 1.5 is not a whole number (the column is integer)',
      'e: 1152921504606847000 is past 2^53 and not exact as a JSON number: write it as a string',
      'f: "x" is not a whole number (the column is integer)',
    ]);
  });

  it('checks array elements, numerics and booleans; leaves other types and Postgres array text alone', () => {
    expect(
      problems(
        { a: 'integer[]', b: 'integer[]', c: 'numeric(6,2)', d: 'boolean', e: 'text', f: 'integer[]' },
        {
          a: [
            [1, null],
            [3, 4],
          ],
          b: '[0:1]={7,8}',
          c: '12.50',
          d: true,
          e: 5,
          f: [1, Infinity],
        },
      ),
    ).toEqual([
      'f: Infinity is not a whole number (the number in the file is past what a double holds; the column is integer)',
    ]);
    expect(problems({ c: 'numeric', d: 'boolean' }, { c: Infinity, d: 't' })).toHaveLength(2);
  });

  it('finds nothing wrong in the committed fixture', () => {
    const fixture = JSON.parse(readFileSync(`${REPO}fixtures/meridian-turn-23.json`, 'utf8')) as {
      tables: Record<string, FixtureTable>;
    };
    const found: string[] = [];
    for (const [name, table] of Object.entries(fixture.tables))
      checkValues(name, table, (_path, message) => found.push(message));
    expect(found).toEqual([]);
  });
});
