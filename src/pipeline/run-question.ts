import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { CommonOptions } from '../config/common-options.js';
import { loadConfig, resolveFromConfig } from '../config/load.js';
import { usingDb, type Backend } from '../db/connect.js';
import { databaseGone } from '../db/database-gone.js';
import { Semaphore } from '../util/semaphore.js';
import { TurnkitError } from '../errors.js';
import { serializeDocument } from '../fixture/format.js';
import { collectGarbage } from '../scratch/gc.js';
import { EMBEDDED_HAS_NO_DATABASES } from '../scratch/template-database.js';
import { ScratchSession } from '../scratch/scratch-session.js';
import type { StrategyChoice } from '../scratch/strategy-chooser.js';
import { describeReadError, shownPath } from '../util/shown-path.js';
import { prepareSut, type SutCaller } from './call-sut.js';
import { sutSecrets } from './sut-secrets.js';
import { caseFileSource } from './case-file-source.js';
import { loadQuestion } from './load-question.js';
import type { Manifest } from './manifest.js';
import { buildManifest } from './build-manifest.js';
import { appendOrder, checkUnchanged, keepEarlierAttempt, questionFileOf } from './resume-run.js';
import { marksFor, previousMarks } from './run-marks.js';
import { appendMarkHistory, historyFileOf } from './marks-history.js';
import { readRunState, repId, type RepKey } from './run-state.js';
import { createRunDir, repFileBase, RUBRIC_FILE, writeRunFile } from './run-dir.js';
import { formatMarks } from './marks-file.js';
import { repMarkdown, type RepRecord } from './rep-record.js';
import { resolveFixtures } from './resolve-fixtures.js';
import { runRep } from './run-rep.js';
import { planRollout } from './rollout-plan.js';
import { planReps, type ShardSpec } from './run-plan.js';
import { checkRepsOption, checkRunSize } from './run-limits.js';

/** Options of `turnkit run`. */
export interface RunOptions extends CommonOptions {
  /** The question file (resuming, the run's own when absent). */
  question?: string | undefined;
  /** Reps per fixture (default: the question's). */
  reps?: number | undefined;
  /** SUT calls at a time (default 4 on either backend; on the embedded one seeds and teardowns take turns). */
  concurrency?: number | undefined;
  /** Continue this run directory: only missing or errored reps run, each a fresh rep. */
  resume?: string | undefined;
  strategy?: StrategyChoice | undefined;
  /** Run one deterministic slice of the reps (`--shard I/N`); `turnkit merge` combines the slices. */
  shard?: ShardSpec | undefined;
  /** Aborting stops launching reps; running ones finish and tear down. */
  signal?: AbortSignal | undefined;
  /**
   * Aborting quits: no new reps, the command SUTs running now are killed with everything they started, their reps
   * are not recorded (so `--resume` runs them), their campaigns are torn down, and the manifest says `interrupted`
   * at once (before the teardowns, in case the process is stopped while they run). A second Ctrl-C.
   */
  quit?: AbortSignal | undefined;
  onProgress?: (progress: RunProgress) => void;
  /** Hears each warning as it arises, before the reps run (they are in the result too). */
  onWarning?: (message: string) => void;
}

/** Where a run stands, after each rep. */
export interface RunProgress {
  done: number;
  total: number;
  errors: number;
  elapsedMs: number;
  /** Estimated time left, from the mean time per finished rep and the concurrency. */
  etaMs: number | undefined;
  last: { fixture: string; rep: number; error?: string; ms: number };
}

/** How a run ended. */
export interface RunResult {
  dir: string;
  status: Manifest['status'];
  total: number;
  ran: number;
  errors: number;
  /** Reps still missing (an interrupted run): `--resume` runs them. */
  pending: number;
  /** What went wrong outside any rep (a rep file that could not be written): the run is incomplete. */
  failures: string[];
  /**
   * Reps whose scratch campaign could not be seeded (an unmigrated database, a shared row in conflict): the SUT was
   * never called, so they say nothing about it. The first one's message, to show.
   */
  seedErrors: { count: number; first?: string };
  /** The first errored rep in the run's order, as `FIXTURE rep N: stage: cause: message` (when any errored). */
  firstError?: string;
  /** What was said before the reps ran (a resume on another database server than the run started on). */
  warnings: string[];
}

/**
 * Runs a question as ev2 does: for each fixture its case file; for each rep a scratch campaign seeded, the SUT
 * called, the response and the SUT's effects recorded, the campaign torn down. Writes `runs/QUESTION/STAMP/`:
 * manifest.json first, then case files, reps and marks.csv (errored reps marked `error`, the rest blank).
 */
export async function runQuestion(options: RunOptions): Promise<RunResult> {
  const cwd = options.cwd ?? process.cwd();
  checkRepsOption(options.reps);
  const config = await loadConfig({ configPath: options.configPath, cwd });
  const projectDir = config.baseDir;
  const question = await loadQuestion(await questionFileOf(options.question, options.resume, cwd, projectDir));
  const q = question.question;
  const fixtures = await resolveFixtures(question, projectDir);
  // Said before a plan of every rep is made (a resume is bounded by the run it continues, checked the same way).
  checkRunSize(
    fixtures.length,
    options.reps ?? q.reps,
    options.reps !== undefined ? `--reps ${options.reps}` : question.at(['reps']),
  );
  const rubricPath = resolve(projectDir, q.rubric.path);
  const rubricText = await readOrFail(rubricPath, question.at(['rubric', 'path']));
  const source = await caseFileSource(question, config);
  const template = source.text;
  const caseFiles = new Map<string, string>();
  for (const { loaded } of fixtures) caseFiles.set(loaded.fixture.name, await source.render(loaded.fixture));
  const rollout = planRollout(
    question,
    config,
    source,
    fixtures.map(({ loaded }) => loaded.fixture),
    projectDir,
    options.quit,
  );
  const prepared = await prepareSut(question, projectDir);
  // After a quit no SUT starts, and a command SUT running then is killed with everything it started.
  const callSut: SutCaller = (context) =>
    options.quit?.aborted
      ? Promise.resolve({ error: { cause: 'exception', message: 'turnkit quit before the SUT ran' }, ms: 0 })
      : prepared({ ...context, quit: options.quit });
  const secrets = sutSecrets(q.sut);

  // A connection per running rep and one for the run itself, so that reps never queue for the pool.
  // With a signal to stop on, the run itself handles Ctrl-C: the embedded server must not exit under running reps.
  const poolSize = workersFor(options.concurrency ?? defaultConcurrency('postgres')) + 1;
  // An owner of the embedded server waits, as it closes, for another turnkit process still using it: said, not silent.
  const onGuests = (connections: number): void =>
    options.onWarning?.(
      `the embedded database stays up until ${connections} other connection(s) to it close (another turnkit process using it)`,
    );
  return usingDb(config, { ...options, poolSize, leaveSignals: options.signal !== undefined, onGuests }, async (db) => {
    const concurrency = options.concurrency ?? defaultConcurrency(db.backend);
    // Said once, before the run directory exists, rather than as every rep's seed error.
    if (db.backend === 'embedded' && options.strategy === 'database')
      throw new TurnkitError('USAGE', `--strategy database: ${EMBEDDED_HAS_NO_DATABASES}`);
    // Orphans of a killed run go before this one starts, so that nothing of theirs is mistaken for this run's.
    await collectGarbage(db);
    const serverVersion =
      (await db.pool.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0]?.v ?? '';
    const now = new Date();
    let dir: string;
    let manifest: Manifest;
    let pending: RepKey[];
    let attempt: number;
    const warnings: string[] = [];
    const names = fixtures.map(({ loaded }) => loaded.fixture.name);
    let reps = options.reps ?? q.reps;
    let shard = options.shard;
    let all = planReps(names, reps, shard);
    if (options.resume !== undefined) {
      dir = resolve(cwd, options.resume);
      const state = await readRunState(dir);
      manifest = state.manifest;
      // A resumed run keeps its own number of reps: a different one would drop or invent rows of marks.csv.
      if (options.reps !== undefined && options.reps !== manifest.question.reps) {
        throw new TurnkitError(
          'USAGE',
          `--reps ${options.reps}: ${shownPath(dir)} was started with ${manifest.question.reps} reps; resume it without --reps`,
        );
      }
      // A shard resumes as the slice it is: another spec would run reps that belong to another machine.
      const recordedShard = manifest.shard;
      if (
        options.shard &&
        (options.shard.index !== recordedShard?.index || options.shard.count !== recordedShard?.count)
      ) {
        throw new TurnkitError(
          'USAGE',
          `--shard ${options.shard.index}/${options.shard.count}: ${shownPath(dir)} was started ${recordedShard ? `as shard ${recordedShard.index}/${recordedShard.count}` : 'unsharded'}; resume it without --shard`,
        );
      }
      shard = recordedShard;
      reps = manifest.question.reps;
      all = planReps(names, reps, shard);
      checkUnchanged(manifest, { question: question.text, rubric: rubricText, template }, fixtures, dir);
      // A marks.csv that does not read stops the resume here, before a rep runs, rather than after all of them.
      const previous = await previousMarks(dir, manifest);
      pending = all.filter((key) => !state.completed.has(repId(key)));
      // A mark a person gave a rep that runs again judged a response that will not be the rep's: it goes to the
      // history file now, before any rep runs, so that no way this resume ends can leave it on the new response.
      const takenBack = marksFor(all, state, previous, new Set(pending.map(repId)));
      if (takenBack.replaced.length > 0) {
        await appendMarkHistory(
          historyFileOf(join(dir, 'marks.csv')),
          takenBack.replaced.map((change) => ({ ...change, by: 'turnkit run --resume: the rep runs again' })),
        );
        await writeRunFile(dir, 'marks.csv', formatMarks(takenBack.rows));
      }
      attempt = Math.max(0, ...state.order.map((entry) => entry.attempt)) + 1;
      // Reps on another server than the run's first ones are said and recorded: their numbers may not pool.
      const elsewhere = manifest.database.backend !== db.backend || manifest.database.serverVersion !== serverVersion;
      if (elsewhere) {
        warnings.push(
          `${shownPath(dir)} was started on ${manifest.database.backend} ${manifest.database.serverVersion}; its remaining reps run on ${db.backend} ${serverVersion} (recorded in the manifest)`,
        );
        options.onWarning?.(warnings.at(-1)!);
      }
      manifest = {
        ...manifest,
        status: 'running',
        order: state.order,
        resumed: [
          ...(manifest.resumed ?? []),
          {
            at: now.toISOString(),
            reps: pending.length,
            concurrency,
            strategy: options.strategy ?? 'remap',
            ...(elsewhere ? { database: { backend: db.backend, serverVersion } } : {}),
          },
        ],
      };
    } else {
      dir = await createRunDir(
        resolveFromConfig(config, config.paths.runs),
        q.id,
        now,
        shard ? `-shard-${shard.index}-of-${shard.count}` : '',
      );
      attempt = 1;
      pending = all;
      manifest = buildManifest({
        question,
        rubricText,
        rubricPath,
        template,
        templatePath: source.path,
        fixtures,
        projectDir,
        reps,
        concurrency,
        now,
        backend: db.backend,
        serverVersion,
        strategy: options.strategy ?? 'remap',
        shard,
      });
    }
    await writeRunFile(dir, 'manifest.json', serializeDocument(manifest));
    // A resumed run keeps the case files its reps were given (the template's hash was checked to be the same).
    if (options.resume === undefined) {
      for (const [name, text] of caseFiles) await writeRunFile(dir, join('case-files', `${name}.md`), text);
      // The rubric as the run used it, beside the reps: the marker shows it and judges read it from here.
      await writeRunFile(dir, RUBRIC_FILE, rubricText);
    }

    const session = new ScratchSession(db, {
      game: config.game,
      strategy: options.strategy,
      runId: `${q.id}/${relative(resolveFromConfig(config, config.paths.runs), dir)}`,
    });
    const byName = new Map(fixtures.map((entry) => [entry.loaded.fixture.name, entry]));
    const started = performance.now();
    let done = 0;
    let errors = 0;
    let next = 0;
    const failures: string[] = [];
    // Set when a rep found the database gone: no rep starts after it, and the run fails.
    let lost: string | undefined;
    const workers = Math.max(1, Math.min(workersFor(concurrency), pending.length));
    const slots = new Semaphore(concurrency);
    const sutSlot = <T>(call: () => Promise<T>): Promise<T> => slots.run(call);
    const stopped = (): boolean => options.signal?.aborted === true || options.quit?.aborted === true;
    let quitWrite: Promise<void> | undefined;
    const onQuit = (): void => {
      quitWrite = writeRunFile(
        dir,
        'manifest.json',
        serializeDocument({ ...manifest, status: 'interrupted', finishedAt: new Date().toISOString() }),
      ).catch(() => {});
    };
    if (options.quit?.aborted) onQuit();
    else options.quit?.addEventListener('abort', onQuit, { once: true });
    const worker = async (): Promise<void> => {
      while (next < pending.length && !stopped() && lost === undefined) {
        const key = pending[next++]!;
        const fixture = byName.get(key.fixture)!;
        const begun = { fixture: key.fixture, rep: key.rep, attempt };
        manifest.order.push(begun);
        // On disk as it starts: a run killed outright still shows what it had begun.
        await appendOrder(dir, begun);
        await keepEarlierAttempt(dir, key);
        const record = await runRep(session, callSut, {
          fixture: fixture.loaded.fixture,
          fixtureFile: fixture.loaded.shown,
          caseFile: caseFiles.get(key.fixture)!,
          rep: key.rep,
          attempt,
          concurrent: workers > 1,
          sutSlot,
          secrets,
          ...(rollout ? { rollout: await rollout.spec(session, fixture.loaded.fixture, key.rep) } : {}),
        });
        // A SUT killed because the user quit says nothing about the SUT: the rep stays not run, for --resume.
        if (options.quit?.aborted) continue;
        // A rep that failed because the database went away (its SUT refused a connection, its teardown too) is not a
        // SUT error: it is not recorded (--resume runs it again), its scratch campaign is left to gc, the run fails.
        const gone = record.error ? await databaseGone(db) : undefined;
        if (gone !== undefined) {
          lost ??= `${repFileBase(key.fixture, key.rep)}: the database went away during the rep (${gone}); the rep is not recorded and its scratch campaign is left to turnkit gc; when the database is back, finish the run with --resume`;
          continue;
        }
        try {
          await writeRep(dir, record);
        } catch (error) {
          // The rep is lost but the run goes on: the others finish, tear down, and --resume runs this one again.
          failures.push(
            `${repFileBase(key.fixture, key.rep)}.json: cannot write (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
          );
          continue;
        }
        done++;
        if (record.error) errors++;
        const elapsedMs = performance.now() - started;
        const left = pending.length - done;
        options.onProgress?.({
          done,
          total: pending.length,
          errors,
          elapsedMs,
          etaMs: left > 0 ? (elapsedMs / done) * left : 0,
          last: {
            fixture: key.fixture,
            rep: key.rep,
            ms: record.timings.totalMs,
            ...(record.error ? { error: record.error.cause } : {}),
          },
        });
      }
    };
    try {
      // Every worker settles before the session and the pool close: none is cut off while it holds a campaign.
      const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
      for (const outcome of settled)
        if (outcome.status === 'rejected')
          failures.push(`a worker stopped: ${(outcome.reason as Error)?.message ?? String(outcome.reason)}`);
      if (lost !== undefined) failures.unshift(lost);
    } finally {
      options.quit?.removeEventListener('abort', onQuit);
      await session.close();
      // The early "interrupted" lands before the final manifest, never over it.
      await quitWrite;
      const state = await readRunState(dir, manifest);
      const missing = all.filter((key) => !state.completed.has(repId(key)) && !state.errored.has(repId(key)));
      manifest = {
        ...manifest,
        status: missing.length > 0 ? 'interrupted' : 'complete',
        finishedAt: new Date().toISOString(),
      };
      await writeRunFile(dir, 'manifest.json', serializeDocument(manifest));
      await writeRunFile(dir, 'marks.csv', formatMarks(marksFor(all, state, await previousMarks(dir, manifest)).rows));
    }
    const state = await readRunState(dir, manifest);
    const missing = all.length - state.completed.size - state.errored.size;
    const seedFailed = all
      .map((key) => state.records.get(repId(key)))
      .filter((record) => record?.error?.stage === 'seed');
    const seedErrors = {
      count: seedFailed.length,
      ...(seedFailed[0]
        ? { first: `${seedFailed[0].fixture} rep ${seedFailed[0].rep}: ${seedFailed[0].error!.message}` }
        : {}),
    };
    const firstErrored = all.find((key) => state.errored.has(repId(key)));
    const firstError = firstErrored
      ? `${firstErrored.fixture} rep ${firstErrored.rep}: ${state.errored.get(repId(firstErrored))}`
      : undefined;
    return {
      dir,
      status: manifest.status,
      total: all.length,
      ran: done,
      errors: state.errored.size,
      pending: missing,
      failures,
      seedErrors,
      ...(firstError ? { firstError } : {}),
      warnings,
    };
  });
}

/**
 * SUT calls at a time when `--concurrency` is not given. The same on the embedded database: a real SUT waits seconds
 * for a model, and its calls overlap while turnkit's own database work (seeds, teardowns) takes turns on its one
 * connection, which costs a rep tens of milliseconds.
 */
export function defaultConcurrency(_backend: Backend): number {
  return 4;
}

/**
 * Reps in flight for K SUT calls at a time: a few more than K, so that the next reps' seeds and the last reps'
 * teardowns happen while SUTs run, off the SUT slots' critical path. On the embedded database too: there the seeds
 * and teardowns queue for turnkit's one connection, so a SUT slot that frees finds a rep seeded and waiting rather
 * than waiting for its worker's teardown and next seed behind every other worker's.
 */
export function workersFor(concurrency: number): number {
  return concurrency + Math.ceil(concurrency / 2);
}

async function writeRep(dir: string, record: RepRecord): Promise<void> {
  const base = repFileBase(record.fixture, record.rep);
  await writeRunFile(dir, `${base}.json`, serializeDocument(record), { durable: false });
  await writeRunFile(dir, `${base}.md`, repMarkdown(record), { durable: false });
}

async function readOrFail(path: string, at: string): Promise<string> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new TurnkitError('NOT_FOUND', `${at}: ${shownPath(path)}: ${describeReadError(error)}`);
  });
}
