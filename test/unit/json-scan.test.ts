import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanJson } from '../../src/util/json/json-scan.js';
import { parseJsonText } from '../../src/util/json/json-source.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { shownPath } from '../../src/util/shown-path.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('scanning JSON text without recursion', () => {
  it('finds a repeated key, escapes decoded, and keys of nested and sibling objects apart', () => {
    expect(scanJson('{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}')).toEqual({});
    expect(scanJson('{"x": "a,b}", "\\u0061": 1, "a": 2}')).toEqual({ duplicate: { key: 'a', offset: 27 } });
    expect(scanJson('{"s": "quote \\" brace }", "s": 1}').duplicate?.key).toBe('s');
  });

  it('names where JSON nests past the limit, with the path to it; 100,000 levels give a value, not a stack overflow', () => {
    expect(scanJson('{"a": [1, {"b": [[2]]}]}', 3)).toEqual({ tooDeep: { offset: 16, path: ['a', 1, 'b'] } });
    const deep = `{"v": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(scanJson(deep).tooDeep?.path).toHaveLength(256);
    expect(() => parseJsonText(deep, 'd.json')).toThrow(
      'd.json:1:262: $.v[0][0][0][0][0][0][0]...: nested more than 256 levels deep (turnkit reads JSON up to 256 levels)',
    );
  });

  it('accepts a UTF-8 byte order mark, and positions after it stay right', () => {
    expect(parseJsonText('\ufeff{"a": 1}', 'b.json')).toEqual({ a: 1 });
    expect(() => parseJsonText('\ufeff{"a": 1, "a": 2}', 'b.json')).toThrow(
      'b.json:1:11: invalid JSON: duplicate key "a"',
    );
  });
});

describe('fixtures that used to overflow or be refused at 1:1', () => {
  let dir: string;
  let text: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-scan-'));
    text = await readFile(join(REPO, 'fixtures/meridian-turn-23.json'), 'utf8');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('a jsonb value nested 5,000 levels (objects) is one line naming the file, place and path', async () => {
    const file = join(dir, 'deep.json');
    await writeFile(
      file,
      text.replace('"settings": {', `"settings": {"a": ${'{"a": '.repeat(5000)}1${'}'.repeat(5000)}, `),
    );
    await expect(loadFixture(file)).rejects.toThrow(
      new RegExp(
        `^${shownPath(file)}:\\d+:\\d+: \\$\\.tables\\.campaigns\\.rows\\[0\\]\\.settings\\.a\\.a\\.a\\.\\.\\.: nested more than 256 levels deep`,
      ),
    );
  });

  it('a fixture saved with a byte order mark loads as without one', async () => {
    const file = join(dir, 'bom.json');
    await writeFile(file, `\ufeff${text}`);
    const loaded = await loadFixture(file);
    expect(loaded.fixture).toEqual(JSON.parse(text));
  });
});
