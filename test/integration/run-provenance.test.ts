import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { arch, cpus, release, type } from 'node:os';
import { join } from 'node:path';
import { BACKENDS } from '../helpers/test-db.js';
import { startFakeLlmServer, type FakeLlmServer } from '../helpers/fake-llm-server.js';
import { PRISMA_STYLE_CONFIG, prismaStyleProject, type PrismaStyleProject } from '../helpers/prisma-style-schema.js';
import { run } from '../../src/pipeline/run.js';
import type { Manifest } from '../../src/run-dir/manifest.js';
import { sha256 } from '../../src/util/sha256.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';

// What a run's manifest says of where it ran and with what: the files its SUT names, the project's git revision,
// the machine, the model ids an http SUT reported; and the order reps start in, each round the other way round.
const SUT_SCRIPT = `import { readFileSync } from 'node:fs';
readFileSync(0);
const prompt = readFileSync(process.argv[2].slice('--prompt='.length), 'utf8').trim();
if (prompt === 'FAIL') process.exit(1);
process.stdout.write(prompt + ' played');
`;

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();

describe.each(BACKENDS)("a run's provenance and order on %s", (backend) => {
  let p: PrismaStyleProject;
  let llm: FakeLlmServer;

  beforeAll(async () => {
    p = await prismaStyleProject(backend, PRISMA_STYLE_CONFIG, 'pass when it plays\n');
    const dir = p.t.dir;
    // A second fixture, so that a round has two to put in order.
    const keep = JSON.parse(await readFile(join(dir, 'fixtures/keep.json'), 'utf8'));
    await writeFile(join(dir, 'fixtures/copy.json'), `${JSON.stringify({ ...keep, name: 'copy' }, null, 2)}\n`);
    await writeFile(join(dir, 'sut.mjs'), SUT_SCRIPT);
    await mkdir(join(dir, 'prompts'), { recursive: true });
    await writeFile(join(dir, 'prompts/gm.md'), 'You are the GM.\n');
    llm = await startFakeLlmServer();
  }, 120_000);
  afterAll(async () => {
    await llm?.close();
    await p?.close();
  });

  const commandQuestion = (id: string, reps: number) => ({
    id,
    question: 'Does the SUT play?',
    ...p.files,
    fixtures: ['fixtures/keep.json', 'fixtures/copy.json'],
    target: 0.9,
    reps,
    sut: { type: 'command' as const, command: ['node', 'sut.mjs', '--prompt=prompts/gm.md'], timeout: 30 },
  });
  const manifestOf = async (dir: string): Promise<Manifest> =>
    JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;

  it('records the SUT files, the git revision and the machine, and alternates which fixture of a round goes first', async () => {
    const dir = p.t.dir;
    await writeFile(join(dir, '.gitignore'), '.turnkit/\nruns/\n');
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'the project');
    const result = await run(p.project, {
      question: commandQuestion('provenance', 3),
      concurrency: 1,
      env: process.env,
    });
    expect(result).toMatchObject({ status: 'complete', total: 6, errors: 0 });
    const manifest = await manifestOf(result.dir);
    expect(manifest.sutFiles).toEqual([
      { path: 'sut.mjs', sha256: sha256(SUT_SCRIPT) },
      { path: 'prompts/gm.md', sha256: sha256('You are the GM.\n') },
    ]);
    expect(manifest.git).toEqual({ commit: git(dir, 'rev-parse', 'HEAD'), dirty: false });
    expect(manifest.machine).toEqual({
      os: `${type()} ${release()}`,
      arch: arch(),
      cpu: cpus()[0]!.model.trim(),
      cpus: cpus().length,
    });
    // A command SUT reports no model.
    expect(manifest.models).toBeUndefined();
    const started = (await readFile(join(result.dir, 'order.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { fixture: string; rep: number });
    expect(started.map((entry) => `${entry.fixture}:${entry.rep}`)).toEqual([
      'keep:1',
      'copy:1',
      'copy:2',
      'keep:2',
      'keep:3',
      'copy:3',
    ]);
    expect(manifest.order.map((entry) => `${entry.fixture}:${entry.rep}`)).toEqual(
      started.map((entry) => `${entry.fixture}:${entry.rep}`),
    );
    const record = JSON.parse(await readFile(join(result.dir, 'reps/copy/rep-02.json'), 'utf8')) as RepRecord;
    expect(record.response).toBe('You are the GM. played');

    // An untracked file makes the tree dirty; the commit is the same.
    await writeFile(join(dir, 'notes.txt'), 'a note\n');
    const dirty = await run(p.project, { question: commandQuestion('dirty', 1), env: process.env });
    expect((await manifestOf(dirty.dir)).git).toEqual({ commit: git(dir, 'rev-parse', 'HEAD'), dirty: true });
    await rm(join(dir, 'notes.txt'));
    // Outside a repository there is no git to record, and the run goes on.
    await rm(join(dir, '.git'), { recursive: true, force: true });
    const outside = await run(p.project, { question: commandQuestion('outside', 1), env: process.env });
    expect(outside).toMatchObject({ status: 'complete', errors: 0 });
    expect((await manifestOf(outside.dir)).git).toBeUndefined();
  });

  it('refuses to resume a run whose SUT prompt file changed or is gone, naming the file; resumes once it is back', async () => {
    const dir = p.t.dir;
    const question = commandQuestion('resumable', 1);
    const first = await run(p.project, { question, env: process.env });
    expect(first.status).toBe('complete');
    await writeFile(join(dir, 'prompts/gm.md'), 'You are a kinder GM.\n');
    await expect(run(p.project, { question, resume: first.dir, env: process.env })).rejects.toThrow(
      /manifest\.json: the SUT's file prompts\/gm\.md changed since this run started, and 2 rep\(s\) completed with it; start a new run$/,
    );
    await rm(join(dir, 'prompts/gm.md'));
    await expect(run(p.project, { question, resume: first.dir, env: process.env })).rejects.toThrow(
      /manifest\.json: the SUT's file prompts\/gm\.md is gone since this run started, and 2 rep\(s\) completed with it; start a new run$/,
    );
    await writeFile(join(dir, 'prompts/gm.md'), 'You are the GM.\n');
    const resumed = await run(p.project, { question, resume: first.dir, env: process.env });
    expect(resumed).toMatchObject({ status: 'complete', ran: 0, errors: 0 });
    // A manifest of before these fields (no sutFiles) resumes as it always did.
    const manifest = await manifestOf(first.dir);
    const { sutFiles: _files, machine: _machine, ...older } = manifest;
    await writeFile(join(first.dir, 'manifest.json'), `${JSON.stringify(older, null, 2)}\n`);
    await writeFile(join(dir, 'prompts/gm.md'), 'You are a kinder GM.\n');
    try {
      const old = await run(p.project, { question, resume: first.dir, env: process.env });
      expect(old).toMatchObject({ status: 'complete', ran: 0 });
    } finally {
      await writeFile(join(dir, 'prompts/gm.md'), 'You are the GM.\n');
    }
  });

  it('resumes a run whose every rep errored after its SUT file was fixed, recording the file as it is now', async () => {
    const dir = p.t.dir;
    const question = commandQuestion('fixed-sut', 1);
    await writeFile(join(dir, 'prompts/gm.md'), 'FAIL\n');
    try {
      const first = await run(p.project, { question, env: process.env });
      expect(first).toMatchObject({ status: 'complete', errors: 2 });
      await writeFile(join(dir, 'prompts/gm.md'), 'You are the GM.\n');
      const resumed = await run(p.project, { question, resume: first.dir, env: process.env });
      expect(resumed).toMatchObject({ status: 'complete', ran: 2, errors: 0 });
      const manifest = await manifestOf(first.dir);
      expect(manifest.sutFiles).toEqual([
        { path: 'sut.mjs', sha256: sha256(SUT_SCRIPT) },
        { path: 'prompts/gm.md', sha256: sha256('You are the GM.\n') },
      ]);
      expect(manifest.resumed).toMatchObject([{ reps: 2, sutFiles: 'changed' }]);
    } finally {
      await writeFile(join(dir, 'prompts/gm.md'), 'You are the GM.\n');
    }
  });

  it('records the model ids an http SUT reported, each once in the order first seen, in single turns and rollouts', async () => {
    llm.reset();
    // The endpoint names a dated model for the alias the config asks for, and another one for every third call.
    llm.respond((_request, index) => ({
      content: `GM answer ${index}`,
      model: index % 3 === 2 ? 'gm-large-2026-02-01' : 'gm-large-2026-01-15',
    }));
    const sut = { type: 'http' as const, baseUrl: llm.openaiBaseUrl, model: 'gm-large', timeout: 10, retries: 0 };
    const single = await run(p.project, {
      question: { ...commandQuestion('http-models', 2), fixtures: ['fixtures/keep.json'], sut },
      concurrency: 1,
      env: {},
    });
    expect(single).toMatchObject({ status: 'complete', total: 2, errors: 0 });
    expect((await manifestOf(single.dir)).models).toEqual({ sut: ['gm-large-2026-01-15'] });
    const rep = JSON.parse(await readFile(join(single.dir, 'reps/keep/rep-02.json'), 'utf8')) as RepRecord;
    expect(rep.models).toEqual(['gm-large-2026-01-15']);

    llm.reset();
    const rollout = await run(p.project, {
      question: {
        ...commandQuestion('http-rollout', 1),
        fixtures: ['fixtures/keep.json'],
        sut,
        turns: 3,
        players: { type: 'script' as const, inputs: ['I go north.', 'I go south.'] },
      },
      env: {},
    });
    expect(rollout).toMatchObject({ status: 'complete', errors: 0 });
    const played = JSON.parse(await readFile(join(rollout.dir, 'reps/keep/rep-01.json'), 'utf8')) as RepRecord;
    expect(played.turns!.map((turn) => turn.response)).toEqual(['GM answer 0', 'GM answer 1', 'GM answer 2']);
    expect(played.models).toEqual(['gm-large-2026-01-15', 'gm-large-2026-02-01']);
    expect((await manifestOf(rollout.dir)).models).toEqual({ sut: ['gm-large-2026-01-15', 'gm-large-2026-02-01'] });
  });
});
