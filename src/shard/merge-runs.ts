import { inputDir, type FilesContext } from '../project/project-context.js';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { shownPath, showingPathsFrom } from '../util/shown-path.js';
import { removeStaleTemps, tempSibling } from '../util/process/temp-names.js';
import { TurnkitError } from '../errors.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sumSpend } from '../model/spend.js';
import { mergedModels } from '../pipeline/run-provenance.js';
import { findShardDirs } from './find-shards.js';
import type { MarkRow } from '../run-dir/marks/marks-file.js';
import { parseMarksText } from '../run-dir/marks/read-marks.js';
import { runStamp } from '../run-dir/run-layout.js';
import { RUBRIC_FILE } from '../run-dir/run-file-names.js';
import { runWriter } from '../run-dir/run-writer.js';
import { judgeLines, verdictRep } from '../run-dir/judge-lines.js';
import { inShard, planReps } from '../run-dir/rep-order.js';
import { ORDER_FILE, readRunState, repId, type RunState } from '../run-dir/run-state.js';

/** Options of `turnkit merge`. */
export interface MergeOptions {
  /** The shard directories, one per shard, in any order; or folders or globs holding them (found inside). */
  dirs: readonly string[];
  /** The merged run's directory (default: beside the first shard, `STAMP-merged`). */
  out?: string | undefined;
}

/** What `turnkit merge` wrote. */
export interface MergeResult {
  dir: string;
  shards: number;
  reps: number;
  /** Marks files merged (marks.csv always; others that every shard has). */
  marksFiles: string[];
  /** Judge files (`judge-MODEL.jsonl`: verdicts and their spend; the judge cache) every shard has: concatenated. */
  judgeFiles: string[];
  /** Marks and judge files some shards have and others lack: left out. */
  skipped: string[];
}

/**
 * Combines the shard directories of one run (`turnkit run --shard I/N` on N machines) into one run directory whose
 * manifest, reps, marks and judge files are those of an unsharded run. Shards must be the same experiment, byte for byte, every
 * shard present once and complete. The merged directory is new; on any failure it is removed, and the shards are
 * only read.
 * @example
 * const merged = await merge(project, { dirs: ['runs/q/a-shard-1-of-2', 'runs/q/b-shard-2-of-2'] });
 */
export async function merge(project: FilesContext, options: MergeOptions): Promise<MergeResult> {
  // Its messages show paths from the project (or the context's cwd), wherever the process is.
  return showingPathsFrom(inputDir(project), async () => {
    const cwd = inputDir(project);
    if (options.dirs.length === 0) throw new TurnkitError('USAGE', 'name the shard directories to merge');
    const dirs = await findShardDirs(options.dirs, cwd);
    const states = await Promise.all(dirs.map((dir) => readRunState(dir)));
    const shards = checkShards(dirs, states);
    const first = states[0]!.manifest;
    const out =
      options.out !== undefined ? resolve(cwd, options.out) : join(dirname(dirs[0]!), `${runStamp(new Date())}-merged`);
    const exists = (): TurnkitError =>
      new TurnkitError('EXISTS', `${shownPath(out)}: exists; a merged run is always a new directory`);
    if (existsSync(out)) throw exists();
    await mkdir(dirname(out), { recursive: true, mode: 0o700 });
    // A merge killed part-way (SIGKILL, Ctrl-C) left its temporary folder: it goes now, once its process is gone.
    await removeStaleTemps(dirname(out));
    // Built beside the target and renamed into place as the last step, so a merge stopped at any moment leaves no
    // directory that looks like a run: the merged run is whole or absent.
    const temp = tempSibling(out);
    await mkdir(temp, { mode: 0o700 });
    try {
      const result = await writeMerged(temp, out, shards, first);
      if (existsSync(out)) throw exists();
      await rename(temp, out);
      return result;
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  });
}

interface Shard {
  dir: string;
  state: RunState;
}

function checkShards(dirs: readonly string[], states: readonly RunState[]): Shard[] {
  const first = states[0]!.manifest;
  const seen = new Map<number, string>();
  const incomplete: string[] = [];
  const shards = states.map((state, i) => {
    const dir = dirs[i]!;
    const shown = shownPath(dir);
    const manifest = state.manifest;
    if (!manifest.shard) throw new TurnkitError('BAD_INPUT', `${shown}: not a shard (it was not run with --shard I/N)`);
    const differs = sameExperiment(first, manifest);
    if (differs)
      throw new TurnkitError(
        'BAD_INPUT',
        `${shown}: not a shard of the same run as ${shownPath(dirs[0]!)}: ${differs}`,
      );
    const earlier = seen.get(manifest.shard.index);
    if (earlier !== undefined) {
      const what = earlier === dir ? 'is given twice' : `is also ${shownPath(earlier)}`;
      throw new TurnkitError('BAD_INPUT', `${shown}: shard ${manifest.shard.index}/${manifest.shard.count} ${what}`);
    }
    seen.set(manifest.shard.index, dir);
    if (manifest.status !== 'complete')
      incomplete.push(
        `${shown}: shard ${manifest.shard.index}/${manifest.shard.count} is ${manifest.status}; finish it with turnkit run --resume ${shown} first`,
      );
    return { dir, state };
  });
  const count = first.shard!.count;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index));
  // Every shard that is missing or unfinished at once, so that one look says what is left to do.
  const problems = [
    ...(missing.length > 0
      ? [
          `shard${missing.length > 1 ? 's' : ''} ${missing.map((index) => `${index}/${count}`).join(', ')} missing: merge needs every shard of the run`,
        ]
      : []),
    ...incomplete,
  ];
  if (problems.length > 0) throw new TurnkitError('BAD_INPUT', problems.join('; '));
  return shards.sort((a, b) => a.state.manifest.shard!.index - b.state.manifest.shard!.index);
}

/** What makes two shards different experiments, or undefined when they are one. */
function sameExperiment(a: Manifest, b: Manifest): string | undefined {
  if (a.question.id !== b.question.id) return `question "${b.question.id}", not "${a.question.id}"`;
  if (a.question.file.sha256 !== b.question.file.sha256) return 'the question file differs';
  if (a.question.reps !== b.question.reps) return `${b.question.reps} reps per fixture, not ${a.question.reps}`;
  if (a.rubric.sha256 !== b.rubric.sha256 || a.rubric.version !== b.rubric.version) return 'the rubric differs';
  if (a.caseFileTemplate.sha256 !== b.caseFileTemplate.sha256) return 'the case-file template differs';
  const fixtures = (manifest: Manifest): string =>
    JSON.stringify(manifest.fixtures.map((fixture) => [fixture.name, fixture.file.sha256, fixture.tag ?? null]));
  if (fixtures(a) !== fixtures(b)) return 'the fixtures differ';
  if (a.shard?.count !== b.shard?.count) return `split ${b.shard?.count} ways, not ${a.shard?.count}`;
  return undefined;
}

/** The merged run's manifest: the first shard's, complete, its order every shard's, its shards listed. */
function mergedManifest(out: string, shards: readonly Shard[], first: Manifest): Manifest {
  const starts = shards.map((shard) => shard.state.manifest.startedAt).sort();
  const ends = shards.map((shard) => shard.state.manifest.finishedAt ?? '').sort();
  const { shard: _shard, resumed: _resumed, spend: _spend, models: _models, ...rest } = first;
  const models = mergedModels(shards.map((shard) => shard.state.manifest.models));
  const spends = shards.flatMap((shard) => (shard.state.manifest.spend ? [shard.state.manifest.spend.sut] : []));
  return {
    ...rest,
    status: 'complete',
    startedAt: starts[0]!,
    finishedAt: ends[ends.length - 1]!,
    order: shards.flatMap((shard) => shard.state.order),
    merged: shards.map(({ dir, state }) => ({
      // Relative to the merged run, with "/" on every system, like the manifest's other paths.
      dir: relative(out, dir).split('\\').join('/'),
      shard: state.manifest.shard!,
      startedAt: state.manifest.startedAt,
      ...(state.manifest.finishedAt ? { finishedAt: state.manifest.finishedAt } : {}),
      database: state.manifest.database,
      ...(state.manifest.machine ? { machine: state.manifest.machine } : {}),
    })),
    ...(models ? { models } : {}),
    // The shards' SUT spends add up: each holds its own reps' calls.
    ...(spends.length > 0 ? { spend: { sut: sumSpend(spends) } } : {}),
  };
}

// Writes into `temp`; paths recorded in the manifest are relative to `out`, where the folder will be.
async function writeMerged(temp: string, out: string, shards: readonly Shard[], first: Manifest): Promise<MergeResult> {
  const names = first.fixtures.map((fixture) => fixture.name);
  const all = planReps(names, first.question.reps);
  const manifest = mergedManifest(out, shards, first);
  // The manifest goes first, as in a run: a directory without one is plainly not a finished merge.
  const write = runWriter(temp);
  await write.manifest(manifest);
  await copyShardFiles(temp, shards);
  await write.file(ORDER_FILE, manifest.order.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  const marksFiles = await sharedFiles(shards, /^marks(\.[\w.-]+)?\.csv$/);
  // A judge's verdicts hold what it cost: they merge as its marks file does, or the merged report loses that spend.
  const judgeFiles = await sharedFiles(shards, /^judge-.+\.jsonl$/);
  for (const file of marksFiles.everywhere) await write.marks(file, await mergedMarks(file, shards, first));
  for (const file of judgeFiles.everywhere) await write.file(file, await mergedVerdicts(file, shards, names));
  return {
    dir: out,
    shards: shards.length,
    reps: all.length,
    marksFiles: marksFiles.everywhere,
    judgeFiles: judgeFiles.everywhere,
    skipped: [...marksFiles.somewhere, ...judgeFiles.somewhere].sort(),
  };
}

/** The first shard's case files and rubric, and every shard's reps, copied (never over a file already there). */
async function copyShardFiles(temp: string, shards: readonly Shard[]): Promise<void> {
  const copy = (from: string, name: string) =>
    cp(join(from, name), join(temp, name), { recursive: true, errorOnExist: true, force: false });
  await copy(shards[0]!.dir, 'case-files');
  if (existsSync(join(shards[0]!.dir, RUBRIC_FILE))) await copy(shards[0]!.dir, RUBRIC_FILE);
  for (const { dir } of shards) if (existsSync(join(dir, 'reps'))) await copy(dir, 'reps');
}

/** A marks file every shard has, merged: each shard's rows of its own reps (checked as such), every rep a row. */
async function mergedMarks(file: string, shards: readonly Shard[], first: Manifest): Promise<MarkRow[]> {
  const names = first.fixtures.map((fixture) => fixture.name);
  const rows = new Map<string, MarkRow>();
  for (const { dir, state } of shards) {
    const shard = state.manifest.shard!;
    const text = await readFile(join(dir, file), 'utf8');
    const marks = parseMarksText(text, shownPath(join(dir, file)), {
      fixtures: names,
      reps: first.question.reps,
      inRun: (key) => inShard(names, shard, key),
    });
    for (const [id, { line: _line, ...row }] of marks) rows.set(id, row);
  }
  return planReps(names, first.question.reps).map((key) => rows.get(repId(key)) ?? { ...key, mark: '', note: '' });
}

/** A judge's verdicts file every shard has, concatenated: a verdict of a rep of another shard is refused. */
async function mergedVerdicts(file: string, shards: readonly Shard[], names: readonly string[]): Promise<string> {
  let text = '';
  for (const { dir, state } of shards) {
    const shard = state.manifest.shard!;
    const shown = shownPath(join(dir, file));
    const lines = judgeLines(await readFile(join(dir, file), 'utf8'));
    // As in a marks file, a verdict of a rep of another shard is refused: it would count that rep's spend twice.
    for (const { line, entry } of lines) {
      const rep = verdictRep(entry);
      if (rep && !inShard(names, shard, rep))
        throw new TurnkitError(
          'BAD_INPUT',
          `${shown}:${line}: ${rep.fixture} rep ${rep.rep} is not a rep of this shard (${shard.index}/${shard.count})`,
        );
    }
    text += lines.map(({ text: line }) => `${line}\n`).join('');
  }
  return text;
}

/** The files named like `pattern` that every shard has, and those only some have. */
async function sharedFiles(
  shards: readonly Shard[],
  pattern: RegExp,
): Promise<{ everywhere: string[]; somewhere: string[] }> {
  const listings = await Promise.all(
    shards.map(async ({ dir }) => new Set((await readdir(dir)).filter((name) => pattern.test(name)))),
  );
  const everywhere = [...listings[0]!].filter((name) => listings.every((names) => names.has(name))).sort();
  const somewhere = [...new Set(listings.flatMap((names) => [...names]))]
    .filter((name) => !everywhere.includes(name))
    .sort();
  return { everywhere, somewhere };
}
