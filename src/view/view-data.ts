import type { Report } from '../report/build-report.js';
import type { Comparison } from '../report/compare-runs.js';
import type { Agreement } from '../stats/agreement.js';
import type { DiffSegment } from '../fixture/constructed/word-diff.js';
import type { EffectsSummary } from '../scratch/effects/scratch-effects.js';
import type { MarkdownNode } from './markdown-doc.js';
import type { RolloutView } from './turn-views.js';
import type { ToolCall } from '../sut/tool-call.js';
import type { Mark } from '../run-dir/marks/marks-file.js';

/** A recorded tool call, as the page data carries it. */
export type { ToolCall };

/**
 * The elements a rendered rubric or case file may hold (markdown-doc.ts builds them, the page draws them); anything
 * else keeps its text and loses its element.
 */
export const MARKDOWN_TAGS = [
  ...['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'em', 'strong', 's'],
  ...['hr', 'br', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
];

/** One marks file of a run beside the report's: a judge's, the checks', another grader's, a blind re-mark. */
export interface AgreementView extends Agreement {
  file: string;
  against: string;
  self: boolean;
}

/** A constructed fixture's recorded diff as the editor shows it, or why it cannot be shown. */
export interface DiffView {
  why: string;
  turn: number;
  base: string;
  changes: { path: string; segments: DiffSegment[] }[];
}

/** A fixture of the run with what is shared by its reps (kept once, never copied per rep). */
export interface FixtureView {
  name: string;
  tag: 'dev' | 'heldout' | null;
  caseFile: string;
  /** The case file rendered from its Markdown, as nodes the page builds with textContent (no markup of the file). */
  caseFileDoc: MarkdownNode[];
  /** A constructed fixture's diff; a string says why it is not shown; null for a captured fixture. */
  diff: DiffView | string | null;
}

/** A rep as the page shows it; `f` indexes `RunView.fixtures`, `marks` follows `RunView.marksFiles`. */
export interface RepView {
  f: number;
  rep: number;
  status: 'ok' | 'error' | 'not run';
  /** The SUT's response; null for a rollout, whose turns hold it (the joined transcript is not sent twice). */
  response: string | null;
  error: { stage: string; cause: string; message: string } | null;
  stdoutTail?: string | undefined;
  stderrTail?: string | undefined;
  effects: EffectsSummary | null;
  /** The tools the SUT reported calling, in order (a one-turn rep; a rollout's are per turn). */
  toolCalls?: ToolCall[] | undefined;
  outside?: string[] | undefined;
  sutMs: number | null;
  /** [mark, note] in each marks file, null where the file has no row. */
  marks: ([string, string] | null)[];
  /** A rollout (`turns: K`): its turns in order and how far it went. */
  rollout?: RolloutView | undefined;
  /** A rollout's per-turn marks (`[turn, mark]`) in each marks file, following `marks`; absent when none has any. */
  turnMarks?: [number, string][][] | undefined;
}

/** Everything the page shows of one run: the report's numbers and every rep. */
export interface RunView {
  dir: string;
  report: Report;
  comparison: Comparison | null;
  /** With a comparison of players: its title and how each side's inputs read, as the text report words them. */
  playersText: { title: string; simulated: string; recorded: string } | null;
  agreements: AgreementView[];
  /**
   * How often the held-out set was looked at since it was frozen (the held-out ledger's line, as the text report
   * prints it), when the command that made the page touched held-out fixtures; null otherwise.
   */
  heldout: string | null;
  /** The report's trust section as text lines, and the corrected verdict on one line (null when nothing is corrected). */
  trust: { summary: string | null; lines: string[] };
  rubric: string;
  /** The rubric rendered from its Markdown (see `FixtureView.caseFileDoc`). */
  rubricDoc: MarkdownNode[];
  fixtures: FixtureView[];
  /** The marks files read for the reps' marks; the report's own first. */
  marksFiles: string[];
  reps: RepView[];
}

/** What the marker page needs for one run: the marking order and this session's marks. */
export interface MarkerView {
  file: string;
  blind: { seed: number } | null;
  grader: string;
  /** The question and the rubric the run kept (the marker shows them beside the response). */
  question: string;
  rubric: string;
  /** The rubric rendered from its Markdown (see `FixtureView.caseFileDoc`). */
  rubricDoc: MarkdownNode[];
  rubricVersion: string;
  /** Reps in marking order: an index into `RunView.reps` (absent when blind: see `blindReps`). */
  order: number[];
  /** This session's [mark, note] per position of `order`. */
  marks: [string, string][];
  /** This session's per-turn marks (`[turn, mark]`) per position of `order`; empty for a one-turn rep. */
  turnMarks: [number, string][][];
  skipped: boolean[];
  /** Blind: the reps themselves, without fixture names, rep numbers or other marks. */
  blindReps?:
    | {
        response: string | null;
        error: string | null;
        caseFile: number;
        rollout?: RolloutView | undefined;
        toolCalls?: ToolCall[] | undefined;
      }[]
    | undefined;
  /** Blind: the case files, once each (`blindReps[i].caseFile` indexes them). */
  blindCaseFiles?: string[] | undefined;
  /** Blind: the same case files rendered from their Markdown. */
  blindCaseFileDocs?: MarkdownNode[][] | undefined;
  /** Why this run cannot be marked here (another viewer or marker holds its marks file). */
  readOnly?: string | undefined;
}

/** A rep as the marker's pages carry it: its record's content, no marks file's say (the marker's are its summary's). */
export type MarkerRep = Omit<RepView, 'marks' | 'turnMarks'>;

/** A blind re-mark's rep: its masked texts and its case file's index, nothing that names its fixture. */
export type BlindRep = NonNullable<MarkerView['blindReps']>[number];

/**
 * What the marker shows before any rep (`/api/marker`): per position of the marking order its mark, turn marks and
 * whether it takes a mark, with the rubric; the reps themselves come in pages (`MarkerPage`).
 */
export type MarkerSummary = Omit<MarkerView, 'order' | 'blindReps' | 'blindCaseFiles' | 'blindCaseFileDocs'>;

/** A mark's letter in a packed summary (`PackedMarkerSummary.marks`): the server packs with it, the page unpacks. */
export const MARK_LETTER: Readonly<Record<Mark, string>> = { pass: 'p', fail: 'f', na: 'n', error: 'e', '': '-' };

/**
 * `MarkerSummary` packed for `/api/marker`: on 10,000 reps its per-position arrays were 210 KB, nearly all alike;
 * packed about 10 KB (the page unpacks it: client/browser/marker-summary.ts).
 */
export interface PackedMarkerSummary extends Omit<MarkerSummary, 'marks' | 'turnMarks' | 'skipped'> {
  /** Per position of the marking order one letter for its mark: p pass, f fail, n na, e error, - none. */
  marks: string;
  /** The notes (masked as the terminal marker shows them) of the positions that have one, by position. */
  notes: Record<number, string>;
  /** The per-turn marks (`[turn, mark]`) of the positions that have any, by position. */
  turnMarks: Record<number, [number, string][]>;
  /** The positions that keep their mark (errored or never run), in order. */
  skipped: number[];
}

/**
 * Reps a page of the marker's, as the page asks for them and the viewer warms them: a rollout rep can be long, and
 * the first screen waits for one page.
 */
export const MARKER_PAGE = 50;

/**
 * A page of the marker's reps (`/api/marker-reps`), positions `from` on of the marking order: not blind, the reps
 * and the fixtures they name (`f`) by index; blind, the masked reps and the case files they name by index.
 */
export interface MarkerPage {
  from: number;
  reps?: MarkerRep[] | undefined;
  fixtures?: Record<number, { name: string; caseFileDoc: MarkdownNode[] }> | undefined;
  blindReps?: BlindRep[] | undefined;
  blindCaseFileDocs?: Record<number, MarkdownNode[]> | undefined;
}

/** /api/marker: the summary packed, the run's version, and with `size` the page of reps the marker opens on. */
export interface PackedMarkerReply {
  marker: PackedMarkerSummary;
  version: string;
  page?: MarkerPage;
}

/** /api/marker-reps: a page of the marker's reps by position, and the version of the run it was read at. */
export interface MarkerPageReply {
  page: MarkerPage;
  version: string;
}

/** /api/run with from and to: a page of the run's reps with its report, and how many reps there are in all. */
export interface RunPage {
  run: RunView;
  markerFile: string;
  version: string;
  repsTotal: number;
}

/**
 * What the page hears once a mark (`POST /api/mark`) or turn mark is on disk: that position's marks as saved, the
 * progress counts, and whether the marks file was merged first; only after a merge every position's marks (`all`),
 * so that a mark on a 10,000-rep run answers a few hundred bytes, not 150 KB.
 */
export interface MarkReply {
  position: number;
  mark: [string, string];
  turnMarks: [number, string][];
  progress: { marked: number; total: number };
  merged: boolean;
  all?: { marks: [string, string][]; turnMarks: [number, string][][] } | undefined;
}

/** The data embedded in a page: a static report, or the viewer's list of runs and how to talk to its server. */
export type PageData =
  | { mode: 'static'; runs: RunView[] }
  | {
      mode: 'view';
      token: string;
      csrf: string;
      blind: boolean;
      runs: { id: number; dir: string; question: string; stamp: string }[];
    };
