import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { runInProcess } from '../helpers/cli-in-process.js';
import type { CliResult } from '../helpers/cli.js';
import { xmllintSchema } from '../helpers/ci-run.js';
import { copySampleFiles } from '../helpers/sample-project.js';
import type { Report } from '../../src/report/build-report.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMA = fileURLToPath(new URL('../helpers/junit.xsd', import.meta.url));
// What a runner or a pod starts with: none of the variables turnkit reads for shards, names or summaries.
const CLEAN = {
  JOB_COMPLETION_INDEX: '',
  TURNKIT_SHARD: '',
  TURNKIT_SHARD_COUNT: '',
  TURNKIT_RUN_ID: '',
  GITHUB_RUN_ID: '',
  GITHUB_RUN_ATTEMPT: '',
  GITHUB_STEP_SUMMARY: '',
};

// The sample SUT's game master as a module SUT: the same reads and the same turn played, through the scratch
// campaign's pool it is given, without a node process per rep (eight of them made this file twice as slow). The
// recipes do not depend on the kind of SUT; examples/sample-sut.mjs as a process is covered by the run tests.
const MODULE_SUT = `
export default async function gameMaster(request, { db }) {
  const recent = await db.query(
    'SELECT turn_number, narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 8',
    [request.campaign],
  );
  const misled = recent.rows.some((row) => /mess hall[^.]*deck 3/i.test(row.narration ?? ''));
  const response = misled && request.rep === 1
    ? 'The mess hall is right here on deck 3.'
    : 'You take the lift up to deck 2 and walk past the crew berths to the mess hall.';
  await db.query(
    'INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, $2, $3, $4, now(), 0)',
    [request.campaign, (recent.rows[0]?.turn_number ?? 0) + 1, Object.values(request.input).join(' '), response],
  );
  return response;
}
`;
const COMMAND_SUT = '\nsut:\n  type: command\n  command: [node, examples/sample-sut.mjs]\n  timeout: 130\n';

/** A workflow step: an action it uses, or a command it runs. */
interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, string>;
}

describe('the CI recipes of examples/ci run as written', () => {
  let root: string;
  let n = 0;

  /**
   * A runner's (or pod's) checkout of the sample project, with its own embedded database; the question at 2 reps,
   * its SUT in process.
   */
  const runner = async (database: 'empty' | 'migrated' = 'migrated'): Promise<string> => {
    const dir = join(root, `runner-${++n}`);
    await mkdir(dir, { recursive: true });
    // A GitHub runner starts from a fresh checkout (no database: its steps make one); a pod from an image that holds it.
    if (database === 'migrated') await copyEmbedded(dir, 'sample');
    await copySampleFiles(dir);
    await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const question = await readFile(join(dir, 'questions/places.yaml'), 'utf8');
    expect(question).toContain('\nreps: 10\n');
    expect(question).toContain(COMMAND_SUT);
    await writeFile(join(dir, 'game-master.mjs'), MODULE_SUT);
    await writeFile(
      join(dir, 'questions/places.yaml'),
      question
        .replace('\nreps: 10\n', '\nreps: 2\n')
        .replace(COMMAND_SUT, '\nsut:\n  type: module\n  path: game-master.mjs\n  export: default\n'),
    );
    return dir;
  };

  /** Runs `npx turnkit ARGS...` in process as the runner would run it. */
  const turnkit = (command: string, cwd: string, env: Record<string, string>): Promise<CliResult> => {
    const words = command.trim().split(/\s+/);
    expect(words.slice(0, 2), command).toEqual(['npx', 'turnkit']);
    return runInProcess(words.slice(2), { cwd, env: { ...CLEAN, ...env } });
  };

  /** The merged report's verdicts under the checks' marks, and the exit code `report --check` owes them. */
  const expectedCheck = async (cwd: string, dir: string): Promise<{ code: number; report: Report }> => {
    const result = await runInProcess(['report', dir, '--marks', 'marks.checks.csv', '--json'], { cwd, env: CLEAN });
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout).report as Report;
    return { code: report.fixtures.some((fixture) => fixture.verdict !== 'met') ? 1 : 0, report };
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'turnkit-ci-recipes-'));
  });
  afterAll(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('GitHub Actions: a matrix of shards uploading their runs, then merge, checks, JUnit, summary and --check', async () => {
    const workflow = parse(await readFile(join(REPO, 'examples/ci/github-actions.yml'), 'utf8'));
    const shardJob = workflow.jobs.shard;
    const matrix = shardJob.strategy.matrix.shard as number[];
    expect(matrix).toEqual([1, 2, 3]);
    const artifacts = join(root, 'artifacts');
    // What GitHub sets on every runner of one workflow run.
    const github = { GITHUB_RUN_ID: '4242', GITHUB_RUN_ATTEMPT: '1' };
    const expand = (text: string, shard: number): string =>
      text
        .replaceAll('${{ matrix.shard }}', String(shard))
        .replaceAll('${{ strategy.job-total }}', String(matrix.length));

    for (const shard of matrix) {
      const cwd = await runner('empty');
      const env: Record<string, string> = {
        ...github,
        ...Object.fromEntries(
          Object.entries(shardJob.env as Record<string, string>).map(([k, v]) => [k, expand(v, shard)]),
        ),
      };
      expect(env.TURNKIT_SHARD).toBe(`${shard}/3`);
      for (const step of shardJob.steps as Step[]) {
        if (step.uses?.startsWith('actions/checkout') || step.uses?.startsWith('actions/setup-node')) continue;
        if (step.run === 'npm ci') continue;
        if (step.uses?.startsWith('actions/upload-artifact')) {
          expect(step.with!.path).toBe('runs/');
          await cp(join(cwd, 'runs'), join(artifacts, expand(step.with!.name!, shard)), { recursive: true });
          continue;
        }
        const result = await turnkit(step.run!, cwd, env);
        expect(result.code, `${step.run}: ${result.stderr}`).toBe(0);
      }
      // The shard's directory is named after the workflow run: the artifacts of its shards never collide.
      expect(await readdir(join(artifacts, `turnkit-shard-${shard}`, 'places'))).toEqual([
        `gh-4242-1-shard-${shard}-of-3`,
      ]);
    }

    const cwd = await runner();
    const summary = join(root, 'step-summary.md');
    await writeFile(summary, '');
    const steps = workflow.jobs.merge.steps as Step[];
    const runs = steps.filter((step) => step.run !== undefined && step.run !== 'npm ci');
    for (const step of steps) {
      if (step.uses?.startsWith('actions/download-artifact')) {
        expect(step.with).toEqual({ pattern: 'turnkit-shard-*', path: 'shards' });
        for (const name of await readdir(artifacts))
          await cp(join(artifacts, name), join(cwd, 'shards', name), { recursive: true });
        continue;
      }
      if (step.run === undefined || step.run === 'npm ci') continue;
      const result = await turnkit(step.run, cwd, { ...github, GITHUB_STEP_SUMMARY: summary });
      if (step === runs.at(-1)) {
        // The report step: its exit code is --check's verdict on the merged, checked run.
        expect(step.run).toContain('--check');
        const { code, report } = await expectedCheck(cwd, 'merged');
        expect(report.complete).toBe(true);
        expect(report.fixtures.map((fixture) => fixture.reps)).toEqual([2, 2]);
        expect(result.code, result.stderr).toBe(code);
        const missed = report.fixtures.filter((fixture) => fixture.verdict === 'missed');
        expect(result.stdout.split('\n').filter((line) => line.startsWith('::error '))).toHaveLength(missed.length);
        await expect(xmllintSchema(join(cwd, 'turnkit-junit.xml'), SCHEMA)).resolves.toContain('validates');
        const xml = await readFile(join(cwd, 'turnkit-junit.xml'), 'utf8');
        expect(xml).toContain(
          `<testsuites name="places" tests="2" failures="${missed.length}" errors="0" skipped="0">`,
        );
        expect(await readFile(summary, 'utf8')).toMatch(/^# places: /);
      } else expect(result.code, `${step.run}: ${result.stderr}`).toBe(0);
    }
    // Eight shards, a merge and the checks run one after another: on a loaded 2-core host this took over 120 s.
  }, 300_000);

  it('Kubernetes: an Indexed Job of shards on a shared volume, then the merge Job', async () => {
    const [claim, job] = parseAllDocuments(await readFile(join(REPO, 'examples/ci/kubernetes-job.yaml'), 'utf8')).map(
      (document) => document.toJS(),
    );
    expect(claim.kind).toBe('PersistentVolumeClaim');
    expect(job.spec.completionMode).toBe('Indexed');
    const container = job.spec.template.spec.containers[0];
    const mount = container.volumeMounts[0].mountPath as string;
    expect(mount).toBe(`${container.workingDir}/runs`);
    expect(job.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const env = Object.fromEntries((container.env as { name: string; value: string }[]).map((e) => [e.name, e.value]));
    const shared = join(root, 'volume');
    await mkdir(shared);

    // One pod per index, each with its own embedded database, all writing onto the shared volume.
    for (let index = 0; index < job.spec.completions; index++) {
      const cwd = await runner();
      await symlink(shared, join(cwd, 'runs'), 'dir');
      const result = await turnkit((container.command as string[]).join(' '), cwd, {
        ...env,
        JOB_COMPLETION_INDEX: String(index),
      });
      expect(result.code, result.stderr).toBe(0);
    }
    expect((await readdir(join(shared, 'places'))).sort()).toEqual([
      'turnkit-shards-1-shard-1-of-3',
      'turnkit-shards-1-shard-2-of-3',
      'turnkit-shards-1-shard-3-of-3',
    ]);

    const merge = parse(await readFile(join(REPO, 'examples/ci/kubernetes-merge-job.yaml'), 'utf8'));
    const mergeContainer = merge.spec.template.spec.containers[0];
    expect(mergeContainer.volumeMounts[0].mountPath).toBe(mount);
    const [shell, flag, script] = mergeContainer.command as string[];
    expect([shell, flag]).toEqual(['sh', '-c']);
    const lines = script!.trim().split('\n');
    expect(lines[0]).toBe('set -e');
    const cwd = await runner();
    await symlink(shared, join(cwd, 'runs'), 'dir');
    for (const [i, line] of lines.slice(1).entries()) {
      const result = await turnkit(line, cwd, {});
      if (i === lines.length - 2) {
        const { code } = await expectedCheck(cwd, 'runs/places/turnkit-shards-1-merged');
        expect(result.code, result.stderr).toBe(code);
        await expect(xmllintSchema(join(shared, 'turnkit-junit.xml'), SCHEMA)).resolves.toContain('validates');
      } else expect(result.code, `${line}: ${result.stderr}`).toBe(0);
    }
  });
});
