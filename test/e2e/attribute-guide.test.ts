import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleProject } from '../helpers/sample-project.js';

const GUIDE = fileURLToPath(new URL('../../docs/guides/find-the-misleading-turn.md', import.meta.url));
const FENCE = '```';

describe('docs/guides/find-the-misleading-turn.md, its command run as written', () => {
  let project: string;
  let guide: string;
  beforeAll(async () => {
    project = await sampleProject('turnkit-attribute-guide-');
    guide = await readFile(GUIDE, 'utf8');
  }, 120_000);
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('attributes the demo fixture with the sample SUT: turn 19 first, the output as the guide shows it', async () => {
    const command = guide.split(`${FENCE}sh\n`)[1]!.split(FENCE)[0]!.trim();
    expect(command.startsWith('npx turnkit attribute ')).toBe(true);
    const argv = command.slice('npx turnkit '.length).split(/\s+/);
    const result = await runInProcess(argv, { cwd: project, env: { DATABASE_URL: '' } });
    expect(result.code, result.stderr).toBe(0);
    const stamp = (await readdir(join(project, 'runs/places')))
      .find((name) => name.startsWith('attribute-meridian-turn-23-'))!
      .slice('attribute-meridian-turn-23-'.length);
    const shown = guide.split(`${FENCE}\nruns/places/attribute-`)[1]!.split(FENCE)[0]!;
    const expected = `runs/places/attribute-${shown}`.replaceAll('STAMP', stamp);
    expect(result.stdout).toBe(expected);
    expect(result.stdout.split('\n')[3]).toMatch(/^1 +turn 19 /);
    // Each look's progress went to stderr, and each look's counts.
    expect(result.stderr).toMatch(/look 1 passed: base \d+\/10; variants( \d+\/10){8}/);

    const dir = `runs/places/attribute-meridian-turn-23-${stamp}`;
    const saved = await runInProcess(['attribute', '--resume', dir, '--save'], {
      cwd: project,
      env: { DATABASE_URL: '' },
    });
    expect(saved.code, saved.stderr).toBe(0);
    // Counted again from the finished looks: the same ranking, no new look.
    expect(saved.stdout).toContain(expected.split('\n').slice(1, 13).join('\n'));
    expect(saved.stdout).toContain('saved constructed/meridian-turn-23-no-t19.json');
    expect(await readdir(join(project, dir, 'looks'))).toEqual(['look-1', 'look-2']);
    const show = await runInProcess(['show', 'constructed/meridian-turn-23-no-t19.json'], { cwd: project });
    expect(show.code, show.stderr).toBe(0);
    const json = await runInProcess(['attribute', '--resume', dir, '--json'], {
      cwd: project,
      env: { DATABASE_URL: '' },
    });
    const data = JSON.parse(json.stdout) as { significant: string[]; ranking: { label: string; pass: number }[] };
    expect(data.significant).toEqual(['turn 19']);
    expect(data.ranking[0]).toMatchObject({ label: 'turn 19', pass: 19 });
    expect(existsSync(join(project, dir, 'attribution.html'))).toBe(true);
  }, 600_000);
});
