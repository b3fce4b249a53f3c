import type { MarkReply } from '../../view-data.js';
import { errorText, post } from './api.js';
import { hasRep, markerOf, rolloutOf, say, step, type Marker } from './marker-context.js';
import { VIEW } from './viewer-state.js';

/** Sends a change after the ones before it; the page shows it saved once the server has it on disk. */
function send(mk: Marker, path: string, body: unknown, undo: () => void): void {
  const { st } = mk;
  st.pending++;
  st.error = '';
  st.queue = st.queue
    .then(() =>
      post<MarkReply>(VIEW.data, path, body)
        .then((reply) => {
          const marker = st.body!.marker;
          // Every position's marks come only after a merge; else the one position's, as the server saved them.
          if (reply.all) {
            marker.marks = reply.all.marks;
            marker.turnMarks = reply.all.turnMarks;
          }
          marker.marks[reply.position] = reply.mark;
          marker.turnMarks[reply.position] = reply.turnMarks;
          if (reply.merged) st.message = 'the marks file had changed on disk: its marks were merged in';
        })
        .catch((error: unknown) => {
          st.error = errorText(error);
          undo();
        }),
    )
    .then(() => {
      st.pending--;
      mk.draw();
      if (st.pending === 0) document.body.setAttribute('data-saved', String(Date.now()));
    });
}

/**
 * Whether this rep takes no mark here (the marks file is read-only, the rep keeps its mark, or it has not come yet:
 * a rep is never marked unseen), said if so.
 */
function refused(mk: Marker): boolean {
  const m = markerOf(mk);
  const why = m.readOnly
    ? `read-only: ${m.readOnly}`
    : m.skipped[mk.st.pos]
      ? 'this rep keeps its mark'
      : !hasRep(mk, mk.st.pos)
        ? 'this rep is still loading: mark it once it is shown'
        : '';
  if (why) say(mk, why);
  return why !== '';
}

/** Gives the shown rep a mark (and a note, when given), shown at once, saved behind; `advance` moves on. */
export function saveMark(mk: Marker, mark: string, note: string | undefined, advance: boolean): void {
  if (refused(mk)) return;
  const { st } = mk;
  const m = markerOf(mk);
  const pos = st.pos;
  const before = m.marks[pos]!;
  if (!advance && before[0] === mark && (note === undefined || note === before[1])) {
    say(mk, 'unchanged');
    return;
  }
  // Shown at once as given, marked saving until the server answers that it is on disk.
  m.marks[pos] = [mark, note === undefined ? before[1] : note];
  st.message = '';
  const body: { run: number; position: number; mark: string; note?: string } = { run: st.id, position: pos, mark };
  if (note !== undefined) body.note = note;
  send(mk, '/api/mark', body, () => {
    m.marks[pos] = before;
  });
  if (advance) {
    const next = step(mk, st.pos, 1);
    if (next === st.pos) st.message = 'last rep';
    else st.pos = next;
  }
  mk.draw();
}

/** A turn's own mark (the turn_marks column); the rep's mark stays as it is, and the marker stays on this rep. */
export function saveTurnMark(mk: Marker, at: number, mark: string): void {
  const { st } = mk;
  if (!hasRep(mk, st.pos)) {
    say(mk, 'this rep is still loading: mark it once it is shown');
    return;
  }
  const rollout = rolloutOf(mk, st.pos);
  if (!rollout || rollout.list.length === 0) {
    say(mk, 'one turn: this rep is not a rollout');
    return;
  }
  if (refused(mk)) return;
  const m = markerOf(mk);
  const pos = st.pos;
  const turn = rollout.list[at]!.turn;
  const before = m.turnMarks[pos]!;
  m.turnMarks[pos] = [
    ...before.filter((pair) => pair[0] !== turn),
    ...(mark ? [[turn, mark] as [number, string]] : []),
  ].sort((a, b) => a[0] - b[0]);
  st.turn = at;
  st.message = `turn ${turn}: ${mark || 'unmarked'} (the rep's own mark is p/f/n)`;
  send(mk, '/api/turn-mark', { run: st.id, position: pos, turn, mark }, () => {
    m.turnMarks[pos] = before;
  });
  mk.draw();
}
