import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runInProcess } from '../helpers/cli-in-process.js';
import { sampleRunProject } from '../helpers/sample-project.js';
import type { Report } from '../../src/report/build-report.js';

// Every variable a shard may be read from, unset unless a case sets it.
const CLEAN = { JOB_COMPLETION_INDEX: '', TURNKIT_SHARD: '', TURNKIT_SHARD_COUNT: '', GITHUB_RUN_ID: '' };

describe('run --shard auto and merge of a folder of shards', () => {
  let project: string;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runInProcess(args, { cwd: project, env: { ...CLEAN, TURNKIT_RUN_ID: 'job-a', ...env } });
  const shard = async (env: Record<string, string>, spec = 'auto') => {
    const result = await cli(['run', 'questions/places.yaml', '--reps', '2', '--shard', spec, '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { dir: string }).dir;
  };

  beforeAll(async () => {
    project = await sampleRunProject('turnkit-shard-auto-');
    // Shards are what is tested, not the SUT: one answering in process rather than a node process per rep.
    await writeFile(join(project, 'answer.mjs'), "export default () => 'Take the lift to deck 2.';\n");
    const question = await readFile(join(project, 'questions/places.yaml'), 'utf8');
    const command = '\nsut:\n  type: command\n  command: [node, examples/sample-sut.mjs]\n  timeout: 130\n';
    expect(question).toContain(command);
    await writeFile(
      join(project, 'questions/places.yaml'),
      question.replace(command, '\nsut:\n  type: module\n  path: answer.mjs\n  export: default\n'),
    );
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('reads the shard from each variable, names its directory by the run, and merges the folder once complete', async () => {
    expect(await shard({ JOB_COMPLETION_INDEX: '0', TURNKIT_SHARD_COUNT: '3' })).toBe('runs/places/job-a-shard-1-of-3');
    expect(await shard({ TURNKIT_SHARD: '2/3' })).toBe('runs/places/job-a-shard-2-of-3');

    // Shard 3 has not run: the folder's merge says which is missing, in one line, and writes nothing.
    const early = await cli(['merge', 'runs/places']);
    expect(early.code).toBe(1);
    expect(early.stderr).toBe('shard 3/3 missing: merge needs every shard of the run\n');
    expect((await readdir(join(project, 'runs/places'))).sort()).toEqual(['job-a-shard-1-of-3', 'job-a-shard-2-of-3']);

    expect(await shard({ JOB_COMPLETION_INDEX: '2' }, 'auto/3')).toBe('runs/places/job-a-shard-3-of-3');
    const merged = await cli(['merge', 'runs/places', '--out', 'runs/places/job-a', '--json']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout)).toMatchObject({ dir: 'runs/places/job-a', shards: 3, reps: 4 });
    const report = JSON.parse((await cli(['report', 'runs/places/job-a', '--json'])).stdout).report as Report;
    expect(report.complete).toBe(true);
    expect(report.fixtures.map((fixture) => fixture.reps)).toEqual([2, 2]);

    // A glob of the shard directories merges the same way (the merged run in the folder is not a shard).
    const again = await cli(['merge', 'runs/places/job-a-shard-*', '--out', 'runs/places/job-a-glob', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ shards: 3, reps: 4 });
  });

  it('refuses a folder holding a shard twice (two CI artifacts of one shard), naming both, in one line', async () => {
    await mkdir(join(project, 'artifacts/shard-2-retry'), { recursive: true });
    await cp(
      join(project, 'runs/places/job-a-shard-2-of-3'),
      join(project, 'artifacts/shard-2-retry/job-a-shard-2-of-3'),
      { recursive: true },
    );
    const result = await cli(['merge', 'runs/places', 'artifacts']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'artifacts/shard-2-retry/job-a-shard-2-of-3: shard 2/3 is also runs/places/job-a-shard-2-of-3\n',
    );
  });

  it('names, in one line, every shard a folder lacks and every one there unfinished', async () => {
    for (const index of [1, 2])
      await cp(
        join(project, `runs/places/job-a-shard-${index}-of-3`),
        join(project, `partial/job-a-shard-${index}-of-3`),
        { recursive: true },
      );
    const manifestFile = join(project, 'partial/job-a-shard-1-of-3/manifest.json');
    const manifest = JSON.parse(await readFile(manifestFile, 'utf8'));
    await writeFile(manifestFile, `${JSON.stringify({ ...manifest, status: 'interrupted' }, null, 2)}\n`);
    const result = await cli(['merge', 'partial']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'shard 3/3 missing: merge needs every shard of the run; partial/job-a-shard-1-of-3: shard 1/3 is interrupted; finish it with turnkit run --resume partial/job-a-shard-1-of-3 first\n',
    );
  });

  it('--shard auto with nothing in the environment is wrong usage saying what to set', async () => {
    const result = await cli(['run', 'questions/places.yaml', '--shard', 'auto']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      '--shard auto: no shard in the environment: set JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) with TURNKIT_SHARD_COUNT, or TURNKIT_SHARD=I/N\n',
    );
  });
});
