import { markerOf, rolloutOf, say, step, type Marker, type MarkerState } from './marker-context.js';
import { saveMark } from './marker-save.js';
import { VIEW } from './viewer-state.js';

/*
 * The marker's keys, the terminal marker's: p f n mark and move on, u clears, e writes a note (Enter saves, Esc
 * cancels), left/right (h/l) go back and forth, a shows errored reps, 1 2 or Tab switch panes, j/k scroll; [ and ]
 * step through a rollout's turns, P F N give a turn its own mark and U clears it.
 */

/** Steps through the shown rollout's turns. */
function stepTurn(mk: Marker, dir: number): void {
  const { st } = mk;
  const rollout = rolloutOf(mk, st.pos);
  if (!rollout || rollout.list.length === 0) {
    say(mk, 'one turn: this rep is not a rollout');
    return;
  }
  const next = Math.max(0, Math.min(rollout.list.length - 1, st.turn + dir));
  if (next === st.turn) st.message = dir > 0 ? 'last turn played' : 'first turn';
  st.turn = next;
  st.pane = 'response';
  mk.draw();
}

function openNote(mk: Marker): void {
  const { st, el } = mk;
  if (markerOf(mk).skipped[st.pos]) {
    say(mk, 'this rep keeps its mark');
    return;
  }
  st.note = true;
  el.noteInput.hidden = false;
  el.noteInput.value = markerOf(mk).marks[st.pos]![1];
  el.noteInput.focus();
}

function closeNote(mk: Marker): void {
  mk.st.note = null;
  mk.el.noteInput.hidden = true;
  document.getElementById('pane-text')!.focus();
}

/** The note input's keys: Enter saves the note with the rep's mark (an error's cleared), Esc cancels. */
export function bindNoteKeys(mk: Marker): void {
  const { noteInput } = mk.el;
  noteInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const text = noteInput.value;
      closeNote(mk);
      const cur = markerOf(mk).marks[mk.st.pos]![0];
      saveMark(mk, cur === 'error' ? '' : cur, text, false);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closeNote(mk);
      mk.draw();
    }
    event.stopPropagation();
  });
}

/** Each key's action; a key not here is left to the browser. */
function keyActions(mk: Marker): Map<string, () => void> {
  const { st, el } = mk;
  const moveBy = (dir: number): void => {
    const n = step(mk, st.pos, dir);
    if (n === st.pos) st.message = 'no more reps that way';
    st.pos = n;
    mk.draw();
  };
  const showPane = (pane: MarkerState['pane']): void => {
    st.pane = pane;
    mk.draw();
  };
  const bindings: [keys: string[], action: () => void][] = [
    [['p'], () => saveMark(mk, 'pass', undefined, true)],
    [['f'], () => saveMark(mk, 'fail', undefined, true)],
    [['n'], () => saveMark(mk, 'na', undefined, true)],
    [['u'], () => saveMark(mk, '', undefined, false)],
    [['P'], () => mk.saveTurn(st.turn, 'pass')],
    [['F'], () => mk.saveTurn(st.turn, 'fail')],
    [['N'], () => mk.saveTurn(st.turn, 'na')],
    [['U'], () => mk.saveTurn(st.turn, '')],
    [[']'], () => stepTurn(mk, 1)],
    [['['], () => stepTurn(mk, -1)],
    [
      ['a'],
      () => {
        st.showAll = !st.showAll;
        say(mk, st.showAll ? 'errored reps shown' : 'errored reps skipped');
      },
    ],
    [['ArrowRight', 'l'], () => moveBy(1)],
    [['ArrowLeft', 'h'], () => moveBy(-1)],
    [['1'], () => showPane('response')],
    [['2'], () => showPane('case')],
    [['Tab'], () => showPane(st.pane === 'response' ? 'case' : 'response')],
    [['j', 'ArrowDown'], () => (el.paneText.scrollTop += 40)],
    [['k', 'ArrowUp'], () => (el.paneText.scrollTop -= 40)],
  ];
  return new Map(bindings.flatMap(([keys, action]) => keys.map((key) => [key, action] as const)));
}

/** The marker's keys on the document, until the page leaves the marker (the hash changes). */
export function bindMarkerKeys(mk: Marker): void {
  const actions = keyActions(mk);
  function onKey(event: KeyboardEvent): void {
    if (mk.st.note || !mk.st.body || event.ctrlKey || event.metaKey || event.altKey) return;
    if (location.hash.indexOf('mark=') < 0 && !(VIEW.data.blind || VIEW.data.runs.length === 1)) return;
    mk.st.message = '';
    if (event.key === 'e') {
      event.preventDefault();
      openNote(mk);
      return;
    }
    const action = actions.get(event.key);
    if (!action) return;
    action();
    event.preventDefault();
  }
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', function off() {
    document.removeEventListener('keydown', onKey);
    window.removeEventListener('hashchange', off);
  });
}
