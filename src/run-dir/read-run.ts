import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Manifest } from './manifest.js';
import { readMarksFile, scopeOfRun, type MarksScope, type ReadMark } from './marks/read-marks.js';
import { RUBRIC_FILE } from './run-file-names.js';
import { fileInRun, orFallback, readRunText } from './run-file.js';
import { readManifest, readRunState, type RunState } from './run-state.js';

/** How a run's files are read: a file of the run directory by its relative path (injectable, for counting reads). */
type RunTextReader = (dir: string, relative: string) => Promise<string>;

/** Options of `readRun`. */
export interface ReadRunOptions {
  /** The manifest, when the caller holds it already (a newer one than the file, while a run writes it). */
  manifest?: Manifest | undefined;
  /** Reads a run file (default: `readRunText`, which refuses a symbolic link out of the run directory). */
  readText?: RunTextReader | undefined;
}

/**
 * A run directory opened for reading: its manifest at once, everything else when first asked for and then kept, so
 * that one command reads each rep record, marks file and rubric once however many parts of it look at them.
 */
export interface Run {
  /** The run directory, absolute. */
  readonly dir: string;
  readonly manifest: Manifest;
  /** The reps a marks file of this run may name. */
  readonly scope: MarksScope;
  /** The rep records and what they say of each rep (read on first call, once). */
  reps(): Promise<RunState>;
  /** A marks file checked against this run (a path relative to the run directory, or absolute), read once. */
  marks(file: string): Promise<Map<string, ReadMark>>;
  /** The names of the marks files in the run directory (`marks.csv`, `marks.NAME.csv`), sorted. */
  marksFileNames(): Promise<string[]>;
  /** The names of every file at the top of the run directory, sorted. */
  fileNames(): Promise<string[]>;
  /** A text file of the run by its relative path (a missing one fails as a missing file does), read once. */
  text(relative: string): Promise<string>;
  /**
   * The real path of a regular file inside the run, for streaming it (the viewer's file route), or undefined when
   * the path leaves the run (`..`, an absolute path, a link out) or names no file: never cached, never read here.
   */
  pathOf(relative: string): Promise<string | undefined>;
  /** A fixture's case file as the run kept it, or the note a page shows in its place. */
  caseFile(fixture: string): Promise<string>;
  /** The rubric as the run kept it, or the note a page shows in its place. */
  rubric(): Promise<string>;
}

/**
 * The one reader of a run directory: reads and checks its manifest, and gives the rest (rep records, run state,
 * order, marks files, verdict files, rubric, case files) through one object that reads each file once.
 * @example
 * const run = await readRun('runs/places/STAMP');
 * const { records } = await run.reps();
 */
export async function readRun(dir: string, options: ReadRunOptions = {}): Promise<Run> {
  const root = resolve(dir);
  const readText = options.readText ?? readRunText;
  const manifest = options.manifest ?? (await readManifest(root));
  const scope = scopeOfRun(manifest);
  const texts = new Map<string, Promise<string>>();
  const text = (relative: string): Promise<string> => {
    let read = texts.get(relative);
    if (!read) texts.set(relative, (read = readText(root, relative)));
    return read;
  };
  const marksRead = new Map<string, Promise<Map<string, ReadMark>>>();
  let state: Promise<RunState> | undefined;
  let names: Promise<string[]> | undefined;
  const fileNames = (): Promise<string[]> =>
    (names ??= existsSync(root) ? readdir(root).then((entries) => entries.sort()) : Promise.resolve([]));
  return {
    dir: root,
    manifest,
    scope,
    reps: () => (state ??= readRunState(root, manifest, readText)),
    marks(file) {
      const path = resolve(root, file);
      let read = marksRead.get(path);
      if (!read) marksRead.set(path, (read = readMarksFile(path, scope)));
      return read;
    },
    fileNames,
    marksFileNames: async () => (await fileNames()).filter((name) => /^marks(\.[\w.-]+)?\.csv$/.test(name)),
    text,
    pathOf: (relative) => fileInRun(root, relative),
    caseFile: (fixture) =>
      text(join('case-files', `${fixture}.md`)).catch(orFallback('(no case file in the run directory)')),
    rubric: () =>
      text(RUBRIC_FILE).catch(orFallback(`(the rubric ${manifest.rubric.path} is not in the run directory)`)),
  };
}

/** A marks file outside any run directory (`turnkit agree` of two loose files): checked for no run in particular. */
export function readLooseMarks(file: string): Promise<Map<string, ReadMark>> {
  return readMarksFile(resolve(file), undefined);
}
