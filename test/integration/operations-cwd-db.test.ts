import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { judgeSettingsSchema } from '../../src/config/judge-settings.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import {
  agree,
  capture,
  construct,
  gc,
  judge,
  judgeChecks,
  materialize,
  merge,
  openProject,
  rebase,
  report,
  run,
  seed,
  show,
  teardown,
  verify,
  type Project,
  type SutRequest,
} from '../../src/index.js';

// Every operation of src/index.ts takes its project as an argument (`op(project, input)`): run with the process in
// the project's folder or in another, it reads and writes the same files and says the same things, its messages
// showing paths relative to the project. The file operations alone are in test/unit/operations-cwd.test.ts; these
// reach the database too. This file runs in a forked worker (vitest's default pool), where `process.chdir` works.

const SETTINGS = judgeSettingsSchema.parse({
  provider: 'openai',
  model: 'fake-judge',
  baseUrl: 'http://127.0.0.1:9/v1',
  apiKeyEnv: 'FAKE_JUDGE_KEY',
  retries: 0,
  timeout: 5,
});

// What differs between two runs of the same operations whatever the folder: clocks, durations, scratch keys.
const VOLATILE =
  /(At|Ms|ms|Sha256)$|^(key|id|stamp|timings|latency|campaign|order|databaseUrl|seconds|elapsed|durationMs|sha256)$/;

/** A value as JSON, its volatile fields dropped, the project folder and the run's stamp named. */
function normalized(value: unknown, project: string): unknown {
  const text = JSON.stringify(value, (name, inner) => (VOLATILE.test(name) ? undefined : inner)) ?? 'null';
  return JSON.parse(
    text
      .split(project)
      .join('PROJECT')
      .replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d(\.\d+)?Z/g, 'STAMP')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME'),
  );
}

/** Every operation with a good and a bad input, in order: each one's result or error message. */
async function outcomes(project: Project, campaign: string): Promise<unknown[]> {
  const results: unknown[] = [];
  const take = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      const value = await call();
      results.push(normalized(value, project.paths.baseDir));
      return value;
    } catch (error) {
      results.push({ error: normalized((error as Error).message, project.paths.baseDir) });
      return undefined;
    }
  };
  await take(() => capture(project, { campaign, turns: { turn: 20 }, name: 'cwd-t20', scrubKey: TEST_SCRUB_KEY }));
  await take(() => capture(project, { campaign: '999999', turns: { turn: 20 }, name: 'gone', scrubKey: 'k' }));
  await take(() => show(project, { fixture: 'fixtures/cwd-t20.json' }));
  await take(() => show(project, { fixture: 'fixtures/missing.json' }));
  const fixture = (await materialize(project, { constructed: 'fixtures/cwd-t20.json' })) as {
    tables: Record<string, { rows: Record<string, unknown>[] }>;
  };
  const turn19 = fixture.tables.turns!.rows.find((row) => row.turn_number === 19)!;
  await writeFile(
    join(project.paths.baseDir, 'patch.json'),
    JSON.stringify({ turns: [{ id: turn19.id, narration: 'Fixed.' }] }),
  );
  const why = 'cwd test';
  await take(() =>
    construct(project, { fixture: 'fixtures/cwd-t20.json', turn: 19, patch: 'patch.json', name: 'fixed', why }),
  );
  await take(() =>
    construct(project, { fixture: 'fixtures/cwd-t20.json', turn: 19, patch: 'none.json', name: 'x', why }),
  );
  await take(() => materialize(project, { constructed: 'constructed/fixed.json' }));
  await take(() => rebase(project, { constructed: 'constructed/fixed.json' }));
  await take(() => verify(project, { database: true }));
  const seeded = (await take(() => seed(project, { fixture: 'constructed/fixed.json' }))) as { id: string };
  await take(() => seed(project, { fixture: 'constructed/missing.json' }));
  await take(() => teardown(project, { key: seeded.id }));
  await take(() => gc(project));
  await mkdir(join(project.paths.baseDir, 'questions'), { recursive: true });
  await writeFile(join(project.paths.baseDir, 'questions/rubric.md'), 'pass when it says "Fixed."\n');
  await writeFile(join(project.paths.baseDir, 'questions/case.md'), '# {{fixture.name}}\n');
  const question = {
    id: 'cwd',
    question: 'Does the SUT say what the last turn says?',
    rubric: { path: 'questions/rubric.md', version: '1' },
    target: 0.5,
    reps: 2,
    fixtures: ['fixtures/cwd-t20.json', 'constructed/fixed.json'],
    sut: async (request: SutRequest) => (request.fixture === 'fixed' ? 'Fixed.' : 'No.'),
    caseFile: 'questions/case.md',
    checks: { mustContain: ['Fixed.'] },
  };
  const ran = (await take(() => run(project, { question, concurrency: 1 }))) as { dir: string };
  await take(() => run(project, { question: 'questions/missing.yaml' }));
  const dir = ran.dir.slice(project.paths.baseDir.length + 1);
  await take(() => judgeChecks(project, { dir }));
  await take(() =>
    judge(project, { dir, settings: SETTINGS, env: { FAKE_JUDGE_KEY: 'k' }, call: async () => 'PASS: it says so' }),
  );
  await take(() => judge(project, { dir: 'runs/cwd/none', settings: SETTINGS, env: { FAKE_JUDGE_KEY: 'k' } }));
  await take(() => report(project, { dir, marks: 'marks.checks.csv' }));
  await take(() => report(project, { dir: 'runs/cwd/none' }));
  await take(() => agree(project, { a: `${dir}/marks.checks.csv`, b: `${dir}/marks.checks.csv` }));
  await take(() => agree(project, { a: `${dir}/marks.csv`, b: `${dir}/missing.csv` }));
  await take(() => merge(project, { dirs: ['runs/cwd'] }));
  await take(() => merge(project, { dirs: ['questions'] }));
  return results;
}

/** Every file under a folder (its database aside), by path with the run's stamp named, and its bytes normalized. */
async function filesOf(dir: string): Promise<Record<string, unknown>> {
  const files: Record<string, unknown> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((item) => item.isFile())) {
    const path = join(entry.parentPath, entry.name);
    const inside = path.slice(dir.length + 1);
    if (inside.startsWith('.turnkit')) continue;
    // The reps' start order is shuffled per run (each round the other way round): the same starts, in any order.
    const read = await readFile(path, 'utf8');
    const text = inside.endsWith('order.jsonl') ? read.split('\n').sort().join('\n') : read;
    let value: unknown;
    try {
      value = normalized(JSON.parse(text), dir);
    } catch {
      value = normalized(text.replace(/^.*(took|ms\b|Ms\b).*$/gm, ''), dir);
    }
    files[String(normalized(inside, dir))] = value;
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

describe.each(BACKENDS)('the operations on %s do not depend on the process working folder', (backend) => {
  let t: TestDb;
  let campaign: string;
  let root: string;
  const home = process.cwd();
  beforeAll(async () => {
    ({ t, campaign } = await sampleGameWithFixture(backend, { turns: 30, turn: 20, otherTurns: 4 }));
    root = await mkdtemp(join(tmpdir(), 'turnkit-ops-cwd-db-'));
  });
  afterAll(async () => {
    process.chdir(home);
    await rm(root, { recursive: true, force: true });
    await t?.cleanup();
  });

  it('capture, construct, verify, seed, teardown, gc, run, judge, report, agree and merge: the same from anywhere', async () => {
    // Two projects with the same files, on the same database: one used from its own folder, one from another.
    const inside = join(root, 'inside');
    const outside = join(root, 'outside');
    const elsewhere = join(root, 'elsewhere');
    for (const dir of [inside, outside, elsewhere]) await mkdir(dir, { recursive: true });
    const open = (cwd: string): Promise<Project> => openProject({ cwd, config: sampleGameConfig, db: t.db });
    process.chdir(inside);
    const a = await open(inside);
    const fromInside = await outcomes(a, campaign);
    process.chdir(elsewhere);
    const b = await open(outside);
    const fromElsewhere = await outcomes(b, campaign);
    process.chdir(home);
    await a.close();
    await b.close();
    expect(fromElsewhere).toEqual(fromInside);
    // Each bad input was refused with a message showing the project's path, not one from the process's folder.
    const messages = fromElsewhere.flatMap((entry) =>
      typeof entry === 'object' && entry !== null && 'error' in entry ? [String(entry.error)] : [],
    );
    expect(messages.length).toBeGreaterThanOrEqual(7);
    for (const message of messages) expect(message).not.toMatch(/\.\.\/|elsewhere/);
    expect(messages.some((message) => message.startsWith('fixtures/missing.json: '))).toBe(true);
    expect(messages.some((message) => message.startsWith('runs/cwd/none: '))).toBe(true);
    // Nothing was written where the process was.
    expect(await readdir(elsewhere)).toEqual([]);
    const insideFiles = await filesOf(inside);
    expect(Object.keys(insideFiles).some((file) => file.startsWith('runs/cwd/STAMP/reps/'))).toBe(true);
    expect(await filesOf(outside)).toEqual(insideFiles);
  });
});
