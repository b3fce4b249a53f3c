import { checkGameTables } from '../checks/checks-tables.js';
import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { checkKnownRecords } from './known-records.js';
import { resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import type { ProjectContext } from '../project/project-context.js';
import { shownPath } from '../util/shown-path.js';
import { prepareSut, type SutCaller } from '../sut/call-sut.js';
import { caseFileSource } from '../question/case-file-source.js';
import { factPlaceholders } from '../question/case-file.js';
import { loadQuestion, questionFromObject, type LoadedQuestion } from '../question/load-question.js';
import { questionFileOf } from './resume-run.js';
import { resolveFixtures, type QuestionFixture } from './resolve-fixtures.js';
import type { RunInput } from './run-input.js';
import { checkBudgetPrice } from './run-limits.js';
import { checkRepsOption, checkRunSize } from '../question/rep-limits.js';
import { sutSecrets } from '../sut/sut-secrets.js';
import type { RolloutPlan } from '../rollout/rollout-plan.js';
import type { FactQuery } from '../scratch/read-facts.js';
import { factQueriesOf } from '../question/fact-queries.js';

/** Everything a run needs before it touches the database: the question, its fixtures, texts and SUT, all checked. */
export interface RunPlan {
  question: LoadedQuestion;
  fixtures: QuestionFixture[];
  rubricPath: string;
  rubricText: string;
  /** The case-file template's text (or a config function's source) and its path relative to the project. */
  template: string;
  templatePath: string;
  /** Each fixture's case file, by fixture name. */
  caseFiles: Map<string, string>;
  /** Calls the SUT for a rep; after a quit it refuses to start one. */
  callSut: SutCaller;
  /** Secrets the SUT can see, kept out of what a rep records. */
  secrets: string[];
  /** A rollout question's turns (`turns: K` above 1), checked; absent for one turn per rep. */
  rollout?: RolloutPlan;
  /** The question's facts, each as SQL and its alternatives' SQL: read in every rep's campaign. */
  facts?: Record<string, FactQuery>;
}

/**
 * Step 1 of a run: reads and checks the question (a file, the resumed run's own, or an object), its fixtures, rubric
 * and case files, and prepares the SUT, so that every mistake is said before a database is opened or a rep runs.
 */
export async function prepareRun(project: ProjectContext, input: RunInput): Promise<RunPlan> {
  checkRepsOption(input.reps);
  // The command line parses it; a library caller's 0 would wait forever for a SUT slot.
  if (input.concurrency !== undefined && !(Number.isInteger(input.concurrency) && input.concurrency >= 1))
    throw new TurnkitError('USAGE', `concurrency: expected a positive whole number, got ${input.concurrency}`);
  const { config } = project;
  const projectDir = project.paths.baseDir;
  const question = withPlayers(
    typeof input.question === 'object'
      ? questionFromObject(input.question)
      : await loadQuestion(await questionFileOf(input.question, input.resume, project.cwd ?? projectDir, projectDir)),
    input.players,
  );
  const q = question.question;
  const resolved = await resolveFixtures(question, projectDir);
  // --upgrade reaches the database now: the copies must exist before the fixtures are checked and case files made.
  // Imported here, so that a run without it never loads upgrade/ (and the capture and scrubbing that come with it).
  const fixtures: QuestionFixture[] = input.upgrade
    ? await (await import('../upgrade/upgrade-for-run.js')).upgradeForRun(project, resolved, {
        scrubKey: (name) => input.env?.[name],
        signal: input.signal,
      })
    : resolved;
  checkGameTables(
    question,
    fixtures.map(({ loaded }) => loaded.fixture),
  );
  // Checks that disagree with the question's own known records would mark every rep wrongly: refused now.
  const known = await checkKnownRecords(question);
  for (const warning of known.warnings) (input.onWarning ?? project.onWarning)?.(warning);
  // Said before a plan of every rep is made (a resume is bounded by the run it continues, checked the same way).
  checkRunSize(
    fixtures.length,
    input.reps ?? q.reps,
    input.reps !== undefined ? `--reps ${input.reps}` : question.at(['reps']),
  );
  // A budget that could never be kept is refused now, before anything is spent.
  checkBudgetPrice(input.maxCost, config.prices, q.sut, config.file, question.at(['sut', 'model']));
  const rubricPath = resolve(projectDir, q.rubric.path);
  const rubricText = await readOrFail(rubricPath, question.at(['rubric', 'path']));
  const source = await caseFileSource(question, config);
  const facts = factQueries(question);
  const caseFiles = new Map<string, string>();
  for (const { loaded } of fixtures) caseFiles.set(loaded.fixture.name, await source.render(loaded.fixture));
  for (const name of new Set([...caseFiles.values()].flatMap(factPlaceholders)))
    if (!facts || !Object.hasOwn(facts, name))
      throw new TurnkitError(
        'BAD_INPUT',
        `${source.path}: {{fact:${name}}}: the question has no fact "${name}" (its facts: ${Object.keys(facts ?? {}).join(', ') || 'none'})`,
      );
  const env = input.env ?? {};
  // rollout/ is imported for a rollout only: a one-turn question's run never loads it.
  const rollout: RolloutPlan | undefined =
    (question.question.turns ?? 1) > 1
      ? await (await import('../rollout/rollout-plan.js')).planRollout(
          question,
          config,
          source,
          fixtures.map(({ loaded }) => loaded.fixture),
          projectDir,
          env,
          input.quit,
        )
      : refuseRolloutSettings(question);
  const prepared = await prepareSut(question, projectDir, env);
  // After a quit no SUT starts, and a command SUT running then is killed with everything it started.
  const callSut: SutCaller = (context) =>
    input.quit?.aborted
      ? Promise.resolve({ error: { cause: 'exception', message: 'turnkit quit before the SUT ran' }, ms: 0 })
      : prepared({ ...context, quit: input.quit, env });
  return {
    question,
    fixtures,
    rubricPath,
    rubricText,
    template: source.text,
    templatePath: source.path,
    caseFiles,
    callSut,
    // A simulated player's key is as secret as the SUT's: an endpoint's error that echoes it must not reach a rep.
    secrets: [
      ...sutSecrets(q.sut, env),
      ...(q.players?.type === 'simulated' && q.players.apiKeyEnv && env[q.players.apiKeyEnv]
        ? [env[q.players.apiKeyEnv]!]
        : []),
    ],
    ...(rollout ? { rollout } : {}),
    ...(facts ? { facts } : {}),
  };
}

// The question's facts as queries; a `{{fact:NAME}}` of its case file or a fact rule naming no fact is refused here.
function factQueries(question: LoadedQuestion): Record<string, FactQuery> | undefined {
  const q = question.question;
  const facts = factQueriesOf(q.facts);
  const known = Object.keys(facts ?? {});
  const named: [PropertyKey[], string][] = [
    ...(q.checks?.facts ?? []).map((rule, index): [PropertyKey[], string] => [
      ['checks', 'facts', index, 'fact'],
      rule.fact,
    ]),
    ...(q.probes ?? []).map((probe, index): [PropertyKey[], string] => [['probes', index, 'fact'], probe.fact]),
  ];
  for (const [at, fact] of named)
    if (!known.includes(fact))
      throw new TurnkitError(
        'BAD_INPUT',
        `${question.at(at)}: no fact is named "${fact}" (the question's facts: ${known.join(', ') || 'none'})`,
      );
  if (q.probes && (q.turns ?? 1) < 2)
    throw new TurnkitError(
      'BAD_INPUT',
      `${question.at(['probes'])}: probes follow a rollout's turns (turns: 2 or more); for one turn use checks.facts`,
    );
  return facts;
}

// `--players recorded`: the question as it is, but its rollout plays the recorded inputs.
function withPlayers(question: LoadedQuestion, players: RunInput['players']): LoadedQuestion {
  if (players === undefined) return question;
  if ((question.question.turns ?? 1) <= 1)
    throw new TurnkitError(
      'USAGE',
      `--players ${players}: ${question.at(['turns'])}: the question plays one turn per rep; players play the turns after the first`,
    );
  return { ...question, question: { ...question.question, players: { type: 'recorded' } } };
}

async function readOrFail(path: string, at: string): Promise<string> {
  return readInputText(path, `${at}: ${shownPath(path)}`, HAND_WRITTEN_LIMIT);
}

/**
 * A one-turn question plays no rollout: rollout settings on it would be ignored, so they are refused rather than
 * silently dropped.
 */
function refuseRolloutSettings(question: LoadedQuestion): undefined {
  for (const key of ['transcriptChecks', 'players', 'stopOn'] as const)
    if (question.question[key] !== undefined)
      throw new TurnkitError(
        'BAD_INPUT',
        `${question.at([key])}: ${key} is for rollouts; add turns: N (2 or more) to the question, or remove it`,
      );
  return undefined;
}
