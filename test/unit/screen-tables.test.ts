import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/format.js';
import { checkGameTables } from '../../src/checks/checks-tables.js';
import { loadQuestion } from '../../src/question/load-question.js';

const FIXTURE = {
  name: 'f',
  tables: { jobs: { columns: [{ name: 'id' }, { name: 'pump' }], primaryKey: ['id'], foreignKeys: [], rows: [] } },
} as unknown as Fixture;

describe('tables named by tool effects and hidden rows', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-screen-tables-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const question = async (lines: string[]) => {
    const file = join(dir, `q${Math.random().toString(36).slice(2)}.yaml`);
    await writeFile(
      file,
      [
        'id: q',
        'question: Q?',
        'rubric: { path: r.md, version: 1 }',
        'target: 0.9',
        'reps: 1',
        'fixtures: [f.json]',
        'sut: { type: command, command: [node, sut.mjs] }',
        'caseFile: c.md',
        ...lines,
        '',
      ].join('\n'),
    );
    return loadQuestion(file);
  };

  it('accepts the game’s tables and columns', async () => {
    const q = await question([
      'tools: { effects: [{ tool: create_job, table: jobs }] }',
      'hidden: [{ table: jobs, where: { pump: P-1 }, columns: [pump] }]',
    ]);
    expect(() => checkGameTables(q, [FIXTURE])).not.toThrow();
  });

  it('refuses a table or a column the game lacks, at its place in the file', async () => {
    const effect = await question(['tools: { effects: [{ tool: create_job, table: job }] }']);
    expect(() => checkGameTables(effect, [FIXTURE])).toThrow(
      /q\w+\.yaml:9:\d+: \$\.tools\.effects\[0\]\.table: the game has no table job \(its fixtures have jobs\)$/,
    );
    const column = await question(['hidden: [{ table: jobs, columns: [notes] }]']);
    expect(() => checkGameTables(column, [FIXTURE])).toThrow(
      /\$\.hidden\[0\]\.columns\[0\]: the table jobs has no column notes$/,
    );
    const where = await question(['hidden: [{ table: jobs, where: { secret: true }, columns: [pump] }]']);
    expect(() => checkGameTables(where, [FIXTURE])).toThrow(
      /\$\.hidden\[0\]\.where\.secret: the table jobs has no column secret$/,
    );
  });

  it('a mistake in tools: or hidden: is one line with its place', async () => {
    const fails = async (lines: string[]) => {
      try {
        await question(lines);
      } catch (error) {
        return (error as Error).message.replace(/^.*?q\w+\.yaml/, 'q.yaml');
      }
      throw new Error('expected a refusal');
    };
    expect(await fails(['tools: { required: [{ tool: a, exactly: 1, atMost: 2 }] }'])).toMatch(
      /^q\.yaml:9:\d+: \$\.tools\.required\[0\]: exactly cannot go with atLeast or atMost$/,
    );
    expect(await fails(['tools: { forbiden: [{ tool: a }] }'])).toBe(
      'q.yaml:9:10: $.tools.forbiden: unknown key "forbiden" (did you mean "forbidden"?)',
    );
    expect(await fails(['hidden: [{ table: t, columns: [] }]'])).toMatch(
      /\$\.hidden\[0\]\.columns: name at least one column$/,
    );
  });
});
