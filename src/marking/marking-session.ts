import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { TurnkitError } from '../errors.js';
import { parseJsonText } from '../util/json/json-source.js';
import { shownPath } from '../util/shown-path.js';
import { isRunsOwnRow, type Mark, type MarkRow, type TurnMark } from '../run-dir/marks/marks-file.js';
import type { Manifest } from '../run-dir/manifest.js';
import { historyFileOf } from '../run-dir/marks/marks-history.js';
import { readRun, type Run } from '../run-dir/read-run.js';
import { runWriter } from '../run-dir/run-writer.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import { planReps } from '../run-dir/rep-order.js';
import { repId, type RepKey } from '../run-dir/run-state.js';
import { seededShuffle } from '../util/seeded-random.js';
import { blindLabels, blindScrubber, type BlindLabel } from './blind-labels.js';

/** Options of `turnkit mark RUN_DIR`. */
export interface MarkingOptions {
  dir: string;
  /** Writes `marks.NAME.csv` (default: marks.csv, the run's own). */
  grader?: string | undefined;
  /** Re-mark for self-agreement: shuffled order, earlier marks hidden, a file of its own. */
  blind?: boolean | undefined;
  /** The blind order's seed (default: the one recorded for this file, else a new random one). */
  seed?: number | undefined;
  /** Who marks (default: `user`, else the login name). */
  who?: string | undefined;
  /** The user's name as the environment says it ($USER; the command line passes it). */
  user?: string | undefined;
  /** The folder `dir` is relative to (default: none, so a relative `dir` is as Node takes it). */
  cwd?: string | undefined;
}

/** One rep as the marker shows it. */
export interface MarkingRep extends RepKey {
  record: RepRecord | undefined;
  /** The case file; in a blind re-mark with every fixture name and file replaced by the case's neutral name. */
  caseFile: string;
  /** What the screen calls the rep: `alpha rep 2`, or in a blind re-mark `case 1 · item 3 of 12` (nothing else). */
  label: string;
  /** Errored (or never run): shown as such and skipped by default. */
  skipped: boolean;
}

/** A grading of one run, rep by rep, saved at every mark. */
export class MarkingSession {
  private constructor(
    /** The marks file this session writes. */
    readonly file: string,
    readonly manifest: Manifest,
    readonly rubric: string,
    /** The reps in marking order (shuffled when blind). */
    readonly reps: readonly MarkingRep[],
    private readonly marks: Map<string, MarkRow>,
    readonly who: string,
    readonly blind: { seed: number } | undefined,
    private readonly scrub: (text: string) => string = (text) => text,
  ) {}

  /** Opens a run for marking: its reps, case files, rubric, and the marks given so far in this session's file. */
  static async open(options: MarkingOptions): Promise<MarkingSession> {
    const dir = resolve(options.cwd ?? '', options.dir);
    const run = await readRun(dir);
    const state = await run.reps();
    const { manifest } = run;
    if (options.grader !== undefined && !/^[\w.-]+$/.test(options.grader))
      throw new TurnkitError('USAGE', `--grader ${options.grader}: use letters, digits, ".", "_" and "-"`);
    // These names are the files judges and blind re-marks write: a person's marks must never be overwritten by one.
    if (options.grader !== undefined && /(^|\.)(checks|blind|history)$|^judge-/i.test(options.grader)) {
      throw new TurnkitError(
        'USAGE',
        `--grader ${options.grader}: that name belongs to the files turnkit's judges write; choose another`,
      );
    }
    const file = join(dir, marksFileName(options));
    const base = basename(file, '.csv');
    const names = manifest.fixtures.map((fixture) => fixture.name);
    const caseFiles = new Map<string, string>();
    for (const name of names) caseFiles.set(name, await run.caseFile(name));
    let keys = planReps(names, manifest.question.reps, manifest.shard);
    let blind: { seed: number } | undefined;
    let labels: BlindLabel[] | undefined;
    let scrub = (text: string): string => text;
    if (options.blind) {
      blind = { seed: options.seed ?? (await recordedSeed(run, base)) ?? Math.floor(Math.random() * 2 ** 31) };
      keys = seededShuffle(keys, blind.seed);
      labels = blindLabels(manifest, keys);
      scrub = blindScrubber(manifest, labels);
      // The seed is kept beside the file, so that reopening continues in the same order; with it, which rep each
      // neutral label stands for (the marks file itself names fixture and rep, so the report joins it as it is).
      await runWriter(dir).file(`${base}.seed.json`, `${JSON.stringify({ seed: blind.seed, labels }, null, 2)}\n`);
    }
    if (keys.length === 0)
      throw new TurnkitError(
        'BAD_INPUT',
        `${shownPath(dir)}: this run holds no reps to mark (a shard with fewer reps than shards)`,
      );
    const reps = keys.map((key, index) => {
      const record = state.records.get(repId(key));
      const label = labels?.[index]?.label ?? `${key.fixture} rep ${key.rep}`;
      return {
        ...key,
        record,
        caseFile: scrub(caseFiles.get(key.fixture) ?? ''),
        label,
        skipped: !record || record.error !== null,
      };
    });
    const marks = new Map<string, MarkRow>();
    if (existsSync(file)) {
      for (const [id, { line: _line, ...row }] of await run.marks(file)) {
        // An errored or missing rep that --resume has run since is to be marked now: its old row says nothing.
        const record = state.records.get(id);
        // Only the rows turnkit wrote itself count as stale: an error a person gave by hand stays.
        const stale = record && !record.error && isRunsOwnRow(row);
        if (!stale) marks.set(id, row);
      }
    }
    const rubric = await run.rubric();
    return new MarkingSession(
      file,
      manifest,
      rubric,
      reps,
      marks,
      options.who ?? defaultWho(options.user),
      blind,
      scrub,
    );
  }

  /**
   * Text as a screen may show it: in a blind re-mark every fixture name and file (in a response, an error, a note)
   * becomes its case's neutral name; otherwise the text itself.
   */
  shown(text: string): string {
    return this.scrub(text);
  }

  /** The mark a rep has in this session's file (an errored rep is `error` even before the file exists). */
  markOf(index: number): MarkRow {
    const rep = this.reps[index]!;
    const row = this.marks.get(repId(rep));
    if (row) return row;
    if (rep.record?.error)
      return {
        fixture: rep.fixture,
        rep: rep.rep,
        mark: 'error',
        note: `${rep.record.error.stage}: ${rep.record.error.cause}`,
      };
    return { fixture: rep.fixture, rep: rep.rep, mark: '', note: rep.record ? '' : 'not run' };
  }

  /** Reps marked pass, fail or na, of those there are to mark (errored reps not counted). */
  progress(): { marked: number; total: number } {
    const open = this.reps.flatMap((rep, index) => (rep.skipped ? [] : [index]));
    // An error a person gave a rep that ran is a mark like the others.
    return { marked: open.filter((index) => this.markOf(index).mark !== '').length, total: open.length };
  }

  /** Where to continue: the first rep to mark that has no mark yet, else the first rep to mark. */
  firstUnmarked(): number {
    const index = this.reps.findIndex((rep, i) => !rep.skipped && this.markOf(i).mark === '');
    return index >= 0
      ? index
      : Math.max(
          0,
          this.reps.findIndex((rep) => !rep.skipped),
        );
  }

  /** The next (or previous) rep from `index`, skipping errored reps unless `all`; `index` itself at either end. */
  step(index: number, direction: 1 | -1, all = false): number {
    for (let i = index + direction; i >= 0 && i < this.reps.length; i += direction)
      if (all || !this.reps[i]!.skipped) return i;
    return index;
  }

  /**
   * Gives a rep a mark (and note): the earlier value goes to the history file, then the marks file is rewritten
   * atomically (temporary file, fsync, rename), so a crash or Ctrl-C at any moment loses at most this mark.
   */
  async setMark(index: number, mark: Exclude<Mark, 'error'>, note?: string): Promise<MarkRow> {
    const before = this.editable(index);
    const after: MarkRow = {
      fixture: before.fixture,
      rep: before.rep,
      mark,
      note: note ?? before.note,
      ...this.stamp(),
      ...(before.turnMarks ? { turnMarks: before.turnMarks } : {}),
    };
    if (before.mark === after.mark && before.note === after.note) return before;
    return this.store(index, before, after);
  }

  /**
   * Gives one turn of a rollout rep a mark of its own (the optional `turn_marks` column), or takes it away with
   * `''`; the rep's mark stays as it is. Saved as `setMark` saves.
   */
  async setTurnMark(index: number, turn: number, mark: TurnMark['mark'] | ''): Promise<MarkRow> {
    const before = this.editable(index);
    const others = (before.turnMarks ?? []).filter((entry) => entry.turn !== turn);
    const turnMarks = mark === '' ? others : [...others, { turn, mark }].sort((a, b) => a.turn - b.turn);
    const after: MarkRow = { ...before, ...this.stamp(), turnMarks: turnMarks.length > 0 ? turnMarks : undefined };
    return this.store(index, before, after);
  }

  /** The mark of a rep about to be changed; a rep that errored or was not run is refused (it keeps its mark). */
  private editable(index: number): MarkRow {
    const rep = this.reps[index]!;
    if (rep.skipped)
      throw new TurnkitError('BAD_INPUT', `${rep.label} ${rep.record ? 'errored' : 'was not run'}: it keeps its mark`);
    return this.markOf(index);
  }

  /** Who marks, when, under which rubric: the fields every mark given in this session carries. */
  private stamp(): Pick<MarkRow, 'grader' | 'markedAt' | 'rubricVersion'> {
    return { grader: this.who, markedAt: new Date().toISOString(), rubricVersion: this.manifest.rubric.version };
  }

  /** The mark a person gave one turn of a rep, if any. */
  turnMarkOf(index: number, turn: number): TurnMark['mark'] | undefined {
    return this.markOf(index).turnMarks?.find((entry) => entry.turn === turn)?.mark;
  }

  private async store(index: number, before: MarkRow, after: MarkRow): Promise<MarkRow> {
    const rep = this.reps[index]!;
    // The mark counts at once (a grader typing p p p is not slowed down); the writes queue in order behind it.
    this.marks.set(repId(rep), after);
    const rows = this.reps.map((_, i) => this.markOf(i));
    this.pendingWrites++;
    const write = this.writes
      .then(async () => {
        const writer = runWriter(dirname(this.file));
        await writer.history(basename(this.file), [{ before, after }]);
        await writer.marks(basename(this.file), rows);
      })
      .finally(() => this.pendingWrites--);
    // A failed write does not block the ones after it; its caller hears of it.
    this.writes = write.catch(() => {});
    await write;
    return after;
  }

  /** Whether a mark given is not on disk yet (the marker says "saving" until it is). */
  get saving(): boolean {
    return this.pendingWrites > 0;
  }

  private pendingWrites = 0;

  /** Waits for every mark given so far to be on disk. */
  async flush(): Promise<void> {
    await this.writes;
  }

  private writes: Promise<void> = Promise.resolve();

  /** The history file beside the marks file: every change, with the value it replaced. */
  get historyFile(): string {
    return historyFileOf(this.file);
  }
}

// The seed file is written whole (atomically), so one that does not read was edited: it is named, not replaced by a
// new seed that would reorder the marks given so far. No file (or none readable) is a first blind session.
async function recordedSeed(run: Run, base: string): Promise<number | undefined> {
  const file = `${base}.seed.json`;
  const text = await run.text(file).catch(() => undefined);
  if (text === undefined) return undefined;
  const value = parseJsonText(text, shownPath(join(run.dir, file))) as { seed?: unknown } | null;
  return typeof value?.seed === 'number' ? value.seed : undefined;
}

function defaultWho(user: string | undefined): string {
  try {
    return user || userInfo().username || 'grader';
  } catch {
    return 'grader';
  }
}

/** The marks file a marking session with these options writes (in the run's folder). */
export function marksFileName(options: Pick<MarkingOptions, 'grader' | 'blind'>): string {
  return `marks${options.grader ? `.${options.grader}` : ''}${options.blind ? '.blind' : ''}.csv`;
}
