import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { jsonLines, lenientJsonLines } from '../../src/util/json/json-lines.js';
import { judgeLines, verdictRep } from '../../src/run-dir/judge-lines.js';
import { parseScreens } from '../../src/run-dir/screens-file.js';
import { readCalibrationFile } from '../../src/report/calibration-file.js';
import { readAttributionState } from '../../src/attribution/attribution-state.js';
import { readSchemaSnapshot } from '../../src/fixture/capture/schema-snapshot.js';
import { JudgeCache } from '../../src/judge/judge-cache.js';
import { JUDGE_CACHE_FILE } from '../../src/run-dir/run-file-names.js';
import { judgeKeyOf } from '../../src/report/trust-report.js';
import type { Run } from '../../src/run-dir/read-run.js';

// Every JSON and JSON-lines file turnkit reads goes through util/json: the same message for the same fault,
// `file:line:col: message` for syntax and `file: $.path: message` for shape, whichever file it is.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'turnkit-json-readers-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});
const shown = (name: string) => relative(process.cwd(), join(dir, name));

describe('JSON lines', () => {
  it('names the line as the file has it (blank lines counted) and the column in it', () => {
    expect(() => jsonLines('{"a":1}\n\n  {"b": 2,}\n', 'f.jsonl')).toThrow(
      expect.objectContaining({ code: 'BAD_INPUT', message: 'f.jsonl:3:11: invalid JSON: property name expected' }),
    );
    expect(jsonLines('{"a":1}\n\n[2]\n', 'f.jsonl')).toEqual([
      { value: { a: 1 }, line: 1 },
      { value: [2], line: 3 },
    ]);
  });

  it('refuses a repeated key in a line, as in a JSON file', () => {
    expect(() => jsonLines('{"a":1}\n{"a":1,"a":2}\n', 'f.jsonl')).toThrow(
      expect.objectContaining({ message: 'f.jsonl:2:8: invalid JSON: duplicate key "a"' }),
    );
  });

  it('read leniently: every line with its text and number, and a value only where the strict reader has one', () => {
    expect(lenientJsonLines('{"a":1}\n{"a":\n\n{"a":1,"a":2}\nnull\n')).toEqual([
      { text: '{"a":1}', line: 1, value: { a: 1 } },
      { text: '{"a":', line: 2, value: undefined },
      { text: '{"a":1,"a":2}', line: 4, value: undefined },
      { text: 'null', line: 5, value: null },
    ]);
  });
});

describe("a judge file's lines", () => {
  it('have an entry only when they are objects, and a rep only when the entry names one', () => {
    const lines = judgeLines('{"fixture":"f","rep":2,"mark":"pass"}\n{"key":"k"}\nnull\n7\n[1]\n{"fixture":"f",\n');
    expect(lines.map(({ line, entry }) => [line, entry])).toEqual([
      [1, { fixture: 'f', rep: 2, mark: 'pass' }],
      [2, { key: 'k' }],
      [3, undefined],
      [4, undefined],
      [5, undefined],
      [6, undefined],
    ]);
    expect(lines.map(({ entry }) => verdictRep(entry))).toEqual([
      { fixture: 'f', rep: 2 },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('the judge cache keeps the answers around a torn or a null line, and appends through the run writer', async () => {
    const good = JSON.stringify({ key: 'a', answer: 'pass', spend: { cost: 1 } });
    await writeFile(join(dir, JUDGE_CACHE_FILE), `null\n${good}\n{"key":"b","answer":`);
    const cache = await JudgeCache.open(dir);
    expect([cache.get('a'), cache.spendOf('a'), cache.get('b')]).toEqual(['pass', { cost: 1 }, undefined]);
    await cache.put('c', 'fail', {});
    const lines = (await readFile(join(dir, JUDGE_CACHE_FILE), 'utf8')).split('\n');
    // The torn last line is cut before the append (appendWhole), so that it never joins the new one.
    expect(lines.slice(0, 2)).toEqual(['null', good]);
    expect(JSON.parse(lines[2]!)).toMatchObject({ key: 'c', answer: 'fail' });
    expect(lines).toHaveLength(4);
  });

  it("names the judge from the verdicts' first line; a first line that is not an entry leaves it to the marks", async () => {
    const run = (text: string) =>
      ({ dir, manifest: { rubric: { version: 'r1' } }, text: async () => text }) as unknown as Run;
    await writeFile(join(dir, 'judge-m.jsonl'), '');
    const marks = new Map([['f#1', { grader: 'judge-other', rubricVersion: 'r2' }]]) as never;
    const verdict = JSON.stringify({ fixture: 'f', rep: 1, model: 'gpt', promptSha256: 'p1', rubricVersion: 'r3' });
    expect(await judgeKeyOf(run(`${verdict}\n`), 'marks.judge-m.csv', marks)).toEqual({
      model: 'gpt',
      promptSha256: 'p1',
      rubricVersion: 'r3',
    });
    // `null` once failed the report with a TypeError; now it is skipped as a torn line is.
    for (const first of ['null', '{"fixture":'])
      expect(await judgeKeyOf(run(`${first}\n${verdict}\n`), 'marks.judge-m.csv', marks)).toEqual({
        model: 'other',
        promptSha256: 'unknown',
        rubricVersion: 'r2',
      });
    expect(await judgeKeyOf(run(''), 'marks.judge-m.csv', marks)).toEqual({
      model: 'm',
      promptSha256: 'unknown',
      rubricVersion: 'r2',
    });
  });
});

describe('the screens file', () => {
  const row = (rep: number, mark: string) =>
    JSON.stringify({ fixture: 'a', rep, mark: 'pass', screens: [{ screen: 's', mark, reason: '' }] });

  it('names the line of a row its schema refuses, with the path in the row', async () => {
    await expect(
      parseScreens(`${row(1, 'pass')}\n\n${row(2, 'maybe')}\n`, 'screens.checks.jsonl'),
    ).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: 'screens.checks.jsonl:3: $.screens[0].mark: use one of "pass", "fail", "unscored", "error"',
    });
  });

  it('names the line and column of a line that is not JSON', async () => {
    await expect(parseScreens(`${row(1, 'pass')}\n{"fixture":"a","rep":2,"rep":3}\n`, 's.jsonl')).rejects.toMatchObject(
      {
        code: 'BAD_INPUT',
        message: 's.jsonl:2:24: invalid JSON: duplicate key "rep"',
      },
    );
  });
});

describe('a calibration file', () => {
  const expected = { question: 'q', judge: { model: 'm', promptSha256: 'p', rubricVersion: 'v' } };

  it('names the line and column of a syntax error and of a repeated key', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, '{\n  "format": "turnkit.calibration/1"\n  "q": 1\n}\n');
    await expect(readCalibrationFile(file, expected)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: `${shown('c.json')}:3:3: invalid JSON: comma expected`,
    });
    await writeFile(file, '{\n  "format": "turnkit.calibration/1",\n  "format": "x"\n}\n');
    await expect(readCalibrationFile(file, expected)).rejects.toMatchObject({
      message: `${shown('c.json')}:3:3: invalid JSON: duplicate key "format"`,
    });
  });

  it('names the path of a value its schema refuses as $.a.b', async () => {
    const file = join(dir, 'c.json');
    const counts = { truePass: 1, falseFail: -1, falsePass: 0, trueFail: 0 };
    const calibration = { format: 'turnkit.calibration/1', ...expected, counts, runs: [] };
    await writeFile(file, JSON.stringify({ ...calibration, sensitivity: null, specificity: null, youden: null }));
    await expect(readCalibrationFile(file, expected)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: `${shown('c.json')}: $.counts.falseFail: must be at least 0`,
    });
  });
});

describe("an attribution folder's attribution.json", () => {
  it('names the line and column of a syntax error, and the path of every value its schema refuses', async () => {
    await writeFile(join(dir, 'attribution.json'), '{"format": "turnkit.attribution/1",, }');
    await expect(readAttributionState(dir)).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: `${shown('attribution.json')}:1:36: invalid JSON: property name expected`,
    });
    await writeFile(join(dir, 'attribution.json'), '{"format": "turnkit.attribution/1", "looks": [1]}');
    const failed = await readAttributionState(dir).catch((error: unknown) => error);
    expect(failed).toMatchObject({
      code: 'BAD_INPUT',
      message: `${shown('attribution.json')}: $.question: is required`,
    });
    expect((failed as { problems: string[] }).problems.at(-1)).toBe(
      `${shown('attribution.json')}: $.looks[0]: expected text, got 1`,
    );
  });
});

describe('a schema snapshot', () => {
  it('is read as every JSON file is, and fails as a fixture does (code FIXTURE)', async () => {
    const file = join(dir, 's.json');
    await writeFile(file, '{"format": "turnkit.schema/1"');
    await expect(readSchemaSnapshot(file, 'schemas/s.json')).rejects.toMatchObject({
      code: 'FIXTURE',
      message: 'schemas/s.json:1:30: invalid JSON: close brace expected',
    });
    const snapshot = {
      format: 'turnkit.schema/1',
      fingerprint: 'f',
      serverVersion: '15',
      statements: ['x', 2],
      rows: {},
    };
    await writeFile(file, JSON.stringify(snapshot));
    await expect(readSchemaSnapshot(file, 'schemas/s.json')).rejects.toMatchObject({
      code: 'FIXTURE',
      message: 'schemas/s.json: $.statements[1]: expected text, got 2',
    });
    // One that cannot be read at all (a folder in its place) is named too, not a bare EISDIR.
    const folder = join(dir, 'folder.json');
    await mkdir(folder);
    await expect(readSchemaSnapshot(folder, 'schemas/folder.json')).rejects.toMatchObject({
      code: 'FIXTURE',
      message: 'schemas/folder.json: is a folder, not a file',
    });
  });
});
