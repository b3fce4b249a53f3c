import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadQuestion } from '../../src/question/load-question.js';
import { TurnkitError } from '../../src/errors.js';
import { checkRegex } from '../../src/question/check-regex.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

// A valid YAML question, one key per line (line numbers below count from 1).
const YAML_LINES = [
  'id: places', // 1
  'question: Where is the mess hall?', // 2
  'rubric: { path: questions/rubric.md, version: 1 }', // 3
  'target: 0.9', // 4
  'reps: 3', // 5
  'fixtures:', // 6
  '  - fixtures/a.json', // 7
  '  - { path: "constructed/*.json", tag: heldout }', // 8
  'sut:', // 9
  '  type: command', // 10
  '  command: [node, sut.mjs]', // 11
  'caseFile: questions/case.md', // 12
];

const JSON_QUESTION = {
  id: 'places',
  question: 'Where is the mess hall?',
  rubric: { path: 'questions/rubric.md', version: '2' },
  target: 1,
  reps: 1,
  fixtures: [{ path: 'fixtures/a.json', tag: 'dev' }],
  sut: { type: 'module', path: 'sut.mjs' },
  caseFile: 'questions/case.md',
};

describe('loadQuestion', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-question-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Writes a question file and returns its path and how errors name it. */
  const write = async (text: string, ext = 'yaml'): Promise<{ path: string; shown: string }> => {
    const path = join(dir, `q${++n}.${ext}`);
    await writeFile(path, text);
    return { path, shown: relative(process.cwd(), path) };
  };
  const yaml = (edit: (lines: string[]) => string[] = (lines) => lines): string =>
    `${edit([...YAML_LINES]).join('\n')}\n`;
  const json = (edit: (q: Record<string, unknown>) => void = () => {}): string => {
    const q = structuredClone(JSON_QUESTION) as Record<string, unknown>;
    edit(q);
    return `${JSON.stringify(q, null, 2)}\n`;
  };
  /** The TurnkitError loading a file gives. */
  const failure = async (file: { path: string }): Promise<TurnkitError> => {
    const error = await loadQuestion(file.path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkitError);
    return error as TurnkitError;
  };

  it('loads a YAML question with the command SUT defaults filled in', async () => {
    const file = await write(yaml());
    const loaded = await loadQuestion(file.path);
    expect(loaded.question).toEqual({
      id: 'places',
      question: 'Where is the mess hall?',
      // A numeric version is kept as text.
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.9,
      reps: 3,
      fixtures: ['fixtures/a.json', { path: 'constructed/*.json', tag: 'heldout' }],
      sut: { type: 'command', command: ['node', 'sut.mjs'], timeout: 130, maxOutput: 131_072 },
      caseFile: 'questions/case.md',
    });
    expect(loaded.path).toBe(file.path);
    expect(loaded.shown).toBe(file.shown);
    expect(loaded.text).toBe(yaml());
  });

  it('loads a JSON question with the module SUT defaults filled in', async () => {
    const file = await write(json(), 'json');
    const loaded = await loadQuestion(file.path);
    expect(loaded.question.sut).toEqual({
      type: 'module',
      path: 'sut.mjs',
      export: 'default',
      timeout: 130,
      maxOutput: 131_072,
    });
    expect(loaded.question.fixtures).toEqual([{ path: 'fixtures/a.json', tag: 'dev' }]);
    expect(loaded.question.target).toBe(1);
  });

  it('gives positions of values for errors found after loading (at)', async () => {
    const file = await write(yaml());
    const loaded = await loadQuestion(file.path);
    expect(loaded.at(['sut', 'command'])).toBe(`${file.shown}:11:12: $.sut.command`);
    expect(loaded.at(['fixtures', 1])).toBe(`${file.shown}:8:5: $.fixtures[1]`);
    expect(loaded.at(['rubric', 'path'])).toBe(`${file.shown}:3:17: $.rubric.path`);
    expect(loaded.at(['caseFile'])).toBe(`${file.shown}:12:11: $.caseFile`);
    // A path that is not in the file points at the nearest value that is.
    expect(loaded.at(['sut', 'cwd'])).toBe(`${file.shown}:10:3: $.sut.cwd`);

    const jsonFile = await write(json(), 'json');
    const fromJson = await loadQuestion(jsonFile.path);
    // "    "path": "sut.mjs"" on line 18: the value starts at column 13.
    expect(fromJson.at(['sut', 'path'])).toBe(`${jsonFile.shown}:18:13: $.sut.path`);
    expect(fromJson.at(['fixtures', 0])).toBe(`${jsonFile.shown}:11:5: $.fixtures[0]`);
  });

  it('rejects a target of 0 or above 1 and reps below 1, at the value, in YAML', async () => {
    let file = await write(yaml((l) => l.map((line) => (line === 'target: 0.9' ? 'target: 0' : line))));
    expect((await failure(file)).message).toBe(`${file.shown}:4:9: $.target: must be above 0`);
    file = await write(yaml((l) => l.map((line) => (line === 'target: 0.9' ? 'target: 1.5' : line))));
    expect((await failure(file)).message).toBe(`${file.shown}:4:9: $.target: must be at most 1`);
    file = await write(yaml((l) => l.map((line) => (line === 'reps: 3' ? 'reps: 0' : line))));
    const error = await failure(file);
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toBe(`${file.shown}:5:7: $.reps: at least 1 rep`);
    expect(error.problems).toEqual([error.message]);
  });

  it('rejects the same values in JSON, at the value', async () => {
    let file = await write(
      json((q) => (q.target = 0)),
      'json',
    );
    expect((await failure(file)).message).toBe(`${file.shown}:8:13: $.target: must be above 0`);
    file = await write(
      json((q) => (q.target = 1.5)),
      'json',
    );
    expect((await failure(file)).message).toBe(`${file.shown}:8:13: $.target: must be at most 1`);
    file = await write(
      json((q) => (q.reps = 0)),
      'json',
    );
    expect((await failure(file)).message).toBe(`${file.shown}:9:11: $.reps: at least 1 rep`);
  });

  it('says a missing key "is required", pointing at the object that lacks it', async () => {
    let file = await write(yaml((l) => l.filter((line) => !line.startsWith('reps:'))));
    expect((await failure(file)).message).toBe(`${file.shown}:1:1: $.reps: is required`);
    file = await write(
      yaml((l) => l.map((line) => (line.startsWith('rubric:') ? 'rubric:\n  path: questions/rubric.md' : line))),
    );
    expect((await failure(file)).message).toBe(`${file.shown}:4:3: $.rubric.version: is required`);
    file = await write(
      json((q) => delete (q.rubric as Record<string, unknown>).version),
      'json',
    );
    // "  "rubric": {" on line 4: the object starts at column 13.
    expect((await failure(file)).message).toBe(`${file.shown}:4:13: $.rubric.version: is required`);
    file = await write(
      json((q) => delete q.caseFile),
      'json',
    );
    expect((await failure(file)).message).toBe(`${file.shown}:1:1: $.caseFile: is required`);
  });

  it('names an unknown top-level key where it is written and suggests the known one', async () => {
    const file = await write(yaml((l) => [...l, 'qestion: again?']));
    expect((await failure(file)).message).toBe(
      `${file.shown}:13:1: $.qestion: unknown key "qestion" (did you mean "question"?)`,
    );
    const jsonFile = await write(
      json((q) => (q.caseFil = 'x.md')),
      'json',
    );
    expect((await failure(jsonFile)).message).toBe(
      `${jsonFile.shown}:21:3: $.caseFil: unknown key "caseFil" (did you mean "caseFile"?)`,
    );
  });

  it('names unknown keys in sut, rubric and fixture entries with suggestions from their own keys', async () => {
    let file = await write(yaml((l) => [...l.slice(0, 11), '  timout: 5', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(
      `${file.shown}:12:3: $.sut.timout: unknown key "timout" (did you mean "timeout"?)`,
    );
    // A misspelled required key: it is missing and unknown, and both are said, the misspelling (with its fix) first.
    file = await write(yaml((l) => l.map((line) => line.replace('version: 1', 'verison: 1'))));
    expect((await failure(file)).problems).toEqual([
      `${file.shown}:3:38: $.rubric.verison: unknown key "verison" (did you mean "version"?)`,
      `${file.shown}:3:9: $.rubric.version: is required`,
    ]);
    file = await write(yaml((l) => l.map((line) => line.replace('tag: heldout', 'tgs: heldout'))));
    expect((await failure(file)).message).toBe(
      `${file.shown}:8:35: $.fixtures[1].tgs: unknown key "tgs" (did you mean "tag"?)`,
    );
    const jsonFile = await write(
      json((q) => ((q.sut as Record<string, unknown>).exprt = 'run')),
      'json',
    );
    expect((await failure(jsonFile)).message).toBe(
      `${jsonFile.shown}:19:5: $.sut.exprt: unknown key "exprt" (did you mean "export"?)`,
    );
    // The known keys are the schema's own: a key added to a SUT kind (retries) is suggested too.
    file = await write(yaml((l) => [...l.slice(0, 11), '  retrys: 2', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(
      `${file.shown}:12:3: $.sut.retrys: unknown key "retrys" (did you mean "retries"?)`,
    );
    // A key near no known one gets no hint, as a table or column the database lacks gets none.
    file = await write(yaml((l) => [...l.slice(0, 11), '  zzzzzzzzzzqq: 2', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(`${file.shown}:12:3: $.sut.zzzzzzzzzzqq: unknown key "zzzzzzzzzzqq"`);
  });

  it('rejects a SUT type it does not know, naming the known ones', async () => {
    const file = await write(yaml((l) => l.map((line) => line.replace('type: command', 'type: shell'))));
    const error = await failure(file);
    expect(error.message).toMatch(new RegExp(`^${escapeRegExp(file.shown)}:10:9: \\$\\.sut\\.type: `));
    expect(error.message).toContain('use one of "command", "module", "http"');
  });

  it('rejects a SUT that is not an object and SUT values of the wrong type, at the value', async () => {
    let file = await write(yaml((l) => [...l.slice(0, 8), 'sut: node sut.mjs', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(
      `${file.shown}:9:6: $.sut: expected a map of keys to values, got "node sut.mjs"`,
    );
    file = await write(yaml((l) => [...l.slice(0, 11), '  timeout: "5"', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(`${file.shown}:12:12: $.sut.timeout: expected a number, got "5"`);
    file = await write(yaml((l) => [...l.slice(0, 9), '  type: module', ...l.slice(11)]));
    expect((await failure(file)).message).toBe(`${file.shown}:10:3: $.sut.path: is required`);
  });

  it('refuses a checks regex that only compiles without the u flag, at the entry; the same pattern with flags loads', async () => {
    // In YAML single quotes a backslash is itself: the pattern is deck\ 2, an invalid escape under the u flag.
    const file = await write(yaml((l) => [...l, 'checks:', '  matches:', "    - 'deck\\ 2'"]));
    const error = await failure(file);
    expect(error.code).toBe('BAD_INPUT');
    expect(error.problems).toHaveLength(1);
    expect(error.message).toMatch(
      new RegExp(
        `^${escapeRegExp(file.shown)}:15:7: \\$\\.checks\\.matches\\[0\\]: not a regular expression: .*Invalid escape`,
      ),
    );
    const jsonFile = await write(
      json((q) => (q.checks = { matches: ['deck\\ 2'] })),
      'json',
    );
    // "      "deck\\ 2"" on line 23: the value starts at column 7.
    expect((await failure(jsonFile)).message).toMatch(
      new RegExp(`^${escapeRegExp(jsonFile.shown)}:23:7: \\$\\.checks\\.matches\\[0\\]: not a regular expression: `),
    );

    const flagged = await write(
      yaml((l) => [...l, 'checks:', '  matches:', "    - { pattern: 'deck\\ 2', flags: i }"]),
    );
    const loaded = await loadQuestion(flagged.path);
    expect(loaded.question.checks?.matches).toEqual([{ pattern: 'deck\\ 2', flags: 'i' }]);
    expect(checkRegex(loaded.question.checks!.matches[0]!).test('Take the lift to Deck 2.')).toBe(true);
    expect(checkRegex(loaded.question.checks!.matches[0]!).test('Take the lift to Deck 3.')).toBe(false);
  });

  it('reports a YAML syntax error with its line and column', async () => {
    const file = await write('id: a\nquestion: [unclosed\nreps: 1\n');
    expect((await failure(file)).message).toMatch(new RegExp(`^${escapeRegExp(file.shown)}:3:1: invalid YAML: `));
    const indented = await write('id: a\n  bad: indent\n');
    expect((await failure(indented)).message).toMatch(
      new RegExp(`^${escapeRegExp(indented.shown)}:1:5: invalid YAML: Nested mappings`),
    );
  });

  it('reports a JSON syntax error with its line and column', async () => {
    const file = await write('{\n  "id": "a",\n  "question" "q"\n}\n', 'json');
    expect((await failure(file)).message).toBe(`${file.shown}:3:14: invalid JSON: colon expected`);
  });

  it('says when the file does not exist', async () => {
    const path = join(dir, 'missing.yaml');
    const error = await loadQuestion(path).then(
      () => undefined,
      (e: unknown) => e as TurnkitError,
    );
    expect(error).toBeInstanceOf(TurnkitError);
    expect(error!.code).toBe('NOT_FOUND');
    expect(error!.message).toBe(`${relative(process.cwd(), path)}: no such file`);
  });

  it('loads the committed sample question', async () => {
    const loaded = await loadQuestion(join(REPO, 'questions/places.yaml'));
    expect(loaded.question).toMatchObject({
      id: 'places',
      rubric: { path: 'questions/places-rubric.md', version: '1' },
      target: 0.88,
      reps: 10,
      fixtures: [
        { path: 'fixtures/meridian-turn-23.json', tag: 'dev' },
        { path: 'constructed/meridian-turn-23-deck-fixed.json', tag: 'dev' },
      ],
      sut: { type: 'command', command: ['node', 'examples/sample-sut.mjs'], timeout: 130, maxOutput: 131_072 },
      caseFile: 'questions/case-file.md',
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
