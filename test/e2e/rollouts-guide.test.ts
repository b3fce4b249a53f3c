import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleProject } from '../helpers/sample-project.js';
import { blocks, commands } from '../helpers/guide-blocks.js';

const GUIDE = fileURLToPath(new URL('../../docs/guides/rollouts.md', import.meta.url));

describe('docs/guides/rollouts.md, its commands run as written', () => {
  let project: string;
  let guide: string;
  beforeAll(async () => {
    // The sample project has campaign 1 (`turnkit sample --turns 40`), so the capture's $(...) is that key.
    project = await sampleProject('turnkit-rollouts-guide-');
    guide = await readFile(GUIDE, 'utf8');
  }, 120_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('captures with --ahead, runs the rollout, judges and reports its survival', async () => {
    const env = { TURNKIT_SCRUB_KEY: 'a-key-for-the-rollouts-guide-test', DATABASE_URL: '' };
    const [setup, run] = blocks(guide, 'sh');
    const first = commands(setup!, (word) => (word === '"$(npx' ? '1' : word)).map((argv) =>
      argv.filter((word) => !['turnkit', 'sample', '--turns', '40)"'].includes(word) || argv[0] !== 'capture'),
    );
    // capture --campaign 1 --turn 23 --ahead 4 --name meridian-ahead; show the fixture.
    expect(first[0]).toEqual([
      'capture',
      '--campaign',
      '1',
      '--turn',
      '23',
      '--ahead',
      '4',
      '--name',
      'meridian-ahead',
    ]);
    for (const argv of first) {
      const result = await runInProcess(argv, { cwd: project, env });
      expect(result.code, result.stderr).toBe(0);
      if (argv[0] === 'show') expect(result.stdout).toContain('recorded inputs ahead (turns 24..26):');
    }
    await writeFile(join(project, 'questions/places-rollout.yaml'), blocks(guide, 'yaml')[0]!);
    let stamp = 'STAMP';
    const argvs = commands(run!, (word) => word.replace('STAMP', stamp));
    const ran = await runInProcess(argvs[0]!, { cwd: project, env });
    expect(ran.code, ran.stderr).toBe(0);
    stamp = (await readdir(join(project, 'runs/places-rollout')))[0]!;
    for (const argv of commands(run!, (word) => word.replace('STAMP', stamp)).slice(1)) {
      const result = await runInProcess(argv, { cwd: project, env });
      expect(result.code, result.stderr).toBe(0);
      if (argv[0] === 'report') {
        // The guide's survival table is the report's, line for line.
        const shown = guide.split('```\nSurvival over')[1]!.split('```')[0]!;
        const table = `Survival over${shown}`.trimEnd().split('\n');
        const lines = result.stdout.split('\n');
        const at = lines.indexOf(table[0]!);
        expect(at, result.stdout).toBeGreaterThan(0);
        expect(lines.slice(at, at + table.length)).toEqual(table);
      }
    }
  });
});
