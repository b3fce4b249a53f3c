import type { FixtureColumn } from '../fixture/format.js';

const INTEGER = /^(smallint|integer|int2|int4|oid)$/;
const DECIMAL_TEXT = /^(bigint|int8|numeric|decimal)\b/;
const FLOAT = /^(real|double precision|float4|float8)$/;
const JSON_TYPE = /^jsonb?$/;

/**
 * Why a new value cannot go into a column as the fixture format writes it, or undefined when it fits: NULL in a
 * NOT NULL column, or a JSON type the column's values never have (a number for text, text for an integer, an
 * object for an array). Checked where a change is recorded and where it is applied, so that a constructed fixture
 * that verifies also seeds. Values are not parsed further (a timestamp's text is the database's to judge).
 */
export function valueProblem(column: FixtureColumn, value: unknown): string | undefined {
  if (value === null) return column.nullable ? undefined : 'is NOT NULL';
  const type = column.type;
  if (JSON_TYPE.test(type)) return undefined;
  if (type.endsWith('[]')) return Array.isArray(value) ? undefined : `is ${type}: expected an array`;
  if (type === 'boolean') return typeof value === 'boolean' ? undefined : 'is boolean: expected true or false';
  if (type === 'bytea') return isBytea(value) ? undefined : 'is bytea: expected {"$bytea": "<base64>"}';
  if (INTEGER.test(type)) return Number.isInteger(value) ? undefined : `is ${type}: expected a whole number`;
  if (FLOAT.test(type))
    return typeof value === 'number' || ['NaN', 'Infinity', '-Infinity'].includes(value as string)
      ? undefined
      : `is ${type}: expected a number`;
  if (DECIMAL_TEXT.test(type)) {
    // bigint and numeric are written as decimal strings so that no digit is lost to a double.
    return typeof value === 'string' && /^(-?\d+(\.\d+)?|NaN|-?Infinity)$/.test(value)
      ? undefined
      : `is ${type}: expected a decimal string like "42"`;
  }
  return typeof value === 'string' ? undefined : `is ${type}: expected a string`;
}

function isBytea(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { $bytea?: unknown }).$bytea === 'string' &&
    Object.keys(value).length === 1
  );
}
