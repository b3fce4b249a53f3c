import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { MarkingSession, marksFileName } from '../../marking/marking-session.js';
import { acquireMarksLock, type MarksLock } from '../../marking/marks-lock.js';
import type { Mark, TurnMark } from '../../run-dir/marks/marks-file.js';
import { readRun, type Run } from '../../run-dir/read-run.js';
import { TurnkitError } from '../../errors.js';
import { buildRunView } from '../build-run-view.js';
import type { HeldoutLooks } from '../../report/heldout-ledger.js';
import {
  MARK_LETTER,
  type MarkerPageReply,
  type MarkerSummary,
  type MarkerView,
  type MarkReply,
  type PackedMarkerReply,
  type PackedMarkerSummary,
  type RunPage,
  type RunView,
} from '../view-data.js';
import { MarkerPages } from './marker-pages.js';
import { RepFilesState } from './rep-files-state.js';
import { turnMarkPairs } from '../turn-views.js';
import { blindReps } from './blind-reps.js';
import { markdownDoc, type MarkdownNode } from '../markdown-doc.js';

/** How the viewer marks: the terminal marker's options. */
export interface ViewMarking {
  grader?: string | undefined;
  blind?: boolean | undefined;
  seed?: number | undefined;
  /** `--marks a,b`: the files the report reads, by precedence (marks go to the grader's file all the same). */
  reportMarks?: string | undefined;
}

/**
 * One run the viewer serves: its page data, and the MarkingSession (the terminal marker's own code: atomic write,
 * history, grader and time) that every mark given in the browser goes through, with the lock on its marks file.
 */
export class ViewRun {
  private heldoutLooks: HeldoutLooks | undefined;
  private session: MarkingSession | undefined;
  private lock: MarksLock | undefined;
  private readOnly: string | undefined;
  /** sha256 of the marks file as this viewer last read or wrote it: anything else means another writer. */
  private known: string | null = null;
  private sessionVersion = '';
  private queue: Promise<unknown> = Promise.resolve();
  /** The run's page data as last built, under its files' signature: a 10,000-rep run takes about a second to read. */
  private built: { key: string; run: Promise<RunView> } | undefined;
  /** The marker's summary as last packed, for its session and write count: 10,000 positions take tens of ms. */
  private summary: { session: MarkingSession; writes: number; value: PackedMarkerSummary } | undefined;
  private writes = 0;
  /** The rep files' state, watched (see RepFilesState): part of every signature. */
  private readonly repFiles: RepFilesState;
  /** The marker's pages, built from the marking session they belong to (a new session, new pages). */
  private pages: { session: MarkingSession; pages: MarkerPages } | undefined;

  private constructor(
    readonly id: number,
    readonly dir: string,
    private readonly opened: Run,
    private readonly marking: ViewMarking,
    private readonly cwd: string,
  ) {
    this.repFiles = new RepFilesState(join(dir, 'reps'));
  }

  /** Opens a run (its manifest must read) without taking its marks file yet. */
  static async open(id: number, dir: string, marking: ViewMarking, cwd: string): Promise<ViewRun> {
    return new ViewRun(id, dir, await readRun(dir), marking, cwd);
  }

  /** The run's question id, from the manifest read when it was opened. */
  get question(): string {
    return this.opened.manifest.question.id;
  }

  /** The real path of a file inside the run, for the file route; undefined for anything outside it. */
  fileOf(relative: string): Promise<string | undefined> {
    return this.opened.pathOf(relative);
  }

  /** The folder name: the run's UTC stamp. */
  get stamp(): string {
    return basename(this.dir);
  }

  /**
   * Opens the marking session and takes its marks file's lock; a file another viewer or terminal marker holds is
   * refused (`strict`: thrown, for the runs named on the command line) or left read-only here.
   */
  async takeMarks(strict: boolean): Promise<void> {
    if (this.session || this.readOnly) return;
    const session = await MarkingSession.open(this.sessionOptions());
    try {
      this.lock = await acquireMarksLock(session.file, 'turnkit view');
    } catch (error) {
      if (strict || !(error instanceof TurnkitError)) throw error;
      this.readOnly = error.message;
    }
    await this.use(session);
  }

  /**
   * A cheap signature of what the page shows, to poll while `turnkit run` adds reps: rep files, the manifest, the
   * order file and every marks file but the one this viewer writes (its own marks are sent with each save), unless
   * `withOwn`.
   */
  async version(withOwn = false): Promise<string> {
    // Each rep file's state, not their count: a rep written again (a resumed rep, one rewritten in place) is new data.
    const parts = await this.repFiles.lines();
    const own = this.session && !withOwn ? basename(this.session.file) : '';
    const files = [
      'manifest.json',
      'order.jsonl',
      ...(await readdir(this.dir)).filter((name) => /^marks(\.[\w.-]+)?\.csv$/.test(name) && name !== own).sort(),
    ];
    for (const name of files) {
      const info = await stat(join(this.dir, name)).catch(() => undefined);
      parts.push(`${name}:${info ? `${info.size}:${info.mtimeMs}` : '-'}`);
    }
    return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
  }

  /**
   * The run's page data (the report and every rep), read again only when a file it is built from changed since.
   * Starting it early (the server does as it starts) makes the first page of a large run cheap.
   */
  runView(): Promise<RunView> {
    return this.version(true).then((key) => {
      if (this.built?.key !== key) {
        const run = buildRunView({
          dir: this.dir,
          cwd: this.cwd,
          marks: this.marking.reportMarks,
          heldoutLooks: this.heldoutLooks,
        });
        this.built = { key, run };
        run.catch(() => {
          if (this.built?.run === run) this.built = undefined;
        });
      }
      return this.built.run;
    });
  }

  /** The held-out set's looks that this viewer's session recorded in the ledger: its report page shows them. */
  showHeldoutLooks(looks: HeldoutLooks | undefined): void {
    this.heldoutLooks = looks;
    // A page built before the looks were known would not show them.
    this.built = undefined;
  }

  /** The page data of the run and its marker; the session reopens when reps were added since it opened. */
  async data(): Promise<{ run: RunView | null; marker: MarkerView; version: string }> {
    return this.serial(async () => {
      const { session, version } = await this.current();
      const blind = this.marking.blind === true;
      const run = blind ? null : await this.runView();
      const positions = run
        ? new Map(run.reps.map((rep, i) => [`${run.fixtures[rep.f]!.name}\u0000${rep.rep}`, i]))
        : undefined;
      const marker: MarkerView = {
        ...this.summaryOf(session),
        order: positions ? session.reps.map((rep) => positions.get(`${rep.fixture}\u0000${rep.rep}`) ?? -1) : [],
        ...(blind ? withDocs(blindReps(session)) : {}),
      };
      return { run, marker, version };
    });
  }

  /**
   * What the marker shows before any rep (every position's marks, the rubric, the file), read from the marking
   * session, not the report; with `size`, the page holding `at` (else the first rep to mark) comes with it.
   */
  async markerSummary(first?: { size: number; at?: number | undefined } | undefined): Promise<PackedMarkerReply> {
    return this.serial(async () => {
      const { session, version } = await this.current();
      const marker = this.packedSummaryOf(session);
      if (!first) return { marker, version };
      const at = first.at ?? session.firstUnmarked();
      const from = at - (at % first.size);
      return { marker, version, page: this.pagesOf(session).page(from, from + first.size) };
    });
  }

  /** Builds the marker's summary and first page ahead, when the marking session is open: its first request sends them. */
  async warmMarker(size: number): Promise<void> {
    if (this.session) await this.markerSummary({ size });
  }

  /** Positions `[from, to)` of the marking order, with the version of the run they were read at. */
  async markerPage(from: number, to: number): Promise<MarkerPageReply> {
    return this.serial(async () => {
      const { session, version } = await this.current();
      return { page: this.pagesOf(session).page(from, to), version };
    });
  }

  private pagesOf(session: MarkingSession): MarkerPages {
    if (this.pages?.session !== session) this.pages = { session, pages: new MarkerPages(session) };
    return this.pages.pages;
  }

  // The marking session as the run's files are now: reopened when reps were added (or files changed) since.
  private async current(): Promise<{ session: MarkingSession; version: string }> {
    await this.takeMarks(false);
    const version = await this.version();
    if (version !== this.sessionVersion) await this.reopen(version);
    return { session: this.session!, version };
  }

  // The marker's summary as /api/marker sends it: packed, and kept while the session and its marks are unchanged.
  private packedSummaryOf(session: MarkingSession): PackedMarkerSummary {
    if (this.summary?.session !== session || this.summary.writes !== this.writes)
      this.summary = { session, writes: this.writes, value: packSummary(this.summaryOf(session)) };
    return this.summary.value;
  }

  private summaryOf(session: MarkingSession): MarkerSummary {
    return {
      file: basename(session.file),
      blind: session.blind ?? null,
      grader: session.who,
      question: session.manifest.question.text,
      rubric: session.rubric,
      rubricDoc: markdownDoc(session.rubric),
      rubricVersion: session.manifest.rubric.version,
      marks: session.reps.map((_, i) => markPair(session, i)),
      turnMarks: turnMarksOf(session),
      skipped: session.reps.map((rep) => rep.skipped),
      ...(this.readOnly ? { readOnly: this.readOnly } : {}),
    };
  }

  /** A page of the run's reps (`[from, to)`) with the report and no marker data: a large run's first screen. */
  async page(from: number, to: number): Promise<RunPage> {
    const run = await this.runView();
    const markerFile = this.session ? basename(this.session.file) : marksFileName(this.marking);
    return {
      run: { ...run, reps: run.reps.slice(from, to) },
      markerFile,
      version: await this.version(),
      repsTotal: run.reps.length,
    };
  }

  /**
   * Gives the rep at a position of the marking order a mark, through MarkingSession.setMark, and answers once it
   * is on disk. When the marks file's bytes are not the ones this viewer last saw (a spreadsheet, a hand edit), the
   * session is opened again first, so that those marks are merged in, never overwritten blindly.
   */
  async mark(position: number, mark: Exclude<Mark, 'error'>, note: string | undefined): Promise<MarkReply> {
    return this.write(position, (session) => session.setMark(position, mark, note));
  }

  /**
   * Gives one played turn of the rollout rep at a position its own mark (`''` takes it away), through
   * MarkingSession.setTurnMark: the same `turn_marks` column, atomic write and history as the terminal marker's.
   */
  async turnMark(position: number, turn: number, mark: TurnMark['mark'] | ''): Promise<MarkReply> {
    return this.write(position, (session) => {
      const turns = session.reps[position]!.record?.turns;
      if (!turns || turns.length === 0) throw new TurnkitError('BAD_INPUT', `the rep at ${position} is not a rollout`);
      if (!turns.some((entry) => entry.turn === turn))
        throw new TurnkitError('BAD_INPUT', `turn ${turn} was not played in the rep at ${position}`);
      return session.setTurnMark(position, turn, mark);
    });
  }

  // A mark of either kind: refused when read-only; merged with the file first when another writer changed it.
  private async write(position: number, give: (session: MarkingSession) => Promise<unknown>): Promise<MarkReply> {
    return this.serial(async () => {
      await this.takeMarks(false);
      if (this.readOnly) throw new TurnkitError('EXISTS', this.readOnly);
      const session = this.session!;
      if (!Number.isInteger(position) || position < 0 || position >= session.reps.length)
        throw new TurnkitError('BAD_INPUT', `no rep at position ${position}`);
      let merged = false;
      if ((await contentHash(session.file)) !== this.known) {
        await this.reopen(await this.version());
        merged = true;
      }
      // Counted before the write: a write that fails part way may still have changed the session's marks.
      this.writes++;
      await give(this.session!);
      this.known = await contentHash(this.session!.file);
      const now = this.session!;
      // The position's own marks and the counts; every position's only when a merge may have changed any.
      return {
        position,
        mark: markPair(now, position),
        turnMarks: turnMarkPairs(now.markOf(position).turnMarks),
        progress: now.progress(),
        merged,
        ...(merged ? { all: { marks: now.reps.map((_, i) => markPair(now, i)), turnMarks: turnMarksOf(now) } } : {}),
      };
    });
  }

  /** Waits for every mark and lets go of the marks file. */
  async close(): Promise<void> {
    await this.queue.catch(() => {});
    await this.session?.flush().catch(() => {});
    await this.lock?.release();
    this.repFiles.close();
  }

  private async reopen(version: string): Promise<void> {
    await this.session?.flush();
    await this.use(await MarkingSession.open(this.sessionOptions()), version);
  }

  private sessionOptions(): Parameters<typeof MarkingSession.open>[0] {
    return { dir: this.dir, user: process.env.USER, ...this.marking, cwd: this.cwd };
  }

  // The session marks go through from now on, with the marks file's bytes and the run's version it was opened at.
  private async use(session: MarkingSession, version?: string): Promise<void> {
    this.session = session;
    this.known = await contentHash(session.file);
    this.sessionVersion = version ?? (await this.version());
  }

  // Requests of one run take turns: a check of the file and the write after it are never split by another mark.
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => {});
    return next;
  }
}

/** The marker's summary packed for /api/marker: one letter per mark, and only the notes and turn marks there are. */
function packSummary(summary: MarkerSummary): PackedMarkerSummary {
  const { marks, turnMarks, skipped, ...rest } = summary;
  const notes: Record<number, string> = {};
  const turns: Record<number, [number, string][]> = {};
  let letters = '';
  marks.forEach(([mark, note], i) => {
    const letter = MARK_LETTER[mark as Mark];
    if (letter === undefined) throw new TurnkitError('BAD_INPUT', `no such mark: ${mark}`);
    letters += letter;
    if (note !== '') notes[i] = note;
    if (turnMarks[i]!.length > 0) turns[i] = turnMarks[i]!;
  });
  const kept = skipped.flatMap((skip, i) => (skip ? [i] : []));
  return { ...rest, marks: letters, notes, turnMarks: turns, skipped: kept };
}

function turnMarksOf(session: MarkingSession): [number, string][][] {
  return session.reps.map((_, i) => turnMarkPairs(session.markOf(i).turnMarks));
}

function markPair(session: MarkingSession, index: number): [string, string] {
  const row = session.markOf(index);
  // A note is masked as the terminal marker shows it (in a blind re-mark it may name a fixture).
  return [row.mark, session.shown(row.note)];
}

async function contentHash(file: string): Promise<string | null> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  } catch {
    return null;
  }
}

/** A blind re-mark's case files with their rendered Markdown beside them. */
function withDocs<T extends { blindCaseFiles?: string[] | undefined }>(
  blind: T,
): T & { blindCaseFileDocs: MarkdownNode[][] } {
  return { ...blind, blindCaseFileDocs: (blind.blindCaseFiles ?? []).map((text) => markdownDoc(text)) };
}
