import { toolCallsPaneText } from './tool-calls.js';
import type { RolloutView } from '../../turn-views.js';
import { errorText, type MarkReply, post, type RunReply, api } from './api.js';
import { addAll, clear, h, markdownBlock, mdNodes } from './dom.js';
import { turnMarkIn, turnPaneText } from './turns.js';
import { nav, pollRun, ready, VIEW } from './viewer-state.js';
import type { MarkdownNode } from '../../markdown-doc.js';

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

interface MarkerState {
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

/** The marker of run `id`, drawn into root. */
export function showMarker(root: HTMLElement, id: number): void {
  const st: MarkerState = {
    id,
    body: null,
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
  const progress = h('p', { id: 'progress', class: 'status' });
  const saveStatus = h('p', { id: 'save-status', class: 'status', 'aria-live': 'polite' });
  const label = h('h2', { id: 'rep-label' });
  const markbar = h('div', { id: 'markbar', class: 'markbar' });
  const turnbar = h('ol', { id: 'turnbar', class: 'turnbar', 'aria-label': 'turns of this rollout', hidden: true });
  const tabResponse = h('button', { type: 'button', class: 'tab', id: 'tab-response', text: '1 response' });
  const tabCase = h('button', { type: 'button', class: 'tab', id: 'tab-case', text: '2 case file' });
  // The response as it came (text); the case file rendered from its Markdown: the pane holds one or the other.
  const paneText = h('div', { id: 'pane-text', class: 'pane', tabindex: '0' });
  const rubric = h('div', { id: 'rubric', class: 'markdown' });
  const rubricHead = h('p', { id: 'rubric-head' });
  const noteInput = h('input', { id: 'note', type: 'text', 'aria-label': 'note', size: '80', hidden: true });
  const message = h('p', { id: 'message', 'aria-live': 'polite' });
  if (!blind) nav(root);
  addAll(root, [
    h('h1', { text: blind ? 'Blind re-mark' : 'Mark reps' }),
    progress,
    saveStatus,
    label,
    markbar,
    turnbar,
    noteInput,
    message,
    h('div', { class: 'marker' }, [
      h('section', null, [h('div', { role: 'tablist' }, [tabResponse, tabCase]), paneText]),
      h('section', { 'aria-label': 'rubric' }, [h('h3', { text: 'Rubric' }), rubricHead, rubric]),
    ]),
    h('p', { class: 'keys', text: KEYS }),
  ]);
  tabResponse.addEventListener('click', () => {
    st.pane = 'response';
    draw();
  });
  tabCase.addEventListener('click', () => {
    st.pane = 'case';
    draw();
  });

  const m = () => st.body!.marker;
  // A message for the marker's message line, and the marker drawn again.
  const say = (text: string): void => {
    st.message = text;
    draw();
  };
  const total = (): number => m().marks.length;
  const repOf = (pos: number) => st.body!.run!.reps[m().order[pos]!]!;
  function step(pos: number, dir: number): number {
    for (let i = pos + dir; i >= 0 && i < total(); i += dir) if (st.showAll || !m().skipped[i]) return i;
    return pos;
  }
  function firstUnmarked(): number {
    for (let i = 0; i < total(); i++) if (!m().skipped[i] && m().marks[i]![0] === '') return i;
    for (let j = 0; j < total(); j++) if (!m().skipped[j]) return j;
    return 0;
  }
  function rolloutOf(pos: number): RolloutView | undefined {
    return blind ? m().blindReps![pos]!.rollout : repOf(pos).rollout;
  }
  function paneContent(pos: number): string | MarkdownNode[] {
    const rollout = rolloutOf(pos);
    if (st.pane === 'response' && rollout && rollout.list.length > 0)
      return turnPaneText(rollout, st.turn, turnMarkIn(m().turnMarks[pos], rollout.list[st.turn]!.turn));
    if (blind) {
      const b = m().blindReps![pos]!;
      if (st.pane === 'case') return m().blindCaseFileDocs![b.caseFile]!;
      const said = `${b.response || ''}${toolCallsPaneText(b.toolCalls)}`;
      return b.error ? b.error + (said ? `\n\nResponse:\n${said}` : '') : said;
    }
    const rep = repOf(pos);
    if (st.pane === 'case') return st.body!.run!.fixtures[rep.f]!.caseFileDoc;
    if (rep.status === 'not run') return 'NOT RUN: this rep has no record yet.';
    if (!rep.error) return `${rep.response || ''}${toolCallsPaneText(rep.toolCalls)}`;
    return [
      `ERROR (${rep.error.stage}: ${rep.error.cause}): ${rep.error.message}`,
      rep.response ? `Response:\n${rep.response}` : '',
      toolCallsPaneText(rep.toolCalls).trim(),
      rep.stdoutTail ? `stdout (end):\n${rep.stdoutTail}` : '',
      rep.stderrTail ? `stderr (end):\n${rep.stderrTail}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  // A rollout's turns, each with its checks and this session's mark; a click shows one, its buttons mark it.
  function drawTurns(): void {
    const rollout = rolloutOf(st.pos);
    clear(turnbar);
    turnbar.hidden = !rollout || rollout.list.length === 0;
    if (!rollout || turnbar.hidden) return;
    rollout.list.forEach((turn, i) => {
      const mine = turnMarkIn(m().turnMarks[st.pos], turn.turn);
      const text = `turn ${turn.turn} \u00b7 checks ${turn.check ? turn.check.mark : 'none'}${turn.error ? ' \u00b7 error' : ''} \u00b7 mark ${mine || 'none'}`;
      const show = h('button', { type: 'button', class: 'turn-pick', text });
      show.addEventListener('click', () => {
        st.turn = i;
        st.pane = 'response';
        draw();
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
        b.addEventListener('click', () => saveTurn(i, mark!));
        return b;
      });
      const attrs = { 'data-turn': turn.turn, 'data-mark': mine, 'aria-current': i === st.turn ? 'true' : null };
      turnbar.appendChild(h('li', attrs, [show, ...buttons]));
    });
  }
  function draw(): void {
    // Each rep opens at its first turn; a reload that brought fewer turns keeps the place in range.
    if (st.turnOf !== st.pos) {
      st.turnOf = st.pos;
      st.turn = 0;
    }
    const shownRollout = rolloutOf(st.pos);
    if (shownRollout && st.turn >= shownRollout.list.length) st.turn = Math.max(0, shownRollout.list.length - 1);
    const marks = m().marks;
    let open = 0;
    let done = 0;
    for (let i = 0; i < total(); i++)
      if (!m().skipped[i]) {
        open++;
        if (marks[i]![0] !== '') done++;
      }
    const seed = m().blind ? ` (blind, seed ${m().blind!.seed})` : '';
    progress.textContent = `marked ${done}/${open} in ${m().file}${seed} \u00b7 grader ${m().grader}`;
    saveStatus.textContent = st.error ? `not saved: ${st.error}` : st.pending > 0 ? 'saving\u2026' : 'every mark saved';
    // Blind: the place in the shuffled order only; a fixture name or rep number would say which fixture this is.
    const rep = blind ? null : repOf(st.pos);
    label.textContent = rep
      ? `${st.body!.run!.fixtures[rep.f]!.name} rep ${rep.rep} (${st.pos + 1} of ${total()})`
      : `item ${st.pos + 1} of ${total()}`;
    const current = marks[st.pos]!;
    const keeps = m().skipped[st.pos]
      ? ` \u00b7 ${rep ? `${rep.status}: keeps its mark` : 'this rep keeps its mark'}`
      : '';
    markbar.textContent = `mark: ${current[0] || 'none'}${current[1] ? ` \u00b7 note: ${current[1]}` : ''}${keeps}`;
    markbar.setAttribute('data-mark', current[0]);
    tabResponse.setAttribute('aria-selected', String(st.pane === 'response'));
    tabCase.setAttribute('aria-selected', String(st.pane === 'case'));
    const content = paneContent(st.pos);
    clear(paneText);
    paneText.appendChild(typeof content === 'string' ? h('pre', { text: content }) : markdownBlock(content));
    drawTurns();
    message.textContent = m().readOnly ? `read-only: ${m().readOnly}` : st.message;
    document.body.setAttribute('data-pos', String(st.pos));
  }
  // Sends a change after the ones before it; the page shows it saved once the server has it on disk.
  function send(path: string, body: unknown, undo: () => void): void {
    st.pending++;
    st.error = '';
    st.queue = st.queue
      .then(() =>
        post<MarkReply>(VIEW.data, path, body)
          .then((reply) => {
            st.body!.marker.marks = reply.marks;
            st.body!.marker.turnMarks = reply.turnMarks;
            if (reply.merged) st.message = 'the marks file had changed on disk: its marks were merged in';
          })
          .catch((error: unknown) => {
            st.error = errorText(error);
            undo();
          }),
      )
      .then(() => {
        st.pending--;
        draw();
        if (st.pending === 0) document.body.setAttribute('data-saved', String(Date.now()));
      });
  }
  // Whether this rep takes no mark here (the marks file is read-only, or the rep keeps its mark), said if so.
  function refused(): boolean {
    const why = m().readOnly ? `read-only: ${m().readOnly}` : m().skipped[st.pos] ? 'this rep keeps its mark' : '';
    if (why) say(why);
    return why !== '';
  }
  function save(mark: string, note: string | undefined, advance: boolean): void {
    if (refused()) return;
    const pos = st.pos;
    const before = m().marks[pos]!;
    if (!advance && before[0] === mark && (note === undefined || note === before[1])) {
      say('unchanged');
      return;
    }
    // Shown at once as given, marked saving until the server answers that it is on disk.
    m().marks[pos] = [mark, note === undefined ? before[1] : note];
    st.message = '';
    const body: { run: number; position: number; mark: string; note?: string } = { run: st.id, position: pos, mark };
    if (note !== undefined) body.note = note;
    send('/api/mark', body, () => {
      m().marks[pos] = before;
    });
    if (advance) {
      const next = step(st.pos, 1);
      if (next === st.pos) st.message = 'last rep';
      else st.pos = next;
    }
    draw();
  }
  // A turn's own mark (the turn_marks column); the rep's mark stays as it is, and the marker stays on this rep.
  function saveTurn(at: number, mark: string): void {
    const rollout = rolloutOf(st.pos);
    if (!rollout || rollout.list.length === 0) {
      say('one turn: this rep is not a rollout');
      return;
    }
    if (refused()) return;
    const pos = st.pos;
    const turn = rollout.list[at]!.turn;
    const before = m().turnMarks[pos]!;
    m().turnMarks[pos] = [
      ...before.filter((pair) => pair[0] !== turn),
      ...(mark ? [[turn, mark] as [number, string]] : []),
    ].sort((a, b) => a[0] - b[0]);
    st.turn = at;
    st.message = `turn ${turn}: ${mark || 'unmarked'} (the rep's own mark is p/f/n)`;
    send('/api/turn-mark', { run: st.id, position: pos, turn, mark }, () => {
      m().turnMarks[pos] = before;
    });
    draw();
  }
  function stepTurn(dir: number): void {
    const rollout = rolloutOf(st.pos);
    if (!rollout || rollout.list.length === 0) {
      say('one turn: this rep is not a rollout');
      return;
    }
    const next = Math.max(0, Math.min(rollout.list.length - 1, st.turn + dir));
    if (next === st.turn) st.message = dir > 0 ? 'last turn played' : 'first turn';
    st.turn = next;
    st.pane = 'response';
    draw();
  }
  function openNote(): void {
    if (m().skipped[st.pos]) {
      say('this rep keeps its mark');
      return;
    }
    st.note = true;
    noteInput.hidden = false;
    noteInput.value = m().marks[st.pos]![1];
    noteInput.focus();
  }
  function closeNote(): void {
    st.note = null;
    noteInput.hidden = true;
    document.getElementById('pane-text')!.focus();
  }
  noteInput.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      const text = noteInput.value;
      closeNote();
      const cur = m().marks[st.pos]![0];
      save(cur === 'error' ? '' : cur, text, false);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      closeNote();
      draw();
    }
    event.stopPropagation();
  });
  const moveBy = (dir: number): void => {
    const n = step(st.pos, dir);
    if (n === st.pos) st.message = 'no more reps that way';
    st.pos = n;
    draw();
  };
  const showPane = (pane: MarkerState['pane']): void => {
    st.pane = pane;
    draw();
  };
  // Each key's action; a key not here is left to the browser.
  const bindings: [keys: string[], action: () => void][] = [
    [['p'], () => save('pass', undefined, true)],
    [['f'], () => save('fail', undefined, true)],
    [['n'], () => save('na', undefined, true)],
    [['u'], () => save('', undefined, false)],
    [['P'], () => saveTurn(st.turn, 'pass')],
    [['F'], () => saveTurn(st.turn, 'fail')],
    [['N'], () => saveTurn(st.turn, 'na')],
    [['U'], () => saveTurn(st.turn, '')],
    [[']'], () => stepTurn(1)],
    [['['], () => stepTurn(-1)],
    [
      ['a'],
      () => {
        st.showAll = !st.showAll;
        say(st.showAll ? 'errored reps shown' : 'errored reps skipped');
      },
    ],
    [['ArrowRight', 'l'], () => moveBy(1)],
    [['ArrowLeft', 'h'], () => moveBy(-1)],
    [['1'], () => showPane('response')],
    [['2'], () => showPane('case')],
    [['Tab'], () => showPane(st.pane === 'response' ? 'case' : 'response')],
    [['j', 'ArrowDown'], () => (paneText.scrollTop += 40)],
    [['k', 'ArrowUp'], () => (paneText.scrollTop -= 40)],
  ];
  const actions = new Map(bindings.flatMap(([keys, action]) => keys.map((key) => [key, action] as const)));
  function onKey(event: KeyboardEvent): void {
    if (st.note || !st.body || event.ctrlKey || event.metaKey || event.altKey) return;
    if (location.hash.indexOf('mark=') < 0 && !(VIEW.data.blind || VIEW.data.runs.length === 1)) return;
    st.message = '';
    if (event.key === 'e') {
      event.preventDefault();
      openNote();
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

  function load(keepPlace: boolean): Promise<void> {
    return api<RunReply>(VIEW.data, `/api/run?run=${id}`).then((body) => {
      const place = st.body && keepPlace ? st.pos : -1;
      st.body = body;
      VIEW.version = body.version;
      st.pos = place >= 0 && place < total() ? place : firstUnmarked();
      rubricHead.textContent = `${body.marker.question} (rubric version ${body.marker.rubricVersion})`;
      addAll(clear(rubric), mdNodes(body.marker.rubricDoc));
      draw();
      ready('marker');
    });
  }
  load(false)
    .then(() => {
      pollRun(id, () => {
        if (st.pending === 0) load(true);
      });
    })
    .catch((error: unknown) => {
      root.appendChild(h('p', { class: 'warning', text: errorText(error) }));
      ready('error');
    });
}
