import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BIN, runCli } from '../helpers/cli.js';
import { BACKENDS } from '../helpers/test-db.js';
import { faultProject, type FaultProject } from '../helpers/fault-project.js';
import { registryCounts } from '../helpers/table-checksums.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

/** Writes `ID.mjs` and a question calling its default export as a module SUT. */
async function moduleQuestion(p: FaultProject, id: string, code: string, timeout: number): Promise<string> {
  await writeFile(join(p.t.dir, `${id}.mjs`), code);
  await writeFile(
    join(p.t.dir, `questions/${id}.yaml`),
    [
      `id: ${id}`,
      'question: Does it hold?',
      'rubric: { path: questions/rubric.md, version: 1 }',
      'target: 0.9',
      'reps: 2',
      'fixtures: [fixtures/base.json]',
      `sut: { type: module, path: ${id}.mjs, timeout: ${timeout} }`,
      'caseFile: questions/case.md',
      '',
    ].join('\n'),
  );
  return `questions/${id}.yaml`;
}

async function onlyRun(p: FaultProject, id: string): Promise<string> {
  return join(p.t.dir, 'runs', id, (await readdir(join(p.t.dir, 'runs', id)))[0]!);
}

describe.each(BACKENDS)('module SUTs that never return or exit (%s)', (backend) => {
  let p: FaultProject;
  const env = (): NodeJS.ProcessEnv => ({ DATABASE_URL: p.t.databaseUrl ?? '' });
  beforeAll(async () => {
    p = await faultProject(backend);
  });
  afterAll(async () => p?.t.cleanup());

  it('a busy loop (`for(;;){}`) is stopped at the timeout: every rep a timeout, the run complete', async () => {
    const question = await moduleQuestion(p, 'busy', 'export default () => { for (;;) {} };\n', 1);
    const cli = await runCli(['run', question, '--concurrency', '1'], { cwd: p.t.dir, env: env() });
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toContain('all 2 rep(s) errored');
    expect(cli.stderr).toContain('base rep 1: sut: timeout: no answer within 1 s');
    const dir = await onlyRun(p, 'busy');
    expect((JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest).status).toBe('complete');
    expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });

  it("`process.exit(0)` in the function is the rep's error: turnkit finishes the run and writes marks.csv", async () => {
    const question = await moduleQuestion(p, 'quits', 'export default () => { process.exit(0); };\n', 30);
    const cli = await runCli(['run', question], { cwd: p.t.dir, env: env() });
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toContain('base rep 1: sut: exit: the module ended its process (exit code 0)');
    const dir = await onlyRun(p, 'quits');
    expect((JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest).status).toBe('complete');
    expect(existsSync(join(dir, 'marks.csv'))).toBe(true);
    const record = JSON.parse(await readFile(join(dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
    expect(record.error).toMatchObject({ stage: 'sut', cause: 'exit' });
  });

  it('two SIGTERMs during a busy loop quit turnkit (130), the run interrupted and its campaigns torn down', async () => {
    const question = await moduleQuestion(
      p,
      'spins',
      'import { appendFileSync } from "node:fs";\nexport default () => { appendFileSync("spinning", "x"); for (;;) {} };\n',
      600,
    );
    const child = spawn(process.execPath, [BIN, 'run', question, '--concurrency', '1'], {
      cwd: p.t.dir,
      env: { ...process.env, ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    while (!existsSync(join(p.t.dir, 'spinning')) && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    // The first signal lets running reps finish; the second quits at once. With the function in this process's own
    // thread, neither could even be heard while it spins.
    child.kill('SIGTERM');
    while (!stderr.includes('stopping: no new reps') && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(130);
    const dir = await onlyRun(p, 'spins');
    expect((JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest).status).toBe('interrupted');
    expect(await registryCounts(p.t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
  });
});
