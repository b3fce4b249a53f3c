import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleProject } from '../helpers/sample-project.js';

const GUIDE = fileURLToPath(new URL('../../docs/guides/mark-and-judge.md', import.meta.url));
const FENCE = '```';

/** The fenced blocks of one language in the guide's tool section, in order. */
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`${FENCE}${language}\\n([\\s\\S]*?)${FENCE}`, 'g'))].map((match) => match[1]!);
}

describe('docs/guides/mark-and-judge.md, its tool-using SUT run as written', () => {
  let project: string;
  let section: string;
  beforeAll(async () => {
    project = await sampleProject('turnkit-tools-guide-');
    section = (await readFile(GUIDE, 'utf8')).split('## A SUT that acts through tools')[1]!;
  }, 120_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('records the calls, lists them in the rep file, and judge --checks passes every screen', async () => {
    await writeFile(join(project, 'gm-tools.mjs'), blocks(section, 'js')[0]!);
    // The guide's question is the sample question with the guide's SUT, checks and tools.
    const base = parse(await readFile(join(project, 'questions/places.yaml'), 'utf8')) as Record<string, unknown>;
    const given = parse(blocks(section, 'yaml')[0]!) as Record<string, unknown>;
    await writeFile(
      join(project, 'questions/places-tools.yaml'),
      stringify({ ...base, id: 'places-tools', reps: 2, ...given }),
    );
    const lines = blocks(section, 'sh')[0]!
      .split('\n')
      .filter((line) => line.startsWith('npx turnkit '))
      .map((line) => line.slice('npx turnkit '.length).split(/\s+/));
    const env = { DATABASE_URL: '' };
    const ran = await runInProcess(lines[0]!, { cwd: project, env });
    expect(ran.code, ran.stderr).toBe(0);
    const stamp = (await readdir(join(project, 'runs/places-tools')))[0]!;
    for (const argv of lines.slice(1)) {
      const result = await runInProcess(
        argv.map((word) => word.replace('STAMP', stamp)),
        { cwd: project, env },
      );
      expect(result.code, result.stderr).toBe(0);
    }
    const dir = join(project, 'runs/places-tools', stamp);
    const fixtures = await readdir(join(dir, 'reps'));
    const markdown = await readFile(join(dir, 'reps', fixtures[0]!, 'rep-01.md'), 'utf8');
    expect(markdown).toContain('## Tool calls\n\n1. `find_location {"deck":2} → [');
    expect(markdown).toContain('2. `record_fact {"subject":"mess hall"} → {"ok":true}`');
    const marks = (await readFile(join(dir, 'marks.checks.csv'), 'utf8')).trim().split('\n').slice(1);
    expect(marks.length).toBeGreaterThan(0);
    for (const row of marks) expect(row).toMatch(/,pass,5 check\(s\) passed$/);
  });
});
