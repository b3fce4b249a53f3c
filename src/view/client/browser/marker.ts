import { MARKER_PAGE, type PackedMarkerReply } from '../../view-data.js';
import { api, type MarkerReply } from './api.js';
import { addAll, clear, h, mdNodes } from './dom.js';
import { firstUnmarked, noReps, total, type Marker, type MarkerElements, type MarkerState } from './marker-context.js';
import { fetchPage, pageStart, takePage } from './marker-pages.js';
import { drawMarker } from './marker-draw.js';
import { unpackSummary } from './marker-summary.js';
import { bindMarkerKeys, bindNoteKeys } from './marker-keys.js';
import { saveTurnMark } from './marker-save.js';
import { failed, nav, pollRun, ready, VIEW } from './viewer-state.js';

/*
 * The page script's marker, keyboard first with the terminal marker's keys: p f n mark and move on, u clears, e
 * writes a note (Enter saves, Esc cancels), left/right (h/l) go back and forth, a shows errored reps, 1 2 or Tab
 * switch between response and case file, j/k scroll; the rubric stays beside the response. A rollout rep's pane
 * shows one turn: [ and ] step through its turns, P F N give that turn its own mark and U clears it (or the turn
 * list's buttons). A mark shows as saved only once the server has it on disk; blind, reps are named by their place
 * in the shuffled order only.
 */

const KEYS =
  'p pass \u00b7 f fail \u00b7 n na \u00b7 u clear \u00b7 e note (Enter saves, Esc cancels) \u00b7 \u2190 \u2192 or h l move \u00b7 a errored reps \u00b7 1 2 Tab panes \u00b7 j k scroll \u00b7 a rollout: [ ] turns, P F N mark the turn, U clears it';

/** The marker of run `id`, drawn into root. */
export function showMarker(root: HTMLElement, id: number): void {
  const st: MarkerState = {
    id,
    body: null,
    loaded: noReps(),
    pos: 0,
    turn: 0,
    turnOf: -1,
    pane: 'response',
    showAll: false,
    note: null,
    pending: 0,
    queue: Promise.resolve(),
    message: '',
    error: '',
  };
  const blind = VIEW.data.blind;
  const el = markerElements();
  if (!blind) nav(root);
  layOut(root, el, blind);
  const mk: Marker = {
    st,
    el,
    blind,
    draw: () => drawMarker(mk),
    saveTurn: (at, mark) => saveTurnMark(mk, at, mark),
    reload: () => {
      load(true).catch(() => {});
    },
  };
  el.tabResponse.addEventListener('click', () => {
    st.pane = 'response';
    mk.draw();
  });
  el.tabCase.addEventListener('click', () => {
    st.pane = 'case';
    mk.draw();
  });
  bindNoteKeys(mk);
  bindMarkerKeys(mk);

  // The summary (every position's marks) with the page of reps the marker opens on, in one request: its first
  // screen; the other pages come as it moves (marker-pages.ts).
  function load(keepPlace: boolean): Promise<void> {
    const at = st.body && keepPlace ? `&at=${st.pos}` : '';
    return api<PackedMarkerReply>(VIEW.data, `/api/marker?run=${id}&size=${MARKER_PAGE}${at}`).then(async (packed) => {
      const body: MarkerReply = { ...packed, marker: unpackSummary(packed.marker) };
      const place = st.body && keepPlace ? st.pos : -1;
      st.body = body;
      st.loaded = noReps();
      if (body.page) takePage(st.loaded, body.page);
      VIEW.version = body.version;
      st.pos = place >= 0 && place < total(mk) ? place : firstUnmarked(mk);
      el.rubricHead.textContent = `${body.marker.question} (rubric version ${body.marker.rubricVersion})`;
      addAll(clear(el.rubric), mdNodes(body.marker.rubricDoc));
      await fetchPage(mk, pageStart(st.pos));
      mk.draw();
      ready('marker');
    });
  }
  load(false)
    .then(() => {
      pollRun(id, () => {
        if (st.pending === 0) load(true);
      });
    })
    .catch(failed(root));
}

/** The marker's elements, made once. */
function markerElements(): MarkerElements {
  return {
    progress: h('p', { id: 'progress', class: 'status' }),
    saveStatus: h('p', { id: 'save-status', class: 'status', 'aria-live': 'polite' }),
    label: h('h2', { id: 'rep-label' }),
    markbar: h('div', { id: 'markbar', class: 'markbar' }),
    turnbar: h('ol', { id: 'turnbar', class: 'turnbar', 'aria-label': 'turns of this rollout', hidden: true }),
    tabResponse: h('button', { type: 'button', class: 'tab', id: 'tab-response', text: '1 response' }),
    tabCase: h('button', { type: 'button', class: 'tab', id: 'tab-case', text: '2 case file' }),
    // The response as it came (text); the case file rendered from its Markdown: the pane holds one or the other.
    paneText: h('div', { id: 'pane-text', class: 'pane', tabindex: '0' }),
    rubric: h('div', { id: 'rubric', class: 'markdown' }),
    rubricHead: h('p', { id: 'rubric-head' }),
    noteInput: h('input', { id: 'note', type: 'text', 'aria-label': 'note', size: '80', hidden: true }),
    message: h('p', { id: 'message', 'aria-live': 'polite' }),
  };
}

/** The marker's page: heading, status lines, mark bar, turns, note, the pane beside the rubric, the keys. */
function layOut(root: HTMLElement, el: MarkerElements, blind: boolean): void {
  addAll(root, [
    h('h1', { text: blind ? 'Blind re-mark' : 'Mark reps' }),
    el.progress,
    el.saveStatus,
    el.label,
    el.markbar,
    el.turnbar,
    el.noteInput,
    el.message,
    h('div', { class: 'marker' }, [
      h('section', null, [h('div', { role: 'tablist' }, [el.tabResponse, el.tabCase]), el.paneText]),
      h('section', { 'aria-label': 'rubric' }, [h('h3', { text: 'Rubric' }), el.rubricHead, el.rubric]),
    ]),
    h('p', { class: 'keys', text: KEYS }),
  ]);
}
