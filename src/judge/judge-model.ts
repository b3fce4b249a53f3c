import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { inputDir, type FilesContext } from '../project/project-context.js';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { TurnkitError } from '../errors.js';
import { sha256 } from '../util/sha256.js';
import { parseMarks } from '../run-dir/marks/read-marks.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { orFallback } from '../run-dir/run-file.js';
import { RUBRIC_FILE } from '../run-dir/run-file-names.js';
import { runWriter } from '../run-dir/run-writer.js';
import { planReps } from '../run-dir/rep-order.js';
import { JudgeCache } from './judge-cache.js';
import { createJudgeCall, type JudgeCall } from './judge-client.js';
import { judgeFileSlug, type JudgeSettings } from '../config/judge-settings.js';
import type { Price } from '../model/spend.js';
import { gradeRun, questionOfRun } from './grader.js';
import { modelGrader } from './model-grader.js';

/** Options of `turnkit judge RUN_DIR --model NAME`. */
export interface JudgeModelOptions {
  dir: string;
  settings: JudgeSettings;
  /** Judge under this question file's rubric (a new version) instead of the one the run kept. */
  question?: string | undefined;
  /** The judge model's price (the config's), for the cost of the tokens its answers report. */
  price?: Price | undefined;
  /** Where the judge's API key variable is read (the command line passes the process's environment). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The model call (tests and other transports); the provider's SDK when absent. */
  call?: JudgeCall;
  onProgress?: (done: number, total: number) => void;
}

/** What a judge wrote. */
export interface JudgeModelResult {
  file: string;
  verdictsFile: string;
  grader: string;
  rubricVersion: string;
  pass: number;
  fail: number;
  na: number;
  error: number;
  notRun: number;
  /** Verdicts taken from the cache instead of the model. */
  cached: number;
  /** Reps the judge could not judge (no answer, or one that is not a valid verdict): marked error, worth a rerun. */
  judgeErrors: number;
  warnings: string[];
}

/**
 * Marks every rep of a run with an LLM judge: rubric, case file and response go to the model, which must answer
 * with a verdict the zod schema accepts; anything else is `error`, never `pass`. Never calls the SUT. Writes
 * `marks.judge-MODEL.csv` and `judge-MODEL.jsonl` (every verdict with its reason) atomically, only when every rep
 * has its mark; an unreachable endpoint or a refused key stops it with nothing written but the cache.
 * @example
 * const judged = await judge(project, { dir: result.dir, settings });
 */
export async function judge(project: FilesContext, options: JudgeModelOptions): Promise<JudgeModelResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    const dir = resolve(cwd, options.dir);
    const run = await readRun(dir);
    const { manifest } = run;
    const rubric = await rubricFor(options, run, cwd, project.paths.baseDir);
    const settings = options.settings;
    // A judge shown the state writes files of its own: the same reps judged both ways sit side by side.
    const slug = `${judgeFileSlug(settings.model)}${settings.state ? '-state' : ''}`;
    const warnings: string[] = [];
    if (manifest.sut.type === 'http' && manifest.sut.model === settings.model) {
      warnings.push(
        `the judge is the SUT's own model (${settings.model}): a model tends to grade its own answers kindly`,
      );
    }
    const grader = modelGrader({
      dir,
      manifest,
      settings,
      rubric,
      caseFiles: await readCaseFiles(run),
      call: options.call ?? createJudgeCall(settings, options.env),
      cache: await JudgeCache.open(dir),
      price: options.price,
      slug,
      total: planReps(
        manifest.fixtures.map((fixture) => fixture.name),
        manifest.question.reps,
        manifest.shard,
      ).length,
      onProgress: options.onProgress,
    });
    const file = join(dir, grader.marksFile);
    await refuseAnotherJudgesFile(run, grader.marksFile, grader.stamp!.grader!, shownPath(file));
    const { file: _file, rows: _rows, ...marks } = await gradeRun(run, grader);
    await recordJudgeModels(dir, grader.stamp!.grader!, grader.reported);
    return {
      file,
      verdictsFile: join(dir, `judge-${slug}.jsonl`),
      grader: grader.stamp!.grader!,
      rubricVersion: rubric.version,
      ...marks,
      ...grader.counts,
      warnings,
    };
  });
}

/**
 * Each fixture's case file as the run wrote it (empty when it is missing), by fixture name; a link out of the run
 * directory is refused, as every reader of a run refuses it.
 */
async function readCaseFiles(run: Run): Promise<Map<string, string>> {
  const caseFiles = new Map<string, string>();
  for (const fixture of run.manifest.fixtures)
    caseFiles.set(fixture.name, await run.text(join('case-files', `${fixture.name}.md`)).catch(orFallback('')));
  return caseFiles;
}

/** The rubric to judge under: a question file's current one, else the copy the run kept (checked by its hash). */
async function rubricFor(
  options: JudgeModelOptions,
  run: Run,
  cwd: string,
  projectDir: string,
): Promise<{ text: string; version: string; sha256: string }> {
  const { dir, manifest } = run;
  if (options.question !== undefined) {
    const question = await questionOfRun(options.question, cwd, run);
    const path = resolve(projectDir, question.question.rubric.path);
    const text = await readFile(path, 'utf8').catch(() => {
      throw new TurnkitError('NOT_FOUND', `${question.at(['rubric', 'path'])}: ${shownPath(path)}: no such file`);
    });
    return { text, version: question.question.rubric.version, sha256: sha256(text) };
  }
  // The run's own copy (read through the run, which refuses a link out of it), then the file at its path.
  const atPath = resolve(cwd, manifest.rubric.path);
  const candidates: [string, () => Promise<string>][] = [
    [join(dir, RUBRIC_FILE), () => run.text(RUBRIC_FILE)],
    [atPath, () => readFile(atPath, 'utf8')],
  ];
  for (const [path, read] of candidates) {
    if (!existsSync(path)) continue;
    const text = await read();
    if (sha256(text) === manifest.rubric.sha256)
      return { text, version: manifest.rubric.version, sha256: manifest.rubric.sha256 };
  }
  throw new TurnkitError(
    'NOT_FOUND',
    `${shownPath(dir)}: the run's rubric (${manifest.rubric.path}, sha256 ${manifest.rubric.sha256.slice(0, 12)}) is not in the run directory nor unchanged at its path; pass --question FILE to judge under the current rubric`,
  );
}

/**
 * Two models whose names make one file name (`col/lide`, `col-lide`) would overwrite each other's marks and verdicts:
 * a marks file another judge wrote is refused, naming that judge, before any call is made.
 */
async function refuseAnotherJudgesFile(run: Run, name: string, grader: string, shown: string): Promise<void> {
  if (!existsSync(join(run.dir, name))) return;
  const other = parseMarks(await run.text(name), shown).find((row) => row.grader && row.grader !== grader);
  if (!other?.grader) return;
  throw new TurnkitError(
    'BAD_INPUT',
    `${shown}: holds the marks of ${other.grader}, whose model name makes the same file name as ${grader}; move that file away first`,
  );
}

/**
 * Adds the model ids a judge's responses reported to the run's manifest (`models.judges`, by grader), after the ones
 * recorded before; the manifest is read again here and written only when an id is new, so that judging twice with
 * the same model leaves it byte for byte as it was.
 */
async function recordJudgeModels(dir: string, grader: string, reported: ReadonlySet<string>): Promise<void> {
  if (reported.size === 0) return;
  const { manifest } = await readRun(dir);
  const before = manifest.models?.judges?.[grader] ?? [];
  const ids = [...new Set([...before, ...reported])];
  if (ids.length === before.length) return;
  const models = { ...manifest.models, judges: { ...manifest.models?.judges, [grader]: ids } };
  await runWriter(dir).manifest({ ...manifest, models });
}
