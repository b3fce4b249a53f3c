import { describe, expect, it } from 'vitest';
import { parseSqlFile } from '../../src/db/sql-file/parse-sql-file.js';

// A pg_dump file's shapes, as `turnkit db load` must read them without psql.
const DUMP = [
  '--',
  '-- PostgreSQL database dump',
  '--',
  '\\restrict abc123',
  'SET statement_timeout = 0;',
  "SELECT pg_catalog.set_config('search_path', '', false);",
  'CREATE FUNCTION public.touch() RETURNS trigger',
  '    LANGUAGE plpgsql',
  '    AS $$',
  'BEGIN',
  "\\ this line and COPY x FROM stdin; are the body's;",
  '  RETURN NEW;',
  'END $$;',
  'CREATE TABLE public.t (a integer, b text);',
  "COMMENT ON TABLE public.t IS 'it''s; not the end\\',",
  "'still a string';",
  'COPY public.t (a, b) FROM stdin;',
  '1\tone',
  '2\t\\N',
  '\\.',
  '-- PostgreSQL database dump complete',
  '\\unrestrict abc123',
  '',
].join('\n');

describe('parseSqlFile', () => {
  it("splits a pg_dump file into statements and COPY blocks with their lines, psql's guard lines skipped", () => {
    const steps = parseSqlFile(DUMP);
    expect(steps.map((step) => [step.kind, step.line])).toEqual([
      ['sql', 5],
      ['sql', 6],
      ['sql', 7],
      ['sql', 14],
      ['sql', 15],
      ['copy', 17],
    ]);
    expect(steps[2]).toMatchObject({ kind: 'sql', statements: 1 });
    expect(steps[2]!.kind === 'sql' && steps[2]!.text).toContain("\\ this line and COPY x FROM stdin; are the body's;");
    expect(steps[4]!.kind === 'sql' && steps[4]!.text).toBe(
      "COMMENT ON TABLE public.t IS 'it''s; not the end\\',\n'still a string';\n",
    );
    expect(steps[5]).toEqual({
      kind: 'copy',
      statement: 'COPY public.t (a, b) FROM stdin;',
      data: '1\tone\n2\t\\N\n',
      line: 17,
    });
  });

  it('refuses a meta-command it cannot honour, naming its line', () => {
    expect(() => parseSqlFile('SELECT 1;\n\\connect other\nSELECT 2;\n')).toThrow(
      'line 2: psql meta-command \\connect is not supported by turnkit db load (run the file with psql)',
    );
  });

  it('reads a backslash line inside a string or a block comment as SQL, and a last statement without ;', () => {
    const steps = parseSqlFile("SELECT 'a\n\\connect b';\n/* x\n\\i y */ SELECT 2\n");
    expect(steps).toEqual([
      { kind: 'sql', text: "SELECT 'a\n\\connect b';\n", line: 1, statements: 1 },
      { kind: 'sql', text: '/* x\n\\i y */ SELECT 2\n\n', line: 3, statements: 1 },
    ]);
  });

  it('starts the next statement where a line ends one and begins another', () => {
    expect(parseSqlFile('create table u1 (a int); create table u2 (\n  b int\n);\n')).toEqual([
      { kind: 'sql', text: 'create table u1 (a int);\n', line: 1, statements: 1 },
      { kind: 'sql', text: ' create table u2 (\n  b int\n);\n', line: 1, statements: 1 },
    ]);
  });

  it('says where a COPY block never ends', () => {
    expect(() => parseSqlFile('SELECT 1;\nCOPY t FROM stdin;\n1\n')).toThrow(
      'line 2: COPY ... FROM stdin has no closing \\. line',
    );
  });
});
