import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { TurnkitError } from '../errors.js';
import { loadFixture, portablePath, type LoadedFixture } from '../fixture/load-fixture.js';
import { turnsInOrder } from '../fixture/turns/turn-rows.js';
import { CHECKS_MARKS_FILE, judgeChecks } from '../judge/judge-checks.js';
import { run } from '../pipeline/run.js';
import type { RunInput, RunProgress } from '../pipeline/run-input.js';
import { inputDir, inputPath, withProjectDb, type ProjectContext } from '../project/project-context.js';
import type { QuestionInput } from '../question/question-format.js';
import { loadQuestion, questionFromObject, type LoadedQuestion } from '../question/load-question.js';
import { readRun } from '../run-dir/read-run.js';
import { runStamp } from '../run-dir/run-layout.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { parseJsonText } from '../util/json/json-source.js';
import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { showingPathsFrom, shownPath } from '../util/shown-path.js';
import { attributionHtml } from './attribution-html.js';
import { readAttributionState, writeAttributionState, type AttributionState } from './attribution-state.js';
import { buildVariant, type Variant } from './build-variants.js';
import { attributionJson } from './format-attribution.js';
import type { Neutraliser } from './neutralise-turn.js';
import { selectTurns } from './select-turns.js';
import type { ArmCounts } from './rank-variants.js';
import { sequentialAttribution, type SequentialOutcome } from './sequential-design.js';

/** How the author neutralises a turn: as `Neutraliser`, the patches given as a folder of `turn-N.json` files. */
export type NeutraliserChoice = { kind: 'drop' } | { kind: 'text'; text: string } | { kind: 'patches'; dir: string };

/** What to attribute and how: the input of `attribute(project, input)`. */
export interface AttributeInput
  extends Pick<RunInput, 'concurrency' | 'strategy' | 'env' | 'signal' | 'quit' | 'onWarning'> {
  /** The base fixture (relative to the project folder or the context's cwd); not with `resume`. */
  fixture?: string | undefined;
  /** The question whose checks mark the reps: a file, or an object (a library caller's, its SUT a function). */
  question?: string | QuestionInput | undefined;
  /** Which upstream turns: "each" (default) or a list of turns and ranges ("15-22", "3,19"). */
  turns?: string | undefined;
  /** Turns neutralised together in one variant (default 1: a variant per turn). */
  window?: number | undefined;
  /** How a turn is neutralised (default: its output text left out). */
  neutraliser?: NeutraliserChoice | undefined;
  /** Reps per arm at each look (default 10), looks at most (default 4), familywise error rate (default 0.05). */
  repsPerLook?: number | undefined;
  looks?: number | undefined;
  alpha?: number | undefined;
  /** Continue this attribution folder: finished looks are counted again from their runs, the rest run. */
  resume?: string | undefined;
  /** Also write the variants found significant (that raised the pass rate) to this folder as constructed fixtures. */
  saveTo?: string | undefined;
  /** Hears each look's run progress. */
  onProgress?: ((look: number, progress: RunProgress) => void) | undefined;
  /** Hears each look as it is counted. */
  onLook?: ((look: number, counts: ArmCounts[]) => void) | undefined;
}

/** What an attribution found and wrote. */
export interface AttributeResult {
  /** The attribution folder: attribution.json, question, variants/, looks/, attribution.html. */
  dir: string;
  outcome: SequentialOutcome;
  /** The arms: the base fixture's name, then each variant. */
  base: string;
  variants: Variant[];
  /** Constructed fixtures written by `saveTo`. */
  saved: string[];
  html: string;
}

/** The environment variable each look's SUT sees: 1, 2, ... so that a SUT seeded by its rep draws afresh per look. */
const LOOK_VARIABLE = 'TURNKIT_LOOK';

/**
 * Finds the upstream turn that misleads the SUT, by experiment: for each chosen turn (or window) a variant of the
 * fixture with that turn neutralised, written as a constructed fixture; then looks of reps of the base and every
 * variant through the question's run (each look a run of its own under the attribution folder), marked by the
 * question's checks, until a variant's pass rate differs from the base's at the kept error rate or the looks are
 * spent (`sequentialAttribution`). Writes `runs/QUESTION/attribute-FIXTURE-STAMP/`.
 * @example
 * const { outcome } = await attribute(project, { fixture: 'fixtures/t23.json', question: 'questions/places.yaml' });
 */
export async function attribute(project: ProjectContext, input: AttributeInput): Promise<AttributeResult> {
  return showingPathsFrom(inputDir(project), async () => {
    const projectDir = project.paths.baseDir;
    const opened = input.resume !== undefined ? await reopen(project, input) : await start(project, input);
    const { dir, state, question, base, variants } = opened;
    const questionFile = typeof question === 'string' ? question : undefined;
    const runQuestion = (fixtures: string[]): string | QuestionInput =>
      questionFile ?? { ...(question as QuestionInput), fixtures };
    const armNames = [base.fixture.name, ...variants.map((v) => v.name)];
    const fixturePaths = [base.path, ...variants.map((v) => v.file)].map((file) => relative(projectDir, file));
    const outcome = await withProjectDb(project, async (db) => {
      const withDb = { ...project, db };
      const draw = async (look: number, reps: number): Promise<ArmCounts[]> => {
        const lookRoot = join(dir, 'looks', `look-${look}`);
        const env = { ...(input.env ?? {}), [LOOK_VARIABLE]: String(look) };
        const existing = await lookRun(lookRoot);
        const common: RunInput = {
          concurrency: input.concurrency,
          strategy: input.strategy,
          env,
          signal: input.signal,
          quit: input.quit,
          onWarning: input.onWarning,
          onProgress: (progress) => input.onProgress?.(look, progress),
        };
        const runs = { ...withDb, paths: { ...withDb.paths, runs: lookRoot } };
        let runDir = existing;
        if (runDir === undefined || (await readRun(runDir)).manifest.status !== 'complete') {
          const result = await run(runs, {
            ...common,
            question: runQuestion(fixturePaths),
            reps,
            ...(runDir !== undefined ? { resume: runDir } : {}),
          });
          runDir = result.dir;
          const recorded = relative(dir, runDir);
          if (!state.looks.includes(recorded)) {
            state.looks.push(recorded);
            await writeAttributionState(dir, state);
          }
          if (result.status !== 'complete')
            throw new TurnkitError(
              'INCOMPLETE_RUN',
              `${shownPath(dir)}: look ${look} stopped with ${result.pending} rep(s) not run; continue with turnkit attribute --resume ${shownPath(dir)}`,
            );
        }
        const counts = await countArms(project, runDir, armNames, look, input.onWarning);
        input.onLook?.(look, counts);
        return counts;
      };
      return sequentialAttribution(
        variants.map((v) => v.label),
        draw,
        state.design,
      );
    });
    state.outcome = attributionJson(outcome);
    await writeAttributionState(dir, state);
    const html = join(dir, 'attribution.html');
    await writeFileAtomic(
      html,
      attributionHtml({ fixture: base.fixture.name, question: state.question, outcome, variants, dir: shownPath(dir) }),
    );
    const saved: string[] = [];
    if (input.saveTo !== undefined) {
      const to = inputPath(project, input.saveTo);
      const neutraliser = await loadNeutraliser(project, state.neutraliser);
      for (const label of outcome.significant) {
        const row = outcome.ranking.find((r) => r.label === label);
        const variant = variants.find((v) => v.label === label);
        if (!variant || !row || (row.change ?? 0) <= 0) continue;
        saved.push((await buildVariant(base, variant, neutraliser, to, whyOf(state, variant.label))).file);
      }
    }
    return { dir, outcome, base: base.fixture.name, variants, saved, html };
  });
}

interface OpenedAttribution {
  dir: string;
  state: AttributionState;
  /** The question each look runs: the derived file's absolute path, or the caller's object. */
  question: string | QuestionInput;
  base: LoadedFixture;
  variants: Variant[];
}

// A new attribution: the question and fixture checked, the variants written, the folder and its state first.
async function start(project: ProjectContext, input: AttributeInput): Promise<OpenedAttribution> {
  if (input.fixture === undefined) throw new TurnkitError('USAGE', 'give the fixture to attribute');
  if (input.question === undefined) throw new TurnkitError('USAGE', 'give the question: --question FILE');
  const projectDir = project.paths.baseDir;
  const loaded: LoadedQuestion =
    typeof input.question === 'object'
      ? questionFromObject(input.question)
      : await loadQuestion(inputPath(project, input.question));
  if (!loaded.question.checks)
    throw new TurnkitError(
      'BAD_INPUT',
      `${loaded.shown}: has no checks; attribute marks each rep with the question's deterministic checks`,
    );
  const base = await loadFixture(inputPath(project, input.fixture));
  const kept = turnsInOrder(base.fixture)
    .map((entry) => entry.turn)
    .filter((turn) => turn < base.fixture.input.turn);
  const neutraliserChoice = input.neutraliser ?? { kind: 'drop' };
  const patches =
    neutraliserChoice.kind === 'patches' ? await patchFiles(inputPath(project, neutraliserChoice.dir)) : undefined;
  // With the author's patches, the turns are those patched unless a list is given.
  const spec = input.turns ?? (patches ? [...patches.keys()].sort((a, b) => a - b).join(',') : 'each');
  const selections = selectTurns(spec, kept, '--turns', input.window ?? 1);
  const design = { repsPerLook: input.repsPerLook ?? 10, maxLooks: input.looks ?? 4, alpha: input.alpha ?? 0.05 };
  const dir = join(project.paths.runs, loaded.question.id, `attribute-${base.fixture.name}-${runStamp(new Date())}`);
  if (existsSync(dir)) throw new TurnkitError('EXISTS', `${shownPath(dir)}: exists; attributions are never reused`);
  await mkdir(join(dir, 'variants'), { recursive: true, mode: 0o700 });
  const state: AttributionState = {
    format: 'turnkit.attribution/1',
    question: typeof input.question === 'string' ? portablePath(relative(projectDir, loaded.path)) : loaded.shown,
    fixture: { path: portablePath(relative(projectDir, base.path)), sha256: base.sha256 },
    turns: spec,
    neutraliser:
      neutraliserChoice.kind === 'patches'
        ? {
            kind: 'patches',
            files: Object.fromEntries(
              [...patches!].map(([turn, file]) => [String(turn), portablePath(relative(projectDir, file))]),
            ),
          }
        : neutraliserChoice,
    design,
    variants: [],
    looks: [],
  };
  const neutraliser = await loadNeutraliser(project, state.neutraliser);
  const variants: Variant[] = [];
  for (const selection of selections)
    variants.push(
      await buildVariant(base, selection, neutraliser, join(dir, 'variants'), whyOf(state, selection.label)),
    );
  state.variants = variants.map((v) => ({
    label: v.label,
    turns: v.turns,
    name: v.name,
    file: portablePath(relative(dir, v.file)),
  }));
  const question =
    typeof input.question === 'object'
      ? input.question
      : await writeDerivedQuestion(dir, loaded, [base.path, ...variants.map((v) => v.file)], projectDir);
  await writeAttributionState(dir, state);
  return { dir, state, question, base, variants };
}

// An attribution folder continued: its state read, its fixtures checked against what it recorded.
async function reopen(project: ProjectContext, input: AttributeInput): Promise<OpenedAttribution> {
  const dir = inputPath(project, input.resume!);
  const state = await readAttributionState(dir);
  const projectDir = project.paths.baseDir;
  const base = await loadFixture(resolve(projectDir, state.fixture.path));
  if (base.sha256 !== state.fixture.sha256)
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(dir)}: ${base.shown} has changed since the attribution began; start a new one`,
    );
  const variants = state.variants.map((v) => ({ ...v, file: resolve(dir, v.file) }));
  const question = typeof input.question === 'object' ? input.question : join(dir, DERIVED_QUESTION);
  return { dir, state, question, base, variants };
}

/** The question each look runs, beside the attribution: the author's, its fixtures the base and the variants. */
const DERIVED_QUESTION = 'question.yaml';

async function writeDerivedQuestion(
  dir: string,
  loaded: LoadedQuestion,
  fixtures: readonly string[],
  projectDir: string,
): Promise<string> {
  // The author's file as written (comments kept), only its fixtures replaced: paths stay relative to the project.
  const document = parseDocument(loaded.text);
  document.set(
    'fixtures',
    fixtures.map((file) => portablePath(relative(projectDir, file))),
  );
  const file = join(dir, DERIVED_QUESTION);
  await writeFile(file, document.toString(), { mode: 0o600 });
  return file;
}

// The turn-N.json files of the author's patch folder, by turn.
async function patchFiles(folder: string): Promise<Map<number, string>> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    throw new TurnkitError(
      'NOT_FOUND',
      `${shownPath(folder)}: no such folder (--patches names a folder of turn-N.json)`,
    );
  }
  const found = new Map<number, string>();
  for (const name of names) {
    const match = /^turn-(\d+)\.json$/.exec(name);
    if (match) found.set(Number(match[1]), join(folder, name));
  }
  if (found.size === 0)
    throw new TurnkitError(
      'BAD_INPUT',
      `${shownPath(folder)}: holds no turn-N.json patch (turn-19.json patches turn 19)`,
    );
  return found;
}

async function loadNeutraliser(project: ProjectContext, choice: AttributionState['neutraliser']): Promise<Neutraliser> {
  if (choice.kind !== 'patches') return choice;
  const patches = new Map<number, { file: string; patch: unknown }>();
  for (const [turn, file] of Object.entries(choice.files)) {
    const path = resolve(project.paths.baseDir, file);
    const shown = shownPath(path);
    patches.set(Number(turn), {
      file: shown,
      patch: parseJsonText(await readInputText(path, shown, HAND_WRITTEN_LIMIT), shown),
    });
  }
  return { kind: 'patches', patches };
}

function whyOf(state: AttributionState, label: string): string {
  const how =
    state.neutraliser.kind === 'drop'
      ? 'output text left out'
      : state.neutraliser.kind === 'text'
        ? 'output text replaced by a neutral text'
        : "the author's patch applied";
  return `turnkit attribute: ${label} neutralised (${how}), to see whether it misleads the SUT on ${state.question}`;
}

// The checks mark the look's reps; each arm's passes and fails (n/a and errored reps count in neither).
async function countArms(
  project: ProjectContext,
  runDir: string,
  armNames: readonly string[],
  look: number,
  onWarning: ((message: string) => void) | undefined,
): Promise<ArmCounts[]> {
  await judgeChecks(project, { dir: runDir });
  const run = await readRun(runDir);
  const marks = await run.marks(CHECKS_MARKS_FILE);
  const counts = new Map(armNames.map((name) => [name, { pass: 0, fail: 0 }]));
  let errors = 0;
  for (const mark of marks.values()) {
    const arm = counts.get(mark.fixture);
    if (!arm) continue;
    if (mark.mark === 'pass') arm.pass++;
    else if (mark.mark === 'fail') arm.fail++;
    else if (mark.mark === 'error') errors++;
  }
  const counted = [...counts.values()].reduce((sum, arm) => sum + arm.pass + arm.fail, 0);
  if (counted === 0)
    throw new TurnkitError(
      'SUT_FAILED',
      `${shownPath(runDir)}: no rep of look ${look} was marked pass or fail (${errors} errored); see its reps`,
    );
  if (errors > 0) onWarning?.(`look ${look}: ${errors} rep(s) errored and count in no arm (${shownPath(runDir)})`);
  return armNames.map((name) => counts.get(name)!);
}

// The run directory of a look begun earlier: the one folder under looks/look-K/QUESTION/.
async function lookRun(lookRoot: string): Promise<string | undefined> {
  if (!existsSync(lookRoot)) return undefined;
  for (const question of await readdir(lookRoot)) {
    const runs = (await readdir(join(lookRoot, question))).sort();
    if (runs.length > 0) return join(lookRoot, question, runs[runs.length - 1]!);
  }
  return undefined;
}
