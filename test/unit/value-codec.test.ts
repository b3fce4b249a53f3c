import { describe, expect, it } from 'vitest';
import type { Codec } from '../../src/db/catalog-types.js';
import { decodeValue, encodeValue, isoTimestamptz, valueDecoder } from '../../src/fixture/value-codec.js';

describe('decodeValue', () => {
  it('keeps bigint and numeric digits as strings', () => {
    expect(decodeValue('9007199254740993', { kind: 'bigint' })).toBe('9007199254740993');
    expect(decodeValue('123456789012345678901234.000100', { kind: 'numeric' })).toBe('123456789012345678901234.000100');
  });

  it('turns ints, floats and booleans into JSON values, keeping NaN and Infinity spelled out', () => {
    expect(decodeValue('-42', { kind: 'int' })).toBe(-42);
    expect(decodeValue('0.1', { kind: 'float' })).toBe(0.1);
    expect(decodeValue('NaN', { kind: 'float' })).toBe('NaN');
    expect(decodeValue('-Infinity', { kind: 'float' })).toBe('-Infinity');
    expect(decodeValue('t', { kind: 'bool' })).toBe(true);
    expect(decodeValue('f', { kind: 'bool' })).toBe(false);
  });

  it('writes timestamptz as ISO 8601 with a full offset and every fractional digit', () => {
    expect(decodeValue('2024-05-01 12:00:00.123456+00', { kind: 'timestamptz' })).toBe(
      '2024-05-01T12:00:00.123456+00:00',
    );
    expect(isoTimestamptz('2024-05-01 12:00:00+05:30')).toBe('2024-05-01T12:00:00+05:30');
    expect(isoTimestamptz('1900-01-01 00:00:00-00:01:15')).toBe('1900-01-01T00:00:00-00:01:15');
    expect(isoTimestamptz('infinity')).toBe('infinity');
    expect(decodeValue('2024-05-01 12:00:00.5', { kind: 'timestamp' })).toBe('2024-05-01T12:00:00.5');
  });

  it('encodes bytea as base64 and json as nested JSON, keeping a JSON string scalar a string', () => {
    expect(decodeValue('\\x00ff10', { kind: 'bytea' })).toEqual({ $bytea: 'AP8Q' });
    expect(decodeValue('"just text"', { kind: 'json' })).toBe('just text');
    expect(decodeValue('{"a": [1, null]}', { kind: 'json' })).toEqual({ a: [1, null] });
    expect(decodeValue('null', { kind: 'json' })).toBeNull();
    expect(decodeValue(null, { kind: 'json' })).toBeNull();
  });

  it('parses arrays, nested arrays, NULL elements and quoted elements by element type', () => {
    expect(decodeValue('{1,NULL,3}', { kind: 'array', element: 'int' })).toEqual([1, null, 3]);
    expect(decodeValue('{{1,2},{3,4}}', { kind: 'array', element: 'int' })).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(decodeValue('{"a b","NULL",c}', { kind: 'array', element: 'text' })).toEqual(['a b', 'NULL', 'c']);
    expect(decodeValue('{"2024-01-01 00:00:00+00"}', { kind: 'array', element: 'timestamptz' })).toEqual([
      '2024-01-01T00:00:00+00:00',
    ]);
    expect(decodeValue('{}', { kind: 'array', element: 'text' })).toEqual([]);
  });
});

describe('valueDecoder', () => {
  it("decodes every kind's text, NULL included, exactly as decodeValue does (a streamed capture uses it)", () => {
    const cases: [Codec, (string | null)[]][] = [
      [{ kind: 'int' }, ['-42', '0', '2147483647']],
      [{ kind: 'bigint' }, ['9007199254740993', '-1']],
      [{ kind: 'numeric' }, ['123456789012345678901234.000100', 'NaN']],
      [{ kind: 'float' }, ['0.1', 'NaN', '-Infinity', '1e+300']],
      [{ kind: 'bool' }, ['t', 'f']],
      [{ kind: 'json' }, ['{"a": [1, null]}', '"text"', 'null', '{"id": 12345678901234567890}']],
      [{ kind: 'bytea' }, ['\\x00ff10', '\\x']],
      [{ kind: 'timestamptz' }, ['2024-05-01 12:00:00.123456+00', 'infinity', '0044-03-15 12:00:00+00 BC']],
      [{ kind: 'timestamp' }, ['2024-05-01 12:00:00.5', '-infinity']],
      [{ kind: 'text' }, ['plain', 'ünïcode 🚀', '']],
      [{ kind: 'array', element: 'int' }, ['{1,NULL,3}', '{{1,2},{3,4}}', '[0:1]={1,2}', '{}']],
      [{ kind: 'array', element: 'text' }, ['{"a b","c\\"d",NULL}']],
      [{ kind: 'array', element: 'timestamptz' }, ['{"2024-05-01 12:00:00+00"}']],
    ];
    for (const [codec, raws] of cases) {
      const decode = valueDecoder(codec);
      for (const raw of [...raws, null]) expect(decode(raw), `${codec.kind} ${raw}`).toEqual(decodeValue(raw, codec));
    }
  });
});

describe('encodeValue', () => {
  it('gives Postgres the text it accepts back', () => {
    expect(encodeValue({ $bytea: 'AP8Q' }, { kind: 'bytea' })).toBe('\\x00ff10');
    expect(encodeValue('just text', { kind: 'json' })).toBe('"just text"');
    expect(encodeValue(true, { kind: 'bool' })).toBe('t');
    expect(encodeValue(['a "b"', null, 'c\\d'], { kind: 'array', element: 'text' })).toBe(
      '{"a \\"b\\"",NULL,"c\\\\d"}',
    );
    expect(encodeValue(null, { kind: 'int' })).toBeNull();
  });

  it('round-trips arrays through decode', () => {
    const codec = { kind: 'array', element: 'text' } as const;
    const value = ['x', 'y z', null, '{braces}', ''];
    expect(decodeValue(encodeValue(value, codec), codec)).toEqual(value);
  });
});
