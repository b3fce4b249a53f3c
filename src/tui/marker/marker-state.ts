import type { Key } from 'ink';
import type { Mark } from '../../run-dir/marks/marks-file.js';
import type { MarkingSession } from '../../marking/marking-session.js';
import { paneLines, PANES, turnCount, type Pane } from './marker-content.js';

/** What the marker shows, apart from the marks (the session holds those). */
export interface MarkerState {
  readonly index: number;
  readonly pane: Pane;
  readonly scroll: number;
  /** Which of a rollout rep's turns the response pane shows (0: the first played). */
  readonly turn: number;
  /** The note being written, while the note line is open. */
  readonly note?: string | undefined;
  readonly showAll: boolean;
  readonly message?: string | undefined;
  readonly quit: boolean;
}

/** Screen size the marker lays out for. */
export interface MarkerLayout {
  readonly width: number;
  readonly height: number;
}

/** Lines besides the pane: header, tabs, mark line, key help. */
const CHROME = 4;

const MARK_KEYS: Record<string, Exclude<Mark, 'error' | ''>> = { p: 'pass', f: 'fail', n: 'na' };

/** Shifted, the same keys mark the rollout turn on screen (the optional per-turn column); U takes that mark away. */
const TURN_MARK_KEYS: Record<string, 'pass' | 'fail' | 'na' | ''> = { P: 'pass', F: 'fail', N: 'na', U: '' };

/** Where the marker opens: the first rep without a mark. */
export function initialMarkerState(session: MarkingSession): MarkerState {
  return { index: session.firstUnmarked(), pane: 'response', scroll: 0, turn: 0, showAll: false, quit: false };
}

/** How many lines of the pane fit on the screen. */
export function bodyHeightOf(layout: MarkerLayout): number {
  return Math.max(3, layout.height - CHROME);
}

/**
 * Applies one key press. A mark is given to the session here (it counts at once and is written in order behind the
 * others); `onWrite` hears of each write so that the app can show a failed one.
 */
export function reduceMarker(
  state: MarkerState,
  session: MarkingSession,
  input: string,
  key: Key,
  layout: MarkerLayout,
  onWrite: (write: Promise<unknown>) => void,
): MarkerState {
  if (state.quit) return state;
  if (state.note !== undefined) return onNote(state, state.note, session, input, key, onWrite);
  if (key.ctrl && input === 'c') return { ...state, quit: true };
  // Text arriving in one chunk outside the note line is a paste (or keys far faster than a person types): taken
  // letter by letter it would mark reps at random ("fine" would fail one rep and na the next), so it does nothing.
  if (input.length > 1 && !key.ctrl && !key.meta)
    return { ...state, message: 'pasted text ignored: press e to write a note' };
  // A message lives until the next key press.
  const { message: _shown, ...rest } = state;
  const next: MarkerState = rest;
  const rep = session.reps[state.index]!;
  if (input === 'q') return { ...next, quit: true };
  const mark = MARK_KEYS[input];
  if (mark) return save(next, session, mark, undefined, true, onWrite);
  if (input === 'u') return save(next, session, '', undefined, false, onWrite);
  const turns = turnCount(session, state.index);
  if (input === ']' || input === '[') {
    if (turns === 0) return { ...next, message: 'one turn: this rep is not a rollout' };
    const turn = Math.max(0, Math.min(turns - 1, state.turn + (input === ']' ? 1 : -1)));
    return turn === state.turn
      ? { ...next, message: input === ']' ? 'last turn played' : 'first turn' }
      : { ...next, pane: 'response', turn, scroll: 0 };
  }
  const turnMark = TURN_MARK_KEYS[input];
  if (turnMark !== undefined && turns > 0) {
    if (rep.skipped) return { ...next, message: keepsItsMark(rep) };
    const turn = rep.record!.turns![Math.min(turns - 1, state.turn)]!.turn;
    onWrite(session.setTurnMark(state.index, turn, turnMark));
    return { ...next, message: `turn ${turn}: ${turnMark || 'unmarked'} (the rep's own mark is p/f/n)` };
  }
  if (input === 'e')
    return rep.skipped ? { ...next, message: keepsItsMark(rep) } : { ...next, note: session.markOf(state.index).note };
  if (input === 'a')
    return { ...next, showAll: !state.showAll, message: state.showAll ? 'errored reps skipped' : 'errored reps shown' };
  if (key.rightArrow || input === 'l') return go(next, session.step(state.index, 1, state.showAll));
  if (key.leftArrow || input === 'h') return go(next, session.step(state.index, -1, state.showAll));
  if (key.tab || ['1', '2', '3'].includes(input)) {
    const position = PANES.findIndex((entry) => entry.pane === state.pane);
    const pane = key.tab
      ? PANES[(position + (key.shift ? PANES.length - 1 : 1)) % PANES.length]!
      : PANES[Number(input) - 1]!;
    return { ...next, pane: pane.pane, scroll: 0 };
  }
  const bodyHeight = bodyHeightOf(layout);
  const scrollTo = (scroll: number): MarkerState => {
    const maxScroll = Math.max(
      0,
      paneLines(session, state.index, state.pane, layout.width - 1, state.turn).length - bodyHeight,
    );
    return { ...next, scroll: Math.max(0, Math.min(maxScroll, scroll)) };
  };
  if (key.downArrow || input === 'j') return scrollTo(state.scroll + 1);
  if (key.upArrow || input === 'k') return scrollTo(state.scroll - 1);
  if (key.pageDown || input === ' ') return scrollTo(state.scroll + bodyHeight - 1);
  if (key.pageUp) return scrollTo(state.scroll - bodyHeight + 1);
  return next;
}

/** Keys while the note line is open: text goes into the note, Enter saves it, Esc drops it. */
function onNote(
  state: MarkerState,
  note: string,
  session: MarkingSession,
  input: string,
  key: Key,
  onWrite: (write: Promise<unknown>) => void,
): MarkerState {
  if (key.ctrl && input === 'c') return { ...state, quit: true };
  if (key.escape) return { ...state, note: undefined };
  if (key.return) {
    const current = session.markOf(state.index);
    return save(
      { ...state, note: undefined },
      session,
      current.mark === 'error' ? '' : current.mark,
      note,
      false,
      onWrite,
    );
  }
  if (key.backspace || key.delete) return { ...state, note: note.slice(0, -1) };
  if (input && !key.ctrl && !key.meta) return { ...state, note: note + input.replace(/[\r\n]/g, ' ') };
  return state;
}

function save(
  state: MarkerState,
  session: MarkingSession,
  mark: Exclude<Mark, 'error'>,
  note: string | undefined,
  advance: boolean,
  onWrite: (write: Promise<unknown>) => void,
): MarkerState {
  const rep = session.reps[state.index]!;
  if (rep.skipped) return { ...state, message: keepsItsMark(rep) };
  const before = session.markOf(state.index);
  if (!advance && before.mark === mark && (note === undefined || note === before.note))
    return { ...state, message: 'unchanged' };
  onWrite(session.setMark(state.index, mark, note));
  const file = session.file.slice(session.file.lastIndexOf('/') + 1);
  if (!advance) return { ...state, message: `saved in ${file}` };
  const { marked, total } = session.progress();
  const next = session.step(state.index, 1, state.showAll);
  const message =
    marked === total ? `all ${total} reps marked; saved in ${file}` : next === state.index ? 'last rep' : undefined;
  return next === state.index ? { ...state, message } : { ...state, index: next, scroll: 0, turn: 0, message };
}

function go(state: MarkerState, index: number): MarkerState {
  return {
    ...state,
    index,
    scroll: 0,
    turn: index === state.index ? state.turn : 0,
    message: index === state.index ? 'no more reps that way' : undefined,
  };
}

function keepsItsMark(rep: MarkingSession['reps'][number]): string {
  return `this rep ${rep.record ? 'errored' : 'was not run'}: it keeps its mark`;
}
