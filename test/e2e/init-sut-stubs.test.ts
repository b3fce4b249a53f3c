import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { adminQuery, BACKENDS } from '../helpers/test-db.js';
import { itHasProgram, systemProgram } from '../helpers/system-programs.js';
import { copyEmbedded } from '../helpers/embedded-copy.js';

// `init --sut python` and `--sut shell` write stubs that read their campaign through DATABASE_URL (with psql) and
// answer; the Node stub is run by the tarball test. Each runs a rep against a captured fixture on each backend.
const STUBS = [
  {
    sut: 'python',
    file: 'sut/game_master.py',
    response: /^Turn 10, after 9 turns: you said ".+"\. The story goes on\.$/,
  },
  { sut: 'shell', file: 'sut/game-master.sh', response: /^Turn 10, after 9 turns: the story goes on\.$/ },
] as const;

// Both stubs read with psql; the Python one runs under python3. A stub whose programs are missing is skipped.
const psql = systemProgram('psql');
const python3 = systemProgram('python3');
itHasProgram('psql', psql);
itHasProgram('python3', python3);
const RUNNABLE = STUBS.filter(({ sut }) => psql.found && (sut !== 'python' || python3.found));

describe.each(RUNNABLE.length > 0 ? BACKENDS : [])("init's Python and shell SUT stubs on %s", (backend) => {
  let root: string;
  let env: NodeJS.ProcessEnv = {};
  let dropDatabase = async (): Promise<void> => {};

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'turnkit-init-stubs-'));
    if (backend === 'postgres') {
      const name = `turnkit_stubs_${randomBytes(6).toString('hex')}`;
      await adminQuery(process.env.TEST_DATABASE_URL!, `CREATE DATABASE ${name}`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env = { DATABASE_URL: url.toString() };
      dropDatabase = async () => {
        await adminQuery(process.env.TEST_DATABASE_URL!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      };
      const made = await runCli(['sample', '--turns', '12'], { cwd: root, env });
      expect(made, made.stderr).toMatchObject({ code: 0, stdout: '1\n' });
    }
  }, 300_000);
  afterAll(async () => {
    await dropDatabase();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.each(RUNNABLE)(
    'init --sut $sut scaffolds a stub that reads its scratch campaign and answers a rep',
    async ({ sut, file, response }) => {
      const project = join(root, sut);
      await mkdir(project);
      if (backend === 'embedded') {
        // Each project's own embedded database, copied from the initialized template, with one sample campaign.
        await copyEmbedded(project, 'empty');
        const made = await runCli(['sample', '--turns', '12'], { cwd: project });
        expect(made, made.stderr).toMatchObject({ code: 0, stdout: '1\n' });
      }
      const cli = (...args: string[]) => runCli(args, { cwd: project, env });
      const init = await cli('init', '--yes', '--sut', sut);
      expect(init.code, init.stderr).toBe(0);
      expect(init.stdout).toContain(file);
      expect(await readFile(join(project, 'questions/starter.yaml'), 'utf8')).toContain(file);
      const verified = await cli('verify');
      expect(verified.code, verified.stderr).toBe(0);
      const captured = await cli('capture', '--campaign', '1', '--turn', '10', '--name', 'turn-10');
      expect(captured.code, captured.stderr).toBe(0);
      const ran = await cli('run', 'questions/starter.yaml', '--reps', '1', '--json');
      expect(ran.code, ran.stderr).toBe(0);
      const runDir = (JSON.parse(ran.stdout) as { dir: string }).dir;
      const rep = JSON.parse(await readFile(join(project, runDir, 'reps/turn-10/rep-01.json'), 'utf8')) as {
        response: string;
        error?: unknown;
      };
      expect(rep.error ?? null, JSON.stringify(rep.error)).toBeNull();
      expect(rep.response.trim()).toMatch(response);
    },
    300_000,
  );
});
