import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unsampledProject } from '../helpers/sample-project.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = join(REPO, 'docs/guides/testing-your-game.md');

/** The guide's fenced blocks of one language, in order. */
const FENCE = '```';
function blocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`${FENCE}${language}\\n([\\s\\S]*?)${FENCE}`, 'g'))].map((match) => match[1]!);
}

// vitest's default 5 s per test is too short on a loaded machine for a first start of the embedded database.
const LOADED = ['--testTimeout', '120000', '--hookTimeout', '180000'];

/** Runs vitest (the repository's) in a folder on one file; resolves to its exit code and output. */
function vitest(cwd: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', file, ...LOADED], {
      cwd,
      // The guide's block reads TEST_DATABASE_URL: unset, the project's embedded database.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', CI: '1', NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('docs/guides/testing-your-game.md, its code run as written', () => {
  let project: string;
  beforeAll(async () => {
    // The sample project (fixtures, the embedded database with the sample schema), where a game's own suite lives:
    // turnkit and vitest installed by name, as `npm install --save-dev turnkit vitest` leaves them.
    project = await unsampledProject('turnkit-testing-guide-');
    await rm(join(project, 'node_modules'));
    await mkdir(join(project, 'node_modules'));
    await symlink(REPO, join(project, 'node_modules/turnkit'), 'dir');
    await symlink(join(REPO, 'node_modules/vitest'), join(project, 'node_modules/vitest'), 'dir');
    await writeFile(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  }, 120_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("runs the guide's test file: a scratch campaign of the fixture, queried with campaign.db.query", async () => {
    const [code] = blocks(await readFile(GUIDE, 'utf8'), 'ts');
    expect(code).toContain('campaign.db.query(');
    await writeFile(join(project, 'game.test.ts'), code!);
    const ran = await vitest(project, 'game.test.ts');
    expect(ran.output.replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+1 passed \(1\)/);
    expect(ran.code, ran.output).toBe(0);
  }, 300_000);
});
