// turnkit's library: a project opened once, then the operations every command is, each taking (project, input).
// The command line is one front door over these, turnkit/testing another. Internals stay internal.

/**
 * Opens a project: its config (a file, or an object), its paths, and its database (a URL given, or the embedded
 * one). Reads no environment variable and installs no signal handler; close it, or `await using` it.
 * @example
 * await using project = await openProject({ cwd: 'my-game', databaseUrl: 'postgres://localhost/game' });
 */
export { openProject } from './project/open-project.js';
export type { OpenProjectOptions, Project, ProjectPaths } from './project/open-project.js';
export type { FilesContext, ProjectContext } from './project/project-context.js';

/**
 * Types a `turnkit.config.ts`: the game's tables, scrub rules, case-file functions.
 * @example
 * export default defineConfig({ game: { campaigns: { table: 'campaigns' }, turns: { table: 'turns' } } });
 */
export { defineConfig } from './config/schema.js';
export type {
  TurnkitConfig,
  TurnkitConfigInput,
  GameConfig,
  CaseFileFunction,
  CaseFileContext,
} from './config/schema.js';

/**
 * Finds and loads a project's config file (turnkit.config.ts, .js or .json), checked.
 * @example
 * const config = await loadConfig({ cwd: 'my-game' });
 */
export { loadConfig } from './config/load.js';
export type { LoadedConfig } from './config/load.js';

/**
 * The sample game's config (the game `turnkit demo` and `turnkit sample` make).
 * @example
 * await using project = await openProject({ config: sampleGameConfig });
 */
export { sampleGameConfig } from './config/sample-config.js';

/**
 * The error every expected failure is: a one-line `message`, every problem in `problems`, a `code` to branch on.
 * @example
 * try { await run(project, { question }); } catch (error) { if (error instanceof TurnkitError) console.error(error.code); }
 */
export { TurnkitError } from './errors.js';
export type { TurnkitErrorCode } from './errors.js';

/**
 * Captures fixtures of a campaign from the project's database and writes them.
 * @example
 * const { files } = await capture(project, { campaign: '42', turns: { turn: 23 }, scrubKey: 'a-long-secret' });
 */
export { capture } from './fixture/capture/capture-fixtures.js';
export type { CaptureInput, CaptureResult } from './fixture/capture/capture-fixtures.js';
export type { TurnSelection } from './fixture/capture/capture.js';

/**
 * Reads a captured fixture file, checked against the format (no constructed fixture: see `loadFixture`).
 * @example
 * const fixture = await readFixture('fixtures/meridian-turn-23.json');
 */
export { readFixture } from './fixture/read-fixture.js';
export type { Fixture } from './fixture/format.js';

/**
 * Reads any fixture file: a captured one, or a constructed one materialized (its base's hash and old values checked).
 * @example
 * const { fixture, constructed } = await loadFixture('constructed/meridian-turn-23-deck-fixed.json');
 */
export { loadFixture } from './fixture/load-fixture.js';
export type { LoadedFixture } from './fixture/load-fixture.js';

/**
 * Verifies fixtures, constructed fixtures and questions as a run would before its first rep.
 * @example
 * const { problems } = await verify(project, { database: true });
 */
export { verify } from './pipeline/verify.js';
export type { VerifyInput, VerifyResult } from './fixture/verify-fixtures.js';

/**
 * Builds a constructed fixture from a base and a patch or an edited copy, and writes constructed/NAME.json.
 * @example
 * await construct(project, { fixture: 'fixtures/t23.json', turn: 22, patch: 'fix.json', name: 'fixed', why: 'typo' });
 */
export { construct } from './fixture/constructed/construct-fixture.js';
export type { ConstructInput } from './fixture/constructed/construct-fixture.js';
export type { SavedConstructed } from './fixture/constructed/save-constructed.js';

/**
 * The difference between two fixtures, row by row and column by column.
 * @example
 * const { changes } = diffFixtures(base.fixture, edited);
 */
export { diffFixtures } from './fixture/constructed/diff-fixtures.js';
export type { FixtureDiff } from './fixture/constructed/diff-fixtures.js';

/**
 * Materializes a constructed fixture (checking its base's hash and every old value).
 * @example
 * const fixture = await materialize(project, { constructed: 'constructed/meridian-turn-23-deck-fixed.json' });
 */
export { materialize } from './fixture/constructed/materialize.js';

/**
 * Re-applies a constructed fixture's changes to its recaptured base (or `onto`), or lists the conflicts.
 * @example
 * const { rewritten } = await rebase(project, { constructed: 'constructed/fixed.json' });
 */
export { rebase } from './fixture/constructed/rebase.js';

/**
 * Summarizes what a fixture holds: tables with row counts, turns, input (a constructed one's changes too).
 * @example
 * const { tables } = await show(project, { fixture: 'fixtures/meridian-turn-23.json' });
 */
export { show } from './fixture/show-fixture.js';

/**
 * Reads a run (and another to compare with) into a report: per fixture counts, pass rate, interval and verdict.
 * @example
 * const { report: numbers } = await report(project, { dir: result.dir, marks: 'marks.checks.csv' });
 */
export { report } from './report/report.js';

/**
 * Marks every rep of a run with an LLM judge (`settings`) and writes `marks.judge-MODEL.csv`.
 * @example
 * const judged = await judge(project, { dir: result.dir, settings });
 */
export { judge } from './judge/judge-model.js';

/**
 * Marks every rep of a run with the question's deterministic checks and writes `marks.checks.csv`.
 * @example
 * const { pass, fail } = await judgeChecks(project, { dir: result.dir });
 */
export { judgeChecks } from './judge/judge-checks.js';

/**
 * Measures how far two marks files of one run agree (Cohen's kappa and the disagreements).
 * @example
 * const { kappa } = await agree(project, { a: 'runs/q/1/marks.csv', b: 'runs/q/1/marks.checks.csv' });
 */
export { agree } from './marking/agree.js';

/**
 * Combines the shard directories of one run into one run directory, as if it had run unsharded.
 * @example
 * const merged = await merge(project, { dirs: ['runs/q/a-shard-1-of-2', 'runs/q/b-shard-2-of-2'] });
 */
export { merge } from './shard/merge-runs.js';
export type { RebaseResult } from './fixture/constructed/rebase.js';
export type { FixtureSummary } from './fixture/show-fixture.js';
export type { ReportResult } from './report/report.js';
export type { Report } from './report/build-report.js';
export type { JudgeModelResult } from './judge/judge-model.js';
export type { JudgeChecksResult } from './judge/judge-checks.js';
export type { JudgeSettings } from './config/judge-settings.js';
export type { AgreeResult } from './marking/agree.js';
export type { MergeResult } from './shard/merge-runs.js';

/**
 * Seeds a fixture as a scratch campaign that outlives the call; `teardown` removes it; `gc` removes orphans.
 * @example
 * const seeded = await seed(project, { fixture: 'fixtures/meridian-turn-23.json' });
 * await teardown(project, { key: seeded.id });
 */
export { seed, teardown, gc } from './scratch/scratch-operations.js';
export type { SeedInput, SeedResult, TeardownInput } from './scratch/scratch-operations.js';

/**
 * A scratch session on an open database, for seeding many fixtures and tearing each down (what a run does per rep).
 * @example
 * const session = new ScratchSession(project.db, { game: project.config.game });
 * const scratch = await session.seed(fixture);
 * try { await play(scratch.databaseUrl, scratch.key); } finally { await scratch.teardown(); await session.close(); }
 */
export { ScratchSession } from './scratch/scratch-session.js';

/**
 * Runs a question (a file, or an object whose SUT may be a function of this process): N reps per fixture, each in a
 * fresh scratch campaign; writes runs/QUESTION/STAMP/.
 * @example
 * const result = await run(project, { question: { ...question, sut: async (request) => 'I look around.' } });
 */
export { run } from './pipeline/run.js';
export type { RunInput, RunProgress } from './pipeline/run-input.js';
export type { RunResult } from './pipeline/finish-run.js';
export type { Question, QuestionInput, SutInput } from './question/question-format.js';
export type { SutFunction, SutRequest, SutTools } from './sut/sut-request.js';
export type { ModuleSutFunction } from './sut/sut-module.js';

/**
 * Which upstream turn misleads the SUT, by experiment: variants of a fixture with each turn neutralised, reps of each
 * through the question, ranked against the base with Holm-adjusted exact tests; writes
 * runs/QUESTION/attribute-FIXTURE-STAMP/.
 * @example
 * const { outcome } = await attribute(project, { fixture: 'fixtures/t23.json', question: 'questions/places.yaml' });
 */
export { attribute } from './attribution/attribute.js';
export type { AttributeInput, AttributeResult, NeutraliserChoice } from './attribution/attribute.js';
export type { SequentialOutcome } from './attribution/sequential-design.js';
export type { RankedVariant } from './attribution/rank-variants.js';

/**
 * Reads and checks a question file (`questions/ID.yaml` or `.json`), every problem with its line and column.
 * @example
 * const { question } = await loadQuestion('questions/places.yaml');
 */
export { loadQuestion } from './question/load-question.js';

/**
 * The one outcome policy: undefined when a run, a report (with `check`) or a judge succeeded, else the error.
 * @example
 * const failure = outcomeError({ run: result });
 * if (failure) throw failure;
 */
export { outcomeError } from './report/outcome.js';
export type { Outcome } from './report/outcome.js';

/**
 * A report as text or Markdown lines, as `turnkit report` prints it.
 * @example
 * for (const line of formatReport(numbers, 'md')) console.log(line);
 */
export { formatReport } from './report/format-report.js';

/**
 * The report's numbers: the Wilson 95% interval of a pass rate, the passes a target needs, Fisher's exact p.
 * @example
 * wilsonInterval(8, 9); passesNeeded(0.88, 9); fisherExact(8, 1, 4, 5);
 */
export { wilsonInterval, passesNeeded, fisherExact } from './stats/stats.js';

/**
 * pass^k of a fixture for k = 1..reps: the chance that k of its qualified reps all pass (null where k > pass + fail).
 * @example
 * passPowers(9, 1, 5); // [0.9, 0.8, 0.7, 0.6, 0.5]
 */
export { passPowers } from './stats/consistency.js';

/**
 * For CI: a report as JUnit XML (a test suite per tag, a test case per fixture, a failure per missed one with the
 * failing reps' notes), written atomically.
 * @example
 * const { report: numbers } = await report(project, { dir: result.dir, marks: 'marks.checks.csv' });
 * await writeJunitReport(numbers, '/tmp/turnkit-junit.xml');
 */
export { writeJunitReport } from './report/junit-report.js';

/**
 * For GitHub Actions: a report as workflow commands (an `::error` per missed fixture, a `::warning` per uncertain
 * verdict, a summary line; every value escaped), the failing reps' notes read from the run directory.
 * @example
 * for (const line of await githubReportLines(numbers)) console.log(line);
 */
export { githubReportLines } from './report/github-annotations.js';

/**
 * The shard of `--shard auto[/N]` from an environment you pass: a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX`
 * (with N or `TURNKIT_SHARD_COUNT`), else `TURNKIT_SHARD=I/N`; a usage error saying what to set otherwise.
 * @example
 * const shard = shardFromEnvironment({ auto: true, count: 3 }, { JOB_COMPLETION_INDEX: '1' }); // shard 2 of 3
 * await run(project, { question: 'questions/places.yaml', shard });
 */
export { shardFromEnvironment } from './shard/shard-env.js';
export type { AutoShard, ShardEnvironment } from './shard/shard-env.js';
export type { ShardSpec } from './run-dir/rep-order.js';

/**
 * Opens a database from a config (a URL given, else the embedded one), or runs a function with one and closes it.
 * @example
 * const db = await openDb(config, { databaseUrl: 'postgres://localhost/game' });
 */
export { openDb, usingDb } from './db/connect.js';
export type { Db, Backend, OpenDbOptions } from './db/connect.js';

/**
 * Applies a folder of SQL migrations (the sample game's: SAMPLE_MIGRATIONS_DIR), each once.
 * @example
 * await migrate(project.db, SAMPLE_MIGRATIONS_DIR);
 */
export { migrate, SAMPLE_MIGRATIONS_DIR } from './db/migrate.js';

/**
 * Creates a campaign of the sample game with N turns (for tests and demos).
 * @example
 * const campaign = await createSampleCampaign(project.db, { turns: 30 });
 */
export { createSampleCampaign } from './sample/create-sample.js';
