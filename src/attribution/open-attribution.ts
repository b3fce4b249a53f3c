import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { TurnkitError } from '../errors.js';
import { loadFixture, portablePath, type LoadedFixture } from '../fixture/load-fixture.js';
import { turnsInOrder } from '../fixture/turns/turn-rows.js';
import { inputPath, type ProjectContext } from '../project/project-context.js';
import type { QuestionInput } from '../question/question-format.js';
import { loadQuestion, questionFromObject, type LoadedQuestion } from '../question/load-question.js';
import { runStamp } from '../run-dir/run-layout.js';
import { parseJsonText } from '../util/json/json-source.js';
import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { shownPath } from '../util/shown-path.js';
import type { AttributeInput } from './attribute.js';
import { readAttributionState, writeAttributionState, type AttributionState } from './attribution-state.js';
import { buildVariant, type Variant } from './build-variants.js';
import type { Neutraliser } from './neutralise-turn.js';
import { selectTurns } from './select-turns.js';

/** An attribution folder opened for its looks: its state, the question each look runs, the base and the variants. */
export interface OpenedAttribution {
  dir: string;
  state: AttributionState;
  /** The question each look runs: the derived file's absolute path, or the caller's object. */
  question: string | QuestionInput;
  base: LoadedFixture;
  variants: Variant[];
}

/** A new attribution: the question and fixture checked, the variants written, the folder and its state first. */
export async function startAttribution(project: ProjectContext, input: AttributeInput): Promise<OpenedAttribution> {
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

/** An attribution folder continued: its state read, its fixtures checked against what it recorded. */
export async function reopenAttribution(project: ProjectContext, input: AttributeInput): Promise<OpenedAttribution> {
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

/** The neutraliser a state records, its patch files read. */
export async function loadNeutraliser(
  project: ProjectContext,
  choice: AttributionState['neutraliser'],
): Promise<Neutraliser> {
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

/** Why a variant exists, as its constructed fixture says it. */
export function whyOf(state: AttributionState, label: string): string {
  const how =
    state.neutraliser.kind === 'drop'
      ? 'output text left out'
      : state.neutraliser.kind === 'text'
        ? 'output text replaced by a neutral text'
        : "the author's patch applied";
  return `turnkit attribute: ${label} neutralised (${how}), to see whether it misleads the SUT on ${state.question}`;
}
