import { join, relative } from 'node:path';
import { TurnkitError } from '../errors.js';
import { run } from '../pipeline/run.js';
import type { RunInput, RunProgress } from '../pipeline/run-input.js';
import { inputDir, inputPath, withProjectDb, type ProjectContext } from '../project/project-context.js';
import type { QuestionInput } from '../question/question-format.js';
import { readRun } from '../run-dir/read-run.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { showingPathsFrom, shownPath } from '../util/shown-path.js';
import { attributionHtml } from './attribution-html.js';
import { writeAttributionState } from './attribution-state.js';
import { buildVariant, type Variant } from './build-variants.js';
import { attributionJson } from './format-attribution.js';
import type { ArmCounts } from './rank-variants.js';
import { sequentialAttribution, type SequentialOutcome } from './sequential-design.js';
import { countArms, lookRun } from './count-arms.js';
import { loadNeutraliser, reopenAttribution, startAttribution, whyOf } from './open-attribution.js';

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
    const opened =
      input.resume !== undefined ? await reopenAttribution(project, input) : await startAttribution(project, input);
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
