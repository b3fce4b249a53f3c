import type { RolloutView } from '../../turn-views.js';
import type { RunReply } from './api.js';

/*
 * What the parts of the page script's marker share: its state, the page's elements it draws into, and the two
 * actions one part asks of another (drawing again, marking a turn), set by showMarker (marker.ts).
 */

/** Where the marker is: the run, the rep and turn shown, the pane, the note being written, the writes in flight. */
export interface MarkerState {
  id: number;
  body: RunReply | null;
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
}

/** The marker's part of the server's reply (marks, order, skipped reps, the file). */
export function markerOf(mk: Marker): RunReply['marker'] {
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

/** The run's rep at a place in the marking order (not blind). */
export function repOf(mk: Marker, pos: number): NonNullable<RunReply['run']>['reps'][number] {
  return mk.st.body!.run!.reps[markerOf(mk).order[pos]!]!;
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
  return mk.blind ? markerOf(mk).blindReps![pos]!.rollout : repOf(mk, pos).rollout;
}
