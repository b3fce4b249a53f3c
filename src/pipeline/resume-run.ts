import { join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';
import { QUESTION_OBJECT } from '../question/load-question.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sha256 } from '../util/sha256.js';
import type { OpenedRun, RunSetting } from './opened-run.js';
import type { RunPlan } from './prepare-run.js';
import type { RunInput } from './run-input.js';
import { runWriter } from '../run-dir/run-writer.js';
import { marksFor, previousMarks } from '../run-dir/marks/run-marks.js';
import { planReps, startOrder } from '../run-dir/rep-order.js';
import { readManifest, readRunState, repId } from '../run-dir/run-state.js';
import type { QuestionFixture } from './resolve-fixtures.js';
import { machineOf, resumedSutFiles } from './run-provenance.js';

/**
 * Step 2 of a resumed run: checks that the run directory is the same experiment (question, rubric, template,
 * fixtures, reps, shard), takes back the marks of reps that run again into the history file, and records the resume
 * in the manifest. Only missing or errored reps are pending; the case files and rubric stay as the run wrote them.
 */
export async function resumeRunDir(
  dir: string,
  plan: RunPlan,
  input: RunInput,
  setting: RunSetting,
  onWarning?: (message: string) => void,
): Promise<OpenedRun> {
  const state = await readRunState(dir);
  let manifest = state.manifest;
  // A resumed run keeps its own number of reps: a different one would drop or invent rows of marks.csv.
  if (input.reps !== undefined && input.reps !== manifest.question.reps) {
    throw new TurnkitError(
      'USAGE',
      `--reps ${input.reps}: ${shownPath(dir)} was started with ${manifest.question.reps} reps; resume it without --reps`,
    );
  }
  // A shard resumes as the slice it is: another spec would run reps that belong to another machine.
  const recordedShard = manifest.shard;
  if (input.shard && (input.shard.index !== recordedShard?.index || input.shard.count !== recordedShard?.count)) {
    throw new TurnkitError(
      'USAGE',
      `--shard ${input.shard.index}/${input.shard.count}: ${shownPath(dir)} was started ${recordedShard ? `as shard ${recordedShard.index}/${recordedShard.count}` : 'unsharded'}; resume it without --shard`,
    );
  }
  const names = plan.fixtures.map(({ loaded }) => loaded.fixture.name);
  const all = planReps(names, manifest.question.reps, recordedShard);
  checkUnchanged(
    manifest,
    { question: plan.question.text, rubric: plan.rubricText, template: plan.template },
    plan.fixtures,
    dir,
  );
  // The SUT's script or prompt file edited since: refused when reps completed with the old one (they would not pool).
  const sutFiles = await resumedSutFiles(
    manifest,
    { projectDir: setting.projectDir, completed: state.completed.size },
    dir,
  );
  // A marks.csv that does not read stops the resume here, before a rep runs, rather than after all of them.
  const previous = await previousMarks(dir, manifest);
  const pending = startOrder(
    names,
    all.filter((key) => !state.completed.has(repId(key))),
  );
  // A mark a person gave a rep that runs again judged a response that will not be the rep's: it goes to the
  // history file now, before any rep runs, so that no way this resume ends can leave it on the new response.
  const takenBack = marksFor(all, state, previous, new Set(pending.map(repId)));
  if (takenBack.replaced.length > 0) {
    await runWriter(dir).history(
      'marks.csv',
      takenBack.replaced.map((change) => ({ ...change, by: 'turnkit run --resume: the rep runs again' })),
    );
    await runWriter(dir).marks('marks.csv', takenBack.rows);
  }
  const attempt = Math.max(0, ...state.order.map((entry) => entry.attempt)) + 1;
  const warnings: string[] = [];
  // Reps on another server than the run's first ones are said and recorded: their numbers may not pool.
  const { backend, serverVersion } = setting;
  const elsewhere = manifest.database.backend !== backend || manifest.database.serverVersion !== serverVersion;
  // Reps on another machine are recorded as such (timings, a local model's answers depend on it); old runs have none.
  const machine = machineOf();
  const moved = manifest.machine !== undefined && JSON.stringify(manifest.machine) !== JSON.stringify(machine);
  if (elsewhere) {
    warnings.push(
      `${shownPath(dir)} was started on ${manifest.database.backend} ${manifest.database.serverVersion}; its remaining reps run on ${backend} ${serverVersion} (recorded in the manifest)`,
    );
    onWarning?.(warnings.at(-1)!);
  }
  manifest = {
    ...manifest,
    status: 'running',
    order: state.order,
    // No rep had completed with the SUT's files as they were: the run is the new files' from here on.
    ...(sutFiles ? { sutFiles } : {}),
    resumed: [
      ...(manifest.resumed ?? []),
      {
        at: setting.now.toISOString(),
        reps: pending.length,
        concurrency: setting.concurrency,
        strategy: input.strategy ?? 'remap',
        ...(elsewhere ? { database: { backend, serverVersion } } : {}),
        ...(moved ? { machine } : {}),
        ...(sutFiles ? { sutFiles: 'changed' as const } : {}),
      },
    ],
  };
  await runWriter(dir).manifest(manifest);
  return { dir, manifest, all, pending, attempt, warnings };
}

/**
 * The question file a run uses: the one named, else, resuming, the one the run's manifest recorded (relative to the
 * project), so that `turnkit run --resume RUN_DIR` needs nothing the run directory does not already say.
 */
export async function questionFileOf(
  question: string | undefined,
  resume: string | undefined,
  cwd: string,
  projectDir: string,
): Promise<string> {
  if (question !== undefined) return resolve(cwd, question);
  if (resume === undefined)
    throw new TurnkitError('USAGE', 'turnkit run: name the question file (questions/ID.yaml), or --resume RUN_DIR');
  const dir = resolve(cwd, resume);
  const manifest = await readManifest(dir);
  // Nothing on disk holds a question that was given as an object: its caller gives it again.
  if (manifest.question.file.path === QUESTION_OBJECT)
    throw new TurnkitError('USAGE', `${shownPath(dir)}: its question was given as an object; give it again to resume`);
  return resolve(projectDir, manifest.question.file.path);
}

/** Refuses to resume a run that is not the same experiment: question, rubric, template and fixtures, byte for byte. */
function checkUnchanged(
  manifest: Manifest,
  texts: { question: string; rubric: string; template: string },
  fixtures: readonly QuestionFixture[],
  dir: string,
): void {
  const shown = shownPath(join(dir, 'manifest.json'));
  const refuse = (what: string): never => {
    throw new TurnkitError('BAD_INPUT', `${shown}: ${what} since this run started; start a new run`);
  };
  if (manifest.question.file.sha256 !== sha256(texts.question)) refuse('the question file changed');
  if (manifest.rubric.sha256 !== sha256(texts.rubric)) refuse(`the rubric ${manifest.rubric.path} changed`);
  if (manifest.caseFileTemplate.sha256 !== sha256(texts.template))
    refuse(`the case-file template ${manifest.caseFileTemplate.path} changed`);
  const now = new Set(fixtures.map(({ loaded }) => loaded.fixture.name));
  for (const recorded of manifest.fixtures)
    if (!now.has(recorded.name)) refuse(`fixture ${recorded.name} is no longer in the question`);
  for (const { loaded } of fixtures) {
    const recorded = manifest.fixtures.find((entry) => entry.name === loaded.fixture.name);
    if (!recorded) refuse(`fixture ${loaded.fixture.name} is new in the question`);
    if (recorded!.file.sha256 !== loaded.sha256) refuse(`fixture ${loaded.fixture.name} changed`);
  }
}
