import { asCommand } from '../helpers/as-command.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { registryCounts } from '../helpers/table-checksums.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { CORRECTED_NARRATION, MISLEADING_NARRATION, MISLEADING_TURN } from '../../src/sample/turn-script.js';
import { runQuestion, type RunResult } from '../../src/app/run-question.js';
import { merge } from '../../src/shard/merge-runs.js';
import { judgeChecks } from '../../src/judge/judge-checks.js';
import { judge } from '../../src/judge/judge-model.js';
import { judgeSettingsSchema } from '../../src/config/judge-settings.js';
import { buildReport, type Report } from '../../src/report/build-report.js';
import { parseMarks } from '../../src/run-dir/marks/read-marks.js';
import { manifestSchema, type Manifest } from '../../src/run-dir/manifest.js';
import { TurnkitError } from '../../src/errors.js';

// The operations' files context: relative paths of their input are this process's folder's, as before.
const HERE = { cwd: process.cwd(), paths: { baseDir: process.cwd() } };

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const SUT = join(REPO, 'examples', 'sample-sut.mjs');
const BASE = 'meridian-turn-23';
const FIXED = 'meridian-turn-23-deck-fixed';
const REPS = 4;

// The repository's sample question, pointed at this test's fixtures and the sample SUT, with its checks.
const question = (id: string): string =>
  [
    `id: ${id}`,
    'question: Does the SUT describe where places are correctly?',
    'rubric: { path: questions/places-rubric.md, version: 1 }',
    'target: 0.88',
    `reps: ${REPS}`,
    'fixtures:',
    `  - { path: fixtures/${BASE}.json, tag: dev }`,
    `  - { path: constructed/${FIXED}.json, tag: heldout }`,
    `sut: { type: command, command: [${JSON.stringify(process.execPath)}, ${JSON.stringify(SUT)}], timeout: 60 }`,
    'caseFile: questions/case-file.md',
    'checks:',
    '  mustContain: [deck 2]',
    '  mustNotContain: [deck 3]',
    '  effects:',
    '    inserted: [{ table: turns, nonEmpty: [narration] }]',
    '    noOutsideChanges: true',
    '',
  ].join('\n');

/** Every file under a folder, by path relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** One hash of a folder: every file's path and bytes. */
async function hashDir(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const file of await listFiles(dir))
    hash
      .update(`${file}\0`)
      .update(await readFile(join(dir, file)))
      .update('\0');
  return hash.digest('hex');
}

/** What a report says of a run, without what differs between two runs of the same reps (latency, paths). */
function numbers(report: Report): unknown {
  return {
    question: report.question,
    status: report.status,
    complete: report.complete,
    target: report.target,
    reps: report.reps,
    fixtures: report.fixtures.map(({ latency: _latency, ...fixture }) => fixture),
    tags: report.tags,
    demands: report.demands,
    pairs: report.pairs,
  };
}

const readManifest = async (dir: string): Promise<Manifest> =>
  manifestSchema.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));

describe.each(BACKENDS)('run --shard and merge on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let unsharded: RunResult;
  let shards: string[];
  let hashes: string[];
  let merged: string;
  const run = (options: Partial<Parameters<typeof runQuestion>[0]> = {}): Promise<RunResult> =>
    runQuestion({ question: 'questions/places.yaml', cwd: t.dir, databaseUrl: t.databaseUrl, ...options });
  const runsOf = async (id: string): Promise<string[]> =>
    existsSync(join(t.dir, 'runs', id)) ? (await readdir(join(t.dir, 'runs', id))).sort() : [];

  beforeAll(async () => {
    ({ t, fixture } = await sampleGameWithFixture(backend, { turns: 40, turn: 23, otherTurns: 6 }));
    const dir = t.dir;
    for (const folder of ['fixtures', 'questions']) await mkdir(join(dir, folder), { recursive: true });
    await writeFile(join(dir, `fixtures/${BASE}.json`), serializeDocument({ ...fixture, name: BASE }));
    const misleading = fixture.tables.turns!.rows.find((row) => row.turn_number === MISLEADING_TURN)!;
    expect(misleading.narration).toBe(MISLEADING_NARRATION);
    await writeFile(
      join(dir, 'patch.json'),
      JSON.stringify({ turns: [{ id: misleading.id, narration: CORRECTED_NARRATION }] }),
    );
    await asCommand(construct, {
      fixture: `fixtures/${BASE}.json`,
      turn: MISLEADING_TURN,
      patch: 'patch.json',
      name: FIXED,
      why: 'turn 19 put the mess hall on deck 3',
      cwd: dir,
      out: 'constructed',
    });
    for (const file of ['places-rubric.md', 'case-file.md'])
      await copyFile(join(REPO, 'questions', file), join(dir, 'questions', file));
    await writeFile(join(dir, 'questions/places.yaml'), question('places'));
    await writeFile(join(dir, 'questions/other.yaml'), question('other'));

    unsharded = await run();
    expect(unsharded).toMatchObject({ status: 'complete', total: 2 * REPS, errors: 0, pending: 0 });
    shards = [];
    for (const index of [1, 2, 3]) {
      const result = await run({ shard: { index, count: 3 } });
      expect(result).toMatchObject({ status: 'complete', errors: 0, pending: 0 });
      shards.push(result.dir);
    }
    // Each shard judged where it ran, as on its own machine; merge then combines marks.checks.csv as well.
    for (const dir of [unsharded.dir, ...shards]) await judgeChecks(HERE, { dir });
    hashes = await Promise.all(shards.map(hashDir));
  });
  afterAll(async () => t?.cleanup());

  it('deals the interleaved reps out to the shards: every rep once, in a shard-suffixed directory', async () => {
    expect(shards.map((dir) => /-shard-(\d)-of-3$/.exec(dir)?.[1])).toEqual(['1', '2', '3']);
    const manifests = await Promise.all(shards.map(readManifest));
    expect(manifests.map((manifest) => manifest.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    // Each fixture's reps dealt round the shards, each fixture starting one shard further on: (rep - 1 + i) mod 3.
    const repsOf = async (dir: string): Promise<string[]> =>
      (await listFiles(join(dir, 'reps'))).filter((file) => file.endsWith('.json'));
    expect(await repsOf(shards[0]!)).toEqual([`${FIXED}/rep-03.json`, `${BASE}/rep-01.json`, `${BASE}/rep-04.json`]);
    expect(await repsOf(shards[1]!)).toEqual([`${FIXED}/rep-01.json`, `${FIXED}/rep-04.json`, `${BASE}/rep-02.json`]);
    expect(await repsOf(shards[2]!)).toEqual([`${FIXED}/rep-02.json`, `${BASE}/rep-03.json`]);
    // A shard's marks files hold its own reps only.
    expect(
      parseMarks(await readFile(join(shards[2]!, 'marks.csv'), 'utf8')).map((row) => `${row.fixture}:${row.rep}`),
    ).toEqual([`${BASE}:3`, `${FIXED}:2`]);
    expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });
  });

  it('merges the shards into a run that equals the unsharded one: manifest, rep files, marks and report', async () => {
    const before = await runsOf('places');
    // Given in another order than their indexes: merge sorts them.
    const result = await merge(
      { cwd: t.dir, paths: { baseDir: t.dir } },
      { dirs: [shards[2]!, shards[0]!, shards[1]!] },
    );
    merged = result.dir;
    expect(result).toMatchObject({
      shards: 3,
      reps: 2 * REPS,
      marksFiles: ['marks.checks.csv', 'marks.csv'],
      skipped: [],
    });
    expect(merged).toMatch(/-merged$/);
    expect(await runsOf('places')).toEqual([...before, relative(join(t.dir, 'runs/places'), merged)].sort());

    const manifest = await readManifest(merged);
    const plain = await readManifest(unsharded.dir);
    expect(manifest.status).toBe('complete');
    expect(manifest).not.toHaveProperty('shard');
    // Shard paths are relative to the merged run, like the manifest's other paths.
    expect(manifest.merged!.map((entry) => [resolve(merged, entry.dir), entry.shard])).toEqual(
      shards.map((dir, i) => [dir, { index: i + 1, count: 3 }]),
    );
    expect(manifest.merged!.every((entry) => entry.database.backend === backend)).toBe(true);
    for (const field of ['question', 'rubric', 'caseFileTemplate', 'checks', 'fixtures', 'sut'] as const)
      expect(manifest[field], field).toEqual(plain[field]);
    expect(manifest.order.map((entry) => `${entry.fixture}:${entry.rep}`).sort()).toEqual(
      plain.order.map((entry) => `${entry.fixture}:${entry.rep}`).sort(),
    );
    const shardManifests = await Promise.all(shards.map(readManifest));
    // Each shard keeps the machine it ran on.
    expect(manifest.merged!.map((entry) => entry.machine)).toEqual(shardManifests.map((shard) => shard.machine));
    expect(manifest.merged![0]!.machine).toMatchObject({ arch: process.arch });
    expect(manifest.startedAt).toBe(shardManifests[0]!.startedAt);
    expect(manifest.finishedAt).toBe(shardManifests[2]!.finishedAt);

    expect(await listFiles(join(merged, 'reps'))).toEqual(await listFiles(join(unsharded.dir, 'reps')));
    expect(await listFiles(join(merged, 'case-files'))).toEqual([`${BASE}.md`, `${FIXED}.md`].sort());
    for (const name of [BASE, FIXED]) {
      expect(await readFile(join(merged, 'case-files', `${name}.md`), 'utf8')).toBe(
        await readFile(join(unsharded.dir, 'case-files', `${name}.md`), 'utf8'),
      );
    }
    // The sample SUT answers the same for the same fixture and rep, wherever it runs.
    for (const file of (await listFiles(join(merged, 'reps'))).filter((name) => name.endsWith('.json'))) {
      const response = async (dir: string): Promise<unknown> =>
        JSON.parse(await readFile(join(dir, 'reps', file), 'utf8')).response;
      expect(await response(merged), file).toBe(await response(unsharded.dir));
    }

    const rows = async (dir: string, file: string): Promise<string[]> =>
      parseMarks(await readFile(join(dir, file), 'utf8')).map((row) => `${row.fixture},${row.rep},${row.mark}`);
    expect(await rows(merged, 'marks.csv')).toEqual(await rows(unsharded.dir, 'marks.csv'));
    expect(await rows(merged, 'marks.csv')).toHaveLength(2 * REPS);
    const checks = await readFile(join(unsharded.dir, 'marks.checks.csv'), 'utf8');
    expect((await readFile(join(merged, 'marks.checks.csv'), 'utf8')).split('\n')).toEqual(checks.split('\n'));
    // The checks separate the fixtures: every fixed rep passes, and the misled base fails at least once.
    const checkRows = parseMarks(checks);
    expect(checkRows.filter((row) => row.fixture === FIXED).map((row) => row.mark)).toEqual(Array(REPS).fill('pass'));
    expect(checkRows.filter((row) => row.fixture === BASE && row.mark === 'fail').length).toBeGreaterThan(0);
    expect(checkRows.every((row) => row.note !== '')).toBe(true);

    // Judging the merged run afresh gives the same file the merge wrote.
    const judged = await judgeChecks(HERE, { dir: merged });
    expect(judged).toMatchObject({ notRun: 0, error: 0 });
    expect(judged.pass + judged.fail).toBe(2 * REPS);
    expect(await readFile(join(merged, 'marks.checks.csv'), 'utf8')).toBe(checks);

    for (const marks of [undefined, 'marks.checks.csv']) {
      const mergedReport = await buildReport(merged, { marks });
      const plainReport = await buildReport(unsharded.dir, { marks });
      expect(mergedReport.shard).toBeNull();
      expect(numbers(mergedReport)).toEqual(numbers(plainReport));
    }
    const report = await buildReport(merged, { marks: 'marks.checks.csv' });
    expect(report.fixtures.map((entry) => [entry.fixture, entry.tag, entry.pass + entry.fail, entry.verdict])).toEqual([
      [BASE, 'dev', REPS, 'missed'],
      [FIXED, 'heldout', REPS, 'met'],
    ]);
    expect(report.tags.map((tag) => tag.tag)).toEqual(['dev', 'heldout']);
    expect(report.pairs).toEqual([expect.objectContaining({ constructed: FIXED, base: BASE })]);
    // The shards' own reports add up to the merged one.
    const shardReports = await Promise.all(shards.map((dir) => buildReport(dir, { marks: 'marks.checks.csv' })));
    expect(shardReports.map((entry) => entry.shard)).toEqual([1, 2, 3].map((index) => ({ index, count: 3 })));
    for (const [i, entry] of report.fixtures.entries()) {
      expect(shardReports.reduce((sum, shard) => sum + shard.fixtures[i]!.pass, 0)).toBe(entry.pass);
      expect(shardReports.reduce((sum, shard) => sum + shard.fixtures[i]!.reps, 0)).toBe(entry.reps);
    }
    expect(await Promise.all(shards.map(hashDir))).toEqual(hashes);
  });

  it("merges the shards' LLM judge files: the merged report's judge spend is the shards' sum", async () => {
    // Copies of the shards, judged by a model that answers 100 tokens in and 20 out at 1 and 5 per million.
    const copies: string[] = [];
    for (const dir of shards) {
      const copy = join(t.dir, 'judged', 'places', relative(join(t.dir, 'runs', 'places'), dir));
      await cp(dir, copy, { recursive: true });
      copies.push(copy);
    }
    const settings = judgeSettingsSchema.parse({ model: 'judge-1', apiKeyEnv: 'UNUSED_JUDGE_KEY' });
    let asked = 0;
    for (const [i, dir] of copies.entries()) {
      const judged = await judge(HERE, {
        dir,
        settings,
        price: { input: 1, output: 5 },
        call: async () => {
          asked++;
          // Each shard's judge answered as another dated model: the merged manifest lists them all.
          return {
            text: '{"verdict": "pass", "reason": "deck 2"}',
            usage: { inputTokens: 100, outputTokens: 20 },
            model: `judge-1-shard-${i + 1}`,
          };
        },
      });
      expect(judged).toMatchObject({ error: 0, notRun: 0 });
    }
    expect(asked).toBe(2 * REPS);
    const shardReports = await Promise.all(copies.map((dir) => buildReport(dir)));
    const result = await merge({ cwd: t.dir, paths: { baseDir: t.dir } }, { dirs: copies });
    expect(result).toMatchObject({
      marksFiles: ['marks.checks.csv', 'marks.csv', 'marks.judge-judge-1.csv'],
      judgeFiles: ['judge-cache.jsonl', 'judge-judge-1.jsonl'],
      skipped: [],
    });
    expect((await readManifest(result.dir)).models).toEqual({
      judges: { 'judge-judge-1': ['judge-1-shard-1', 'judge-1-shard-2', 'judge-1-shard-3'] },
    });
    const report = await buildReport(result.dir);
    const sum = shardReports.reduce((total, shard) => total + (shard.spend.judges.cost ?? 0), 0);
    expect(sum).toBeCloseTo(2 * REPS * 0.0002, 9);
    expect(report.spend.judges.cost).toBeCloseTo(sum, 9);
    expect(report.spend.judges).toEqual({
      calls: 2 * REPS,
      inputTokens: 2 * REPS * 100,
      outputTokens: 2 * REPS * 20,
      cost: 2 * REPS * 0.0002,
      unpriced: 0,
    });
    expect(report.spend.judges.calls).toBe(shardReports.reduce((total, shard) => total + shard.spend.judges.calls, 0));
    // Judging the merged run again asks the model nothing: the shards' caches came with it.
    await judge(HERE, {
      dir: result.dir,
      settings,
      call: async () => expect.fail('the model was asked again'),
    });
  });

  it('writes the merged run where --out says, and refuses an --out that exists', async () => {
    const out = join(t.dir, 'elsewhere', 'merged');
    const result = await merge({ cwd: t.dir, paths: { baseDir: t.dir } }, { dirs: shards, out: 'elsewhere/merged' });
    expect(result.dir).toBe(out);
    expect(await listFiles(join(out, 'reps'))).toEqual(await listFiles(join(unsharded.dir, 'reps')));
    expect(await readFile(join(out, 'marks.checks.csv'), 'utf8')).toBe(
      await readFile(join(merged, 'marks.checks.csv'), 'utf8'),
    );
    const before = await hashDir(out);
    const error = await merge({ cwd: t.dir, paths: { baseDir: t.dir } }, { dirs: shards, out }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TurnkitError);
    expect((error as TurnkitError).message).toMatch(/merged: exists; a merged run is always a new directory$/);
    expect(await hashDir(out)).toBe(before);
  });

  describe('refuses what is not every shard of one complete run, leaving no directory and the shards as they were', () => {
    // Each case: the shard directories, and what the error must say.
    const refuses = async (dirs: () => Promise<string[]>, message: RegExp, out?: string): Promise<void> => {
      const given = await dirs();
      const before = { places: await runsOf('places'), other: await runsOf('other') };
      const error = await merge(
        { cwd: t.dir, paths: { baseDir: t.dir } },
        { dirs: given, ...(out ? { out } : {}) },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnkitError);
      expect((error as TurnkitError).message).toMatch(message);
      expect((error as TurnkitError).message).not.toContain('\n');
      expect({ places: await runsOf('places'), other: await runsOf('other') }).toEqual(before);
      if (out) expect(existsSync(join(t.dir, out))).toBe(false);
      expect(await Promise.all(shards.map(hashDir))).toEqual(hashes);
    };
    // A library merge shows paths from its project (the context's cwd), wherever the process is.
    const shown = (dir: string): string => relative(t.dir, dir);

    it('a shard missing', async () => {
      await refuses(
        async () => [shards[0]!, shards[2]!],
        /^shard 2\/3 missing: merge needs every shard of the run$/,
        'out-missing',
      );
      await refuses(async () => [shards[1]!], /^shards 1\/3, 3\/3 missing: merge needs every shard of the run$/);
    });

    it('a shard twice, as the same directory or as a copy of it', async () => {
      await refuses(
        async () => [shards[0]!, shards[1]!, shards[2]!, shards[1]!],
        new RegExp(`^${escapeRegExp(shown(shards[1]!))}: shard 2/3 is given twice$`),
        'out-twice',
      );
      const copy = join(t.dir, 'copies', 'shard-1-again');
      await cp(shards[0]!, copy, { recursive: true });
      await refuses(
        async () => [shards[0]!, shards[1]!, shards[2]!, copy],
        new RegExp(`^${escapeRegExp(shown(copy))}: shard 1/3 is also ${escapeRegExp(shown(shards[0]!))}$`),
      );
    });

    it('an unsharded run among the shards', async () => {
      await refuses(
        async () => [...shards, unsharded.dir],
        new RegExp(`^${escapeRegExp(shown(unsharded.dir))}: not a shard \\(it was not run with --shard I/N\\)$`),
      );
    });

    it('a shard of a different question', async () => {
      const other = await runQuestion({
        question: 'questions/other.yaml',
        cwd: t.dir,
        databaseUrl: t.databaseUrl,
        reps: 1,
        shard: { index: 1, count: 3 },
      });
      expect(other.status).toBe('complete');
      await refuses(
        async () => [shards[0]!, shards[1]!, other.dir],
        new RegExp(
          `^${escapeRegExp(shown(other.dir))}: not a shard of the same run as ${escapeRegExp(shown(shards[0]!))}: question "other", not "places"$`,
        ),
        'out-other',
      );
    });

    it('a shard of a run with different reps', async () => {
      const fewer = await run({ reps: 1, shard: { index: 3, count: 3 } });
      // 2 fixtures x 1 rep: shard 3 of 3 gets nothing to run, and is still a complete shard of that run.
      expect(fewer).toMatchObject({ status: 'complete', total: 0 });
      await refuses(
        async () => [shards[0]!, shards[1]!, fewer.dir],
        new RegExp(
          `: not a shard of the same run as ${escapeRegExp(shown(shards[0]!))}: 1 reps per fixture, not ${REPS}$`,
        ),
      );
    });

    it('a shard split another number of ways', async () => {
      const copy = join(t.dir, 'copies', 'split-two-ways');
      await cp(shards[2]!, copy, { recursive: true });
      const manifest = await readManifest(copy);
      await writeFile(join(copy, 'manifest.json'), serializeDocument({ ...manifest, shard: { index: 2, count: 2 } }));
      await refuses(
        async () => [shards[0]!, shards[1]!, copy],
        /: not a shard of the same run as .*: split 2 ways, not 3$/,
      );
    });

    it('an interrupted shard, naming how to finish it', async () => {
      const abort = new AbortController();
      const interrupted = await run({
        shard: { index: 2, count: 3 },
        concurrency: 1,
        signal: abort.signal,
        onProgress: (progress) => progress.done === 1 && abort.abort(),
      });
      // Shard 2/3 holds 3 reps; on a real server a second rep may already be seeding when the first one ends.
      expect(interrupted.status).toBe('interrupted');
      expect(interrupted.ran).toBeGreaterThanOrEqual(1);
      expect(interrupted.pending).toBeGreaterThanOrEqual(1);
      expect(interrupted.ran + interrupted.pending).toBe(3);
      await refuses(
        async () => [shards[0]!, interrupted.dir, shards[2]!],
        new RegExp(
          `^${escapeRegExp(shown(interrupted.dir))}: shard 2/3 is interrupted; finish it with turnkit run --resume ${escapeRegExp(shown(interrupted.dir))} first$`,
        ),
        'out-interrupted',
      );
      expect(await registryCounts(t.db)).toMatchObject({ campaigns: 0 });

      // It resumes as the slice it is, never as another.
      await expect(run({ resume: interrupted.dir, shard: { index: 1, count: 3 } })).rejects.toThrow(
        new RegExp(
          `^--shard 1/3: ${escapeRegExp(shown(interrupted.dir))} was started as shard 2/3; resume it without --shard$`,
        ),
      );
      const resumed = await run({ resume: interrupted.dir });
      expect(resumed).toMatchObject({
        dir: interrupted.dir,
        status: 'complete',
        ran: interrupted.pending,
        pending: 0,
        errors: 0,
      });
      expect((await readManifest(interrupted.dir)).shard).toEqual({ index: 2, count: 3 });

      // Merged with the other two: the same run as the unsharded one. It was never judged, so only marks.csv merges.
      const result = await merge(
        { cwd: t.dir, paths: { baseDir: t.dir } },
        {
          dirs: [shards[0]!, interrupted.dir, shards[2]!],
          out: 'merged-after-resume',
        },
      );
      expect(result).toMatchObject({
        shards: 3,
        reps: 2 * REPS,
        marksFiles: ['marks.csv'],
        skipped: ['marks.checks.csv'],
      });
      expect(await listFiles(join(result.dir, 'reps'))).toEqual(await listFiles(join(unsharded.dir, 'reps')));
      expect(existsSync(join(result.dir, 'marks.checks.csv'))).toBe(false);
      await judgeChecks(HERE, { dir: result.dir });
      expect(await readFile(join(result.dir, 'marks.checks.csv'), 'utf8')).toBe(
        await readFile(join(unsharded.dir, 'marks.checks.csv'), 'utf8'),
      );
      expect(numbers(await buildReport(result.dir, { marks: 'marks.checks.csv' }))).toEqual(
        numbers(await buildReport(unsharded.dir, { marks: 'marks.checks.csv' })),
      );
    });

    it('a directory that is not a run, and no directory at all', async () => {
      await refuses(
        async () => [shards[0]!, join(t.dir, 'fixtures')],
        /fixtures: holds no shard directory \(turnkit run --shard I\/N\), and is not a run directory \(no manifest\.json\)$/,
      );
      const error = await merge({ cwd: t.dir, paths: { baseDir: t.dir } }, { dirs: [] }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'USAGE', message: 'name the shard directories to merge' });
    });

    it('a shard whose marks file names a rep of another shard: the half-written merge is removed', async () => {
      const copy = join(t.dir, 'copies', 'bad-marks');
      await cp(shards[2]!, copy, { recursive: true });
      // Rep 1 of the base fixture belongs to shard 1.
      await writeFile(join(copy, 'marks.csv'), `${await readFile(join(copy, 'marks.csv'), 'utf8')}${BASE},1,pass,\n`);
      await refuses(
        async () => [shards[0]!, shards[1]!, copy],
        new RegExp(`marks\\.csv:4: ${BASE} rep 1 is not a rep of this run \\(a shard of ${REPS} reps per fixture\\)$`),
        'out-bad-marks',
      );
    });

    it('a shard whose judge file names a rep of another shard (its spend would count twice)', async () => {
      const copies = [1, 2, 3].map((i) => join(t.dir, 'copies', 'bad-judge', `shard-${i}`));
      for (const [i, copy] of copies.entries()) {
        await cp(shards[i]!, copy, { recursive: true });
        await writeFile(join(copy, 'judge-m.jsonl'), '');
      }
      // Rep 1 of the base fixture belongs to shard 1.
      const verdict = { fixture: BASE, rep: 1, mark: 'pass', spend: { inputTokens: 1, outputTokens: 1, cost: 1 } };
      // After a blank line: the error names the line as the file numbers it.
      await writeFile(join(copies[2]!, 'judge-m.jsonl'), `\n${JSON.stringify(verdict)}\n`);
      await refuses(
        async () => copies,
        new RegExp(`judge-m\\.jsonl:2: ${BASE} rep 1 is not a rep of this shard \\(3/3\\)$`),
        'out-bad-judge',
      );
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
