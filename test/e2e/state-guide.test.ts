import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleProject } from '../helpers/sample-project.js';
import { blocks, commands, FENCE } from '../helpers/guide-blocks.js';

const GUIDE = fileURLToPath(new URL('../../docs/guides/judge-by-the-database.md', import.meta.url));

describe('docs/guides/judge-by-the-database.md, its commands run as written', () => {
  let project: string;
  let guide: string;
  beforeAll(async () => {
    project = await sampleProject('turnkit-state-guide-');
    guide = await readFile(GUIDE, 'utf8');
  }, 120_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  const runAll = async (block: string, question: string, env: Record<string, string>): Promise<string> => {
    let stamp = 'STAMP';
    let last = '';
    for (const argv of commands(block, (word) => word)) {
      const filled = argv
        .map((word) => word.replace('STAMP', stamp))
        // capture --campaign "$(npx turnkit sample --turns 40)": the sample project's campaign 1.
        .filter((word, _i, all) => !(all[0] === 'capture' && ['turnkit', 'sample', '--turns', '40)"'].includes(word)))
        .map((word) => (word === '"$(npx' ? '1' : word));
      const result = await runInProcess(filled, { cwd: project, env });
      expect(result.code, `${filled.join(' ')}\n${result.stderr}`).toBe(0);
      if (filled[0] === 'run') stamp = (await readdir(join(project, 'runs', question)))[0]!;
      last = result.stdout;
    }
    return last;
  };

  it('runs the expected-state question and prints each screen as the guide shows', async () => {
    const [state, rollout] = blocks(guide, 'yaml');
    await writeFile(join(project, 'questions/state.yaml'), state!);
    await writeFile(join(project, 'questions/state-rollout.yaml'), rollout!);
    const [first, second] = blocks(guide, 'sh');
    const env = { TURNKIT_SCRUB_KEY: 'a-key-for-the-state-guide-test', DATABASE_URL: '' };
    const report = await runAll(first!, 'state', env);
    const table = guide
      .split(`Each rule is a screen with its own denominator:\n\n${FENCE}\n`)[1]!
      .split(FENCE)[0]!
      .trimEnd()
      .split('\n');
    const lines = report.split('\n');
    const at = lines.indexOf(table[0]!);
    expect(at, report).toBeGreaterThan(0);
    expect(lines.slice(at, at + table.length)).toEqual(table);

    const rolloutReport = await runAll(second!, 'state-rollout', env);
    const shown = guide
      .split('below the survival table, how many probes the narration agreed with at each turn:\n\n```\n')[1]!
      .split(FENCE)[0]!;
    expect(rolloutReport, rolloutReport).toContain(shown.trimEnd());
  }, 600_000);
});
