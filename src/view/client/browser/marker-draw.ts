import { clear, h, markdownBlock } from './dom.js';
import { hasRep, markerOf, rolloutOf, total, type Marker } from './marker-context.js';
import { paneContent } from './marker-pane.js';
import { wantReps } from './marker-pages.js';
import { turnMarkIn } from './turns.js';

/** Draws the marker from its state: progress, save status, the rep's label and mark, the tabs, the pane, the turns. */
export function drawMarker(mk: Marker): void {
  const { st, el } = mk;
  const m = markerOf(mk);
  // The shown rep's page (and, near its edge, the next): drawn again once it comes.
  wantReps(mk, st.pos);
  const here = hasRep(mk, st.pos);
  // Each rep opens at its first turn; a reload that brought fewer turns keeps the place in range.
  if (st.turnOf !== st.pos) {
    st.turnOf = st.pos;
    st.turn = 0;
  }
  const shownRollout = rolloutOf(mk, st.pos);
  if (shownRollout && st.turn >= shownRollout.list.length) st.turn = Math.max(0, shownRollout.list.length - 1);
  const marks = m.marks;
  let open = 0;
  let done = 0;
  for (let i = 0; i < total(mk); i++)
    if (!m.skipped[i]) {
      open++;
      if (marks[i]![0] !== '') done++;
    }
  const seed = m.blind ? ` (blind, seed ${m.blind.seed})` : '';
  el.progress.textContent = `marked ${done}/${open} in ${m.file}${seed} \u00b7 grader ${m.grader}`;
  el.saveStatus.textContent = st.error
    ? `not saved: ${st.error}`
    : st.pending > 0
      ? 'saving\u2026'
      : 'every mark saved';
  // Blind: the place in the shuffled order only; a fixture name or rep number would say which fixture this is.
  const rep = mk.blind ? undefined : st.loaded.reps[st.pos];
  el.label.textContent = rep
    ? `${st.loaded.fixtures[rep.f]!.name} rep ${rep.rep} (${st.pos + 1} of ${total(mk)})`
    : `${here ? '' : 'loading '}item ${st.pos + 1} of ${total(mk)}`;
  const current = marks[st.pos]!;
  const keeps = m.skipped[st.pos] ? ` \u00b7 ${rep ? `${rep.status}: keeps its mark` : 'this rep keeps its mark'}` : '';
  el.markbar.textContent = `mark: ${current[0] || 'none'}${current[1] ? ` \u00b7 note: ${current[1]}` : ''}${keeps}`;
  el.markbar.setAttribute('data-mark', current[0]);
  el.tabResponse.setAttribute('aria-selected', String(st.pane === 'response'));
  el.tabCase.setAttribute('aria-selected', String(st.pane === 'case'));
  const content = here ? paneContent(mk, st.pos) : 'loading\u2026';
  clear(el.paneText);
  el.paneText.appendChild(typeof content === 'string' ? h('pre', { text: content }) : markdownBlock(content));
  drawTurns(mk);
  el.message.textContent = m.readOnly ? `read-only: ${m.readOnly}` : st.message;
  document.body.setAttribute('data-pos', String(st.pos));
  // Whether the shown rep is drawn (its page here), for a reader's tools as data-ready is.
  document.body.setAttribute('data-rep-shown', String(here));
}

/** A rollout's turns, each with its checks and this session's mark; a click shows one, its buttons mark it. */
function drawTurns(mk: Marker): void {
  const { st, el } = mk;
  const rollout = rolloutOf(mk, st.pos);
  clear(el.turnbar);
  el.turnbar.hidden = !rollout || rollout.list.length === 0;
  if (!rollout || el.turnbar.hidden) return;
  rollout.list.forEach((turn, i) => {
    const mine = turnMarkIn(markerOf(mk).turnMarks[st.pos], turn.turn);
    const text = `turn ${turn.turn} \u00b7 checks ${turn.check ? turn.check.mark : 'none'}${turn.error ? ' \u00b7 error' : ''} \u00b7 mark ${mine || 'none'}`;
    const show = h('button', { type: 'button', class: 'turn-pick', text });
    show.addEventListener('click', () => {
      st.turn = i;
      st.pane = 'response';
      mk.draw();
    });
    const buttons = [
      ['pass', 'pass'],
      ['fail', 'fail'],
      ['', 'none'],
    ].map(([mark, name]) => {
      const b = h('button', {
        type: 'button',
        class: 'turn-mark',
        'data-give': name,
        'aria-label': `turn ${turn.turn}: ${name}`,
        text: name,
      });
      b.addEventListener('click', () => mk.saveTurn(i, mark!));
      return b;
    });
    const attrs = { 'data-turn': turn.turn, 'data-mark': mine, 'aria-current': i === st.turn ? 'true' : null };
    el.turnbar.appendChild(h('li', attrs, [show, ...buttons]));
  });
}
