import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatJsonPath, parseJsonText, parseWithSchema, positionAt } from '../../src/util/json/json-source.js';
import { redactUrl, scrubSecret } from '../../src/db/url.js';
import { passwordForms } from '../../src/util/redact-password.js';

describe('JSON source positions and paths', () => {
  it('maps offsets to 1-based lines and columns', () => {
    expect(positionAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(positionAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });

  it('reports every syntax error with file, line and column', () => {
    expect(() => parseJsonText('{\n  "a": 1,\n}', 'x.json')).toThrow(
      'x.json:3:1: invalid JSON: property name expected',
    );
    expect(() => parseJsonText('', 'empty.json')).toThrow(/^empty\.json:1:1: invalid JSON/);
    expect(() => parseJsonText('{"a": 1} // no', 'c.json')).toThrow(/^c\.json:1:10: invalid JSON/);
  });

  it('refuses a key an object repeats, at the repeat, and allows the same key in different objects', () => {
    expect(() => parseJsonText('{"rows": [{"id": 1, "n": "a"}, {"id": 2, "n": "b", "id": 3}]}', 'f.json')).toThrow(
      'f.json:1:52: invalid JSON: duplicate key "id"',
    );
    expect(
      parseJsonText('{"id": 1, "inner": {"id": 2, "inner": {"id": 3}}, "list": [{"id": 4}, {"id": 5}]}', 'f.json'),
    ).toEqual({ id: 1, inner: { id: 2, inner: { id: 3 } }, list: [{ id: 4 }, { id: 5 }] });
  });

  it('formats paths the way jq and JSONPath users read them', () => {
    expect(formatJsonPath(['tables', 'turns', 'rows', 3, 'id'])).toBe('$.tables.turns.rows[3].id');
    expect(formatJsonPath(['tables', 'Odd Name'])).toBe('$.tables["Odd Name"]');
    expect(formatJsonPath([])).toBe('$');
  });

  it('reports every schema issue as file: path: message', () => {
    const schema = z.object({ a: z.number(), b: z.array(z.string()) });
    try {
      parseWithSchema(schema, { a: 'x', b: [1] }, 'f.json');
      expect.unreachable();
    } catch (error) {
      expect((error as { problems: string[] }).problems).toEqual([
        'f.json: $.a: expected a number, got "x"',
        'f.json: $.b[0]: expected text, got 1',
      ]);
    }
  });
});

describe('secrets in database URLs', () => {
  it('removes the password and keeps the rest', () => {
    expect(redactUrl('postgres://bob:s3cr%40t@db.example:5433/game?sslmode=require')).toBe(
      'postgres://bob@db.example:5433/game?sslmode=require',
    );
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(redactUrl('not a url with hunter2')).not.toContain('hunter2');
    expect(redactUrl('postgres://bob@h/db?password=hunter2&sslmode=require')).toBe(
      'postgres://bob@h/db?password=***&sslmode=require',
    );
  });

  it('scrubs the password out of an error message', () => {
    expect(scrubSecret('auth failed for s3cr@t', 'postgres://bob:s3cr%40t@h/db')).toBe('auth failed for ***');
    // Not percent-encoding after all: the password as written is still scrubbed (decoding it used to throw).
    expect(scrubSecret('auth failed for s3cr%zzet', 'postgres://bob:s3cr%zzet@h/db')).toBe('auth failed for ***');
    expect(passwordForms('postgres://bob:s3cr%zzet@h/db')).toEqual(['s3cr%zzet']);
    // libpq's password parameters are the same secret.
    expect(scrubSecret('bad hunter2 and pass phrase', 'postgres://bob@h/db?password=hunter2&sslpassword=phrase')).toBe(
      'bad *** and pass ***',
    );
    // A "+" in a query value is printed as written and read as a space: both forms go.
    expect(scrubSecret('pw=s3cr+et99, read as s3cr et99', 'postgres://u@h/db?password=s3cr+et99')).toBe(
      'pw=***, read as ***',
    );
  });
});
