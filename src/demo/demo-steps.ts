import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseDocument } from 'yaml';
import { commandContext } from '../app/command-context.js';
import { capture } from '../fixture/capture/capture-fixtures.js';
import { loadFixture } from '../fixture/load-fixture.js';
import { shownPath } from '../util/shown-path.js';
import { saveConstructed } from '../fixture/constructed/save-constructed.js';
import { TurnkitError } from '../errors.js';
import { judgeChecks, CHECKS_MARKS_FILE } from '../judge/judge-checks.js';
import { report } from '../report/report.js';
import { agree } from '../marking/agree.js';
import { judge } from '../judge/judge-model.js';
import { runQuestion } from '../app/run-question.js';
import { sample } from '../sample/sample-command.js';
import { CORRECTED_NARRATION, MISLEADING_NARRATION, MISLEADING_TURN, PROBE_TURN } from '../sample/turn-script.js';
import { PACKAGE_ROOT } from '../version.js';
import { DEMO_SCRUB_KEY } from '../fixture/scrub/demo-key.js';
import { writeHtmlReport } from '../view/write-html-report.js';
import type { DemoOptions, DemoResult } from './demo-command.js';
import { DEMO_ROLLOUT_TURNS, demoRollout } from './demo-rollout.js';

// The steps of `turnkit demo` (demo-command.ts), in a module of their own so that they load while its database opens.

/** The name of the sample question the demo runs. */
const QUESTION = 'places';

/** Runs the demo's steps in `dir`, whose embedded database is open: see `demo`. */
export async function demoSteps(
  dir: string,
  common: { cwd: string; embedded: true },
  step: (line: string) => void,
  options: DemoOptions,
): Promise<DemoResult> {
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const result = await work();
    return [result, performance.now() - started];
  };
  step('creating a sample campaign on the embedded database (a stand-in for a live session)');
  const [{ campaign }, sampleMs] = await timed(() => sample({ ...common, turns: 40 }));

  const name = 'meridian-turn-23';
  step(`capturing turn ${PROBE_TURN} of campaign ${campaign}, where the SUT goes wrong, as fixtures/${name}.json`);
  const [captured, captureMs] = await timed(async () =>
    // The live session's next inputs too (their input columns only), for the rollout.
    capture(await commandContext(common), {
      campaign,
      turns: { turn: PROBE_TURN },
      name,
      scrubKey: DEMO_SCRUB_KEY,
      ahead: DEMO_ROLLOUT_TURNS,
    }),
  );
  const fixtureFile = captured.files[0]!;

  step(`constructing ${name}-deck-fixed: turn ${MISLEADING_TURN}'s narration corrected, everything else the same`);
  const constructedFile = await constructFix(fixtureFile, join(dir, 'constructed'), name);

  const questionFile = await writeQuestion(dir, [fixtureFile, constructedFile], options.reps);
  step(`running questions/${QUESTION}.yaml: ${options.reps ?? 10} reps per fixture against examples/sample-sut.mjs`);
  const [run, runMs] = await timed(() =>
    runQuestion({ ...common, question: questionFile, onProgress: options.onProgress }),
  );
  if (run.status !== 'complete')
    throw new TurnkitError(
      'INCOMPLETE_RUN',
      `${shownPath(run.dir)}: the demo's run did not complete (${run.pending} rep(s) not run)`,
    );

  step(`marking every rep with the question's deterministic checks (${CHECKS_MARKS_FILE})`);
  const project = { cwd: common.cwd, paths: { baseDir: common.cwd } };
  const checks = await judgeChecks(project, { dir: run.dir });
  let judged: DemoResult['judged'];
  if (options.judge) {
    step(`marking every rep with the judge ${options.judge.model}`);
    const result = await judge(project, { dir: run.dir, settings: options.judge, env: process.env });
    judged = { result, agreement: await agree(project, { a: checks.file, b: result.file }) };
  }
  const { report: result } = await report(project, { dir: run.dir, marks: CHECKS_MARKS_FILE });
  const html = await writeHtmlReport({ cwd: common.cwd, dir: run.dir, marks: CHECKS_MARKS_FILE });
  step(
    `rolling out ${DEMO_ROLLOUT_TURNS} turns from turn ${PROBE_TURN} with the session's recorded inputs (questions/places-rollout.yaml), each turn checked`,
  );
  const [rollout, rolloutMs] = await timed(() => demoRollout(dir, common, questionFile));
  return {
    dir,
    campaign,
    fixture: fixtureFile,
    constructed: constructedFile,
    run,
    checks,
    report: result,
    html: html.file,
    judged,
    rollout,
    timings: { sampleMs, captureMs, runMs, rolloutMs },
  };
}

// The sample's turn 19 puts the mess hall on deck 3; the world facts put it on deck 2. The fix is that one value.
async function constructFix(fixtureFile: string, outDir: string, name: string): Promise<string> {
  const base = await loadFixture(fixtureFile);
  const edited = structuredClone(base.fixture);
  const row = edited.tables.turns?.rows.find((candidate) => candidate.turn_number === MISLEADING_TURN);
  if (!row || row.narration !== MISLEADING_NARRATION)
    throw new TurnkitError(
      'FIXTURE',
      `${shownPath(fixtureFile)}: turn ${MISLEADING_TURN} does not hold the sample's misleading narration`,
    );
  row.narration = CORRECTED_NARRATION;
  const saved = await saveConstructed({
    base,
    edited,
    turn: MISLEADING_TURN,
    name: `${name}-deck-fixed`,
    why: `Turn ${MISLEADING_TURN}'s narration put the mess hall on deck 3; the world facts put it on deck 2. Does the SUT still give the wrong route once that upstream narration is right?`,
    dir: outDir,
  });
  return saved.file;
}

// The package's sample question, rubric and template, pointed at the demo's fixtures and the package's sample SUT.
async function writeQuestion(dir: string, fixtures: readonly string[], reps: number | undefined): Promise<string> {
  const questions = join(dir, 'questions');
  await mkdir(questions, { recursive: true });
  const source = join(PACKAGE_ROOT, 'questions');
  const document = parseDocument(await readFile(join(source, `${QUESTION}.yaml`), 'utf8'));
  document.set(
    'fixtures',
    fixtures.map((file) => ({ path: relative(dir, file), tag: 'dev' })),
  );
  document.setIn(['sut', 'command'], [process.execPath, join(PACKAGE_ROOT, 'examples', 'sample-sut.mjs')]);
  if (reps !== undefined) document.set('reps', reps);
  for (const file of ['places-rubric.md', 'case-file.md']) await copyFile(join(source, file), join(questions, file));
  const file = join(questions, `${QUESTION}.yaml`);
  await writeFile(file, document.toString());
  return file;
}
