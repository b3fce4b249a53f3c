import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runQuestion } from '../../src/app/run-question.js';
import { asCommand } from '../helpers/as-command.js';
import { verify } from '../../src/pipeline/verify.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

// Refused before a database is opened or a rep is planned: no database needed.
describe('the size of a run', () => {
  let dir: string;
  const question = (reps: number): string =>
    `id: big\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${reps}\nfixtures: ["fixtures/*.json"]\nsut: { type: command, command: [node] }\ncaseFile: case.md\n`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'turnkit-limits-'));
    await mkdir(join(dir, 'fixtures'));
    const fixture = JSON.parse(await readFile(join(REPO, 'fixtures/meridian-turn-23.json'), 'utf8'));
    for (const name of 'abcdefghijkl'.split(''))
      await writeFile(join(dir, 'fixtures', `${name}.json`), `${JSON.stringify({ ...fixture, name }, null, 2)}\n`);
    await writeFile(join(dir, 'rubric.md'), 'pass\n');
    await writeFile(join(dir, 'case.md'), '{{input}}\n');
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('refuses fixtures x reps above 100,000 (12 x 9,000), from the file or from --reps, naming the place; nothing is written', async () => {
    await writeFile(join(dir, 'q.yaml'), question(9_000));
    await expect(runQuestion({ question: 'q.yaml', cwd: dir })).rejects.toThrow(
      `q.yaml:5:7: $.reps: 12 fixtures x 9000 reps = 108000 reps; at most 100000 per run (a run plans every rep before the first one starts, and keeps two files per rep and a row of marks.csv): use fewer reps, or split the fixtures across questions`,
    );
    await writeFile(join(dir, 'q.yaml'), question(2));
    await expect(runQuestion({ question: 'q.yaml', cwd: dir, reps: 9_000 })).rejects.toThrow(
      /^--reps 9000: 12 fixtures x 9000 reps = 108000 reps/,
    );
    await expect(runQuestion({ question: 'q.yaml', cwd: dir, reps: 100_000_000 })).rejects.toThrow(
      /^--reps 100000000: at most 10000 reps per fixture/,
    );
    expect(existsSync(join(dir, 'runs'))).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['case.md', 'fixtures', 'q.yaml', 'rubric.md']);
  });

  it('verify says the same of the question file', async () => {
    await writeFile(join(dir, 'q.yaml'), question(9_000));
    const result = await asCommand(verify, { cwd: dir, paths: ['q.yaml'], env: process.env });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(
      /q\.yaml:5:7: \$\.reps: 12 fixtures x 9000 reps = 108000 reps; at most 100000 per run/,
    );
  });
});
