import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CliResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleRunProject } from '../helpers/sample-project.js';

const LEDGER = 'heldout-ledger.jsonl';

describe('the held-out ledger through the CLI', () => {
  let project: string;
  let heldRun: string;
  let devRun: string;
  const cli = (args: string[]): Promise<CliResult> => runInProcess(args, { cwd: project });
  const lines = async (): Promise<Record<string, unknown>[]> =>
    existsSync(join(project, LEDGER))
      ? (await readFile(join(project, LEDGER), 'utf8'))
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];

  beforeAll(async () => {
    project = await sampleRunProject('turnkit-e2e-heldout-');
    // The sample question with its base fixture held out; the repo's own question keeps both as dev.
    const places = await readFile(join(project, 'questions/places.yaml'), 'utf8');
    const held = places
      .replace('id: places', 'id: places-held')
      .replace(
        'path: fixtures/meridian-turn-23.json\n    tag: dev',
        'path: fixtures/meridian-turn-23.json\n    tag: heldout',
      );
    expect(held).toContain('tag: heldout');
    await writeFile(join(project, 'questions/places-held.yaml'), held);
    const dev = await cli(['run', 'questions/places.yaml', '--reps', '2', '--json']);
    expect(dev.code, dev.stderr).toBe(0);
    devRun = (JSON.parse(dev.stdout) as { dir: string }).dir;
    expect(await lines()).toEqual([]);
    const result = await cli(['run', 'questions/places-held.yaml', '--reps', '2', '--json']);
    expect(result.code, result.stderr).toBe(0);
    heldRun = (JSON.parse(result.stdout) as { dir: string }).dir;
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('run of a question with a held-out fixture is the first line: who, when, what, which fixtures', async () => {
    const [first, ...rest] = await lines();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ command: 'run', use: 'look', fixtures: ['meridian-turn-23'], targets: [heldRun] });
    expect(typeof first!.who).toBe('string');
    expect((first!.who as string).length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(first!.at as string))).toBe(false);
  });

  it('grows by one line per command touching held-out fixtures, and not at all for one that touches none', async () => {
    const before = (await lines()).length;
    const report = await cli(['report', heldRun]);
    expect(await lines()).toHaveLength(before + 1);
    // The report says how often the set was looked at since it was frozen (the first line): run, then this report.
    expect(report.stdout).toContain(
      `held-out set: looked at ${before + 1} time(s) by 1 person(s) since it was frozen at ${(await lines())[0]!.at}`,
    );
    const judged = await cli(['judge', heldRun, '--checks']);
    expect(judged.code, judged.stderr).toBe(0);
    expect(await lines()).toHaveLength(before + 2);
    expect((await lines()).at(-1)).toMatchObject({ command: 'judge', fixtures: ['meridian-turn-23'] });
    const json = await cli(['report', heldRun, '--marks', 'marks.checks.csv', '--json']);
    expect((JSON.parse(json.stdout) as { heldoutLooks: { looks: number } }).heldoutLooks.looks).toBe(before + 3);
    // The dev-only run: no line, and its report says nothing of the held-out set.
    const devReport = await cli(['report', devRun]);
    expect(devReport.stdout).not.toContain('held-out set');
    expect(await cli(['judge', devRun, '--checks'])).toMatchObject({ code: 0 });
    expect(await lines()).toHaveLength(before + 3);
  });

  it('construct from a held-out fixture warns that it becomes a debugging example and records it; from a dev one, not', async () => {
    const before = (await lines()).length;
    await writeFile(
      join(project, 'patch.json'),
      '{"turns": [{"id": "19", "narration": "The mess hall is on deck 2."}]}',
    );
    const held = await cli([
      'construct',
      'fixtures/meridian-turn-23.json',
      '--turn',
      '19',
      '--patch',
      'patch.json',
      '--name',
      'from-held',
      '--why',
      'debugging',
    ]);
    expect(held.code, held.stderr).toBe(0);
    expect(held.stderr).toContain('warning: fixtures/meridian-turn-23.json is held out by places-held');
    expect(held.stderr).toContain('debugging example');
    expect(await lines()).toHaveLength(before + 1);
    expect((await lines()).at(-1)).toMatchObject({
      command: 'construct',
      use: 'debug-example',
      targets: ['fixtures/meridian-turn-23.json'],
    });
    const dev = await cli([
      'construct',
      'constructed/meridian-turn-23-deck-fixed.json',
      '--turn',
      '19',
      '--patch',
      'patch.json',
      '--name',
      'from-dev',
      '--why',
      'debugging',
    ]);
    expect(dev.code, dev.stderr).toBe(0);
    expect(dev.stderr).not.toContain('held out');
    expect(await lines()).toHaveLength(before + 1);
    // The report counts the example apart from the looks.
    const report = await cli(['report', heldRun]);
    expect(report.stdout).toContain('1 debugging example(s) made from it');
  });
});
