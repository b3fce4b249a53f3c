import type { MarkdownNode } from '../../markdown-doc.js';
import type { RolloutView } from '../../turn-views.js';
import type { BlindRep, MarkerRep } from '../../view-data.js';
import type { MarkerReply } from './api.js';

/*
 * What the parts of the page script's marker share: its state, the page's elements it draws into, and the two
 * actions one part asks of another (drawing again, marking a turn), set by showMarker (marker.ts).
 */

/**
 * The marker's reps fetched so far, by position of the marking order (a page at a time: see marker-pages.ts), with
 * the fixtures (blind: the case files) they name; `asked` holds each page's fetch by its first position.
 */
export interface LoadedReps {
  reps: MarkerRep[];
  fixtures: Record<number, { name: string; caseFileDoc: MarkdownNode[] }>;
  blindReps: BlindRep[];
  blindCaseFileDocs: Record<number, MarkdownNode[]>;
  asked: Map<number, Promise<void>>;
}

/** Where the marker is: the run, the rep and turn shown, the pane, the note being written, the writes in flight. */
export interface MarkerState {
  id: number;
  /** The marker's summary (every position's marks) and the run's version it was read at. */
  body: MarkerReply | null;
  loaded: LoadedReps;
  pos: number;
  turn: number;
  turnOf: number;
  pane: 'response' | 'case';
  showAll: boolean;
  note: boolean | null;
  pending: number;
  queue: Promise<void>;
  message: string;
  error: string;
}

/** The elements the marker draws into. */
export interface MarkerElements {
  progress: HTMLElement;
  saveStatus: HTMLElement;
  label: HTMLElement;
  markbar: HTMLElement;
  turnbar: HTMLElement;
  tabResponse: HTMLElement;
  tabCase: HTMLElement;
  paneText: HTMLElement;
  rubric: HTMLElement;
  rubricHead: HTMLElement;
  noteInput: HTMLInputElement;
  message: HTMLElement;
}

/** One marker on the page. */
export interface Marker {
  st: MarkerState;
  el: MarkerElements;
  /** A blind re-mark: reps are named by their place in the shuffled order only. */
  blind: boolean;
  /** Draws the marker again from its state. */
  draw(): void;
  /** Gives a turn of the shown rollout rep its own mark ('' clears it). */
  saveTurn(at: number, mark: string): void;
  /** Reads the summary again (the run changed), keeping the place. */
  reload(): void;
}

/** Nothing fetched yet: a new summary drops the reps fetched under the one before. */
export function noReps(): LoadedReps {
  return { reps: [], fixtures: {}, blindReps: [], blindCaseFileDocs: {}, asked: new Map() };
}

/** The marker's summary (marks, skipped reps, the file, the rubric). */
export function markerOf(mk: Marker): MarkerReply['marker'] {
  return mk.st.body!.marker;
}

/** A message for the marker's message line, and the marker drawn again. */
export function say(mk: Marker, text: string): void {
  mk.st.message = text;
  mk.draw();
}

/** How many reps the marker holds. */
export function total(mk: Marker): number {
  return markerOf(mk).marks.length;
}

/** Whether the rep at a place has come (its page fetched): until then it is neither shown nor marked. */
export function hasRep(mk: Marker, pos: number): boolean {
  return (mk.blind ? mk.st.loaded.blindReps[pos] : mk.st.loaded.reps[pos]) !== undefined;
}

/** The next place from `pos` in direction `dir` that takes a mark (or any, with errored reps shown); `pos` at the end. */
export function step(mk: Marker, pos: number, dir: number): number {
  for (let i = pos + dir; i >= 0 && i < total(mk); i += dir) if (mk.st.showAll || !markerOf(mk).skipped[i]) return i;
  return pos;
}

/** The first rep still to mark, else the first that takes a mark, else the first. */
export function firstUnmarked(mk: Marker): number {
  const m = markerOf(mk);
  for (let i = 0; i < total(mk); i++) if (!m.skipped[i] && m.marks[i]![0] === '') return i;
  for (let j = 0; j < total(mk); j++) if (!m.skipped[j]) return j;
  return 0;
}

/** The rollout of the rep at a place, when it is one. */
export function rolloutOf(mk: Marker, pos: number): RolloutView | undefined {
  return mk.blind ? mk.st.loaded.blindReps[pos]?.rollout : mk.st.loaded.reps[pos]?.rollout;
}
