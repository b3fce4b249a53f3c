/**
 * The page script's marker, keyboard first with the terminal marker's keys: p f n mark and move on, u clears, e
 * writes a note (Enter saves, Esc cancels), left/right (h/l) go back and forth, a shows errored reps, 1 2 or Tab
 * switch between response and case file, j/k scroll; the rubric stays beside the response. A rollout rep's pane
 * shows one turn: [ and ] step through its turns, P F N give that turn its own mark and U clears it (or the turn
 * list's buttons). A mark shows as saved only once the server has it on disk; blind, reps are named by their place
 * in the shuffled order only.
 */
export const CLIENT_MARKER = String.raw`
function showMarker(root, id) {
  var st = { id: id, body: null, pos: 0, turn: 0, turnOf: -1, pane: 'response', showAll: false, note: null, pending: 0, queue: Promise.resolve(), message: '', error: '' };
  var blind = VIEW.data.blind;
  var progress = h('p', { id: 'progress', class: 'status' });
  var saveStatus = h('p', { id: 'save-status', class: 'status', 'aria-live': 'polite' });
  var label = h('h2', { id: 'rep-label' });
  var markbar = h('div', { id: 'markbar', class: 'markbar' });
  var turnbar = h('ol', { id: 'turnbar', class: 'turnbar', 'aria-label': 'turns of this rollout', hidden: true });
  var tabResponse = h('button', { type: 'button', class: 'tab', id: 'tab-response', text: '1 response' });
  var tabCase = h('button', { type: 'button', class: 'tab', id: 'tab-case', text: '2 case file' });
  // The response as it came (text); the case file rendered from its Markdown: the pane holds one or the other.
  var paneText = h('div', { id: 'pane-text', class: 'pane', tabindex: '0' });
  var rubric = h('div', { id: 'rubric', class: 'markdown' });
  var rubricHead = h('p', { id: 'rubric-head' });
  var noteInput = h('input', { id: 'note', type: 'text', 'aria-label': 'note', size: '80', hidden: true });
  var message = h('p', { id: 'message', 'aria-live': 'polite' });
  if (!blind) nav(root);
  addAll(root, [h('h1', { text: blind ? 'Blind re-mark' : 'Mark reps' }), progress, saveStatus, label, markbar, turnbar, noteInput, message,
    h('div', { class: 'marker' }, [h('section', null, [h('div', { role: 'tablist' }, [tabResponse, tabCase]), paneText]),
      h('section', { 'aria-label': 'rubric' }, [h('h3', { text: 'Rubric' }), rubricHead, rubric])]),
    h('p', { class: 'keys', text: 'p pass \u00b7 f fail \u00b7 n na \u00b7 u clear \u00b7 e note (Enter saves, Esc cancels) \u00b7 \u2190 \u2192 or h l move \u00b7 a errored reps \u00b7 1 2 Tab panes \u00b7 j k scroll \u00b7 a rollout: [ ] turns, P F N mark the turn, U clears it' })]);
  tabResponse.addEventListener('click', function () { st.pane = 'response'; draw(); });
  tabCase.addEventListener('click', function () { st.pane = 'case'; draw(); });

  function m() { return st.body.marker; }
  function total() { return m().marks.length; }
  function repOf(pos) { return blind ? null : st.body.run.reps[m().order[pos]]; }
  function step(pos, dir) {
    for (var i = pos + dir; i >= 0 && i < total(); i += dir) if (st.showAll || !m().skipped[i]) return i;
    return pos;
  }
  function firstUnmarked() {
    for (var i = 0; i < total(); i++) if (!m().skipped[i] && m().marks[i][0] === '') return i;
    for (var j = 0; j < total(); j++) if (!m().skipped[j]) return j;
    return 0;
  }
  function rolloutOf(pos) { return blind ? m().blindReps[pos].rollout : repOf(pos).rollout; }
  function paneContent(pos) {
    var rollout = rolloutOf(pos);
    if (st.pane === 'response' && rollout && rollout.list.length > 0) return turnPaneText(rollout, st.turn, turnMarkIn(m().turnMarks[pos], rollout.list[st.turn].turn));
    if (blind) {
      var b = m().blindReps[pos];
      if (st.pane === 'case') return m().blindCaseFileDocs[b.caseFile];
      return b.error ? b.error + (b.response ? '\n\nResponse:\n' + b.response : '') : (b.response || '');
    }
    var rep = repOf(pos);
    if (st.pane === 'case') return st.body.run.fixtures[rep.f].caseFileDoc;
    if (rep.status === 'not run') return 'NOT RUN: this rep has no record yet.';
    if (!rep.error) return rep.response || '';
    return ['ERROR (' + rep.error.stage + ': ' + rep.error.cause + '): ' + rep.error.message, rep.response ? 'Response:\n' + rep.response : '',
      rep.stdoutTail ? 'stdout (end):\n' + rep.stdoutTail : '', rep.stderrTail ? 'stderr (end):\n' + rep.stderrTail : ''].filter(Boolean).join('\n\n');
  }
  // A rollout's turns, each with its checks and this session's mark; a click shows one, its buttons mark it.
  function drawTurns() {
    var rollout = rolloutOf(st.pos);
    clear(turnbar);
    turnbar.hidden = !rollout || rollout.list.length === 0;
    if (turnbar.hidden) return;
    rollout.list.forEach(function (turn, i) {
      var mine = turnMarkIn(m().turnMarks[st.pos], turn.turn);
      var show = h('button', { type: 'button', class: 'turn-pick', text: 'turn ' + turn.turn + ' \u00b7 checks ' + (turn.check ? turn.check.mark : 'none') + (turn.error ? ' \u00b7 error' : '') + ' \u00b7 mark ' + (mine || 'none') });
      show.addEventListener('click', function () { st.turn = i; st.pane = 'response'; draw(); });
      var buttons = [['pass', 'pass'], ['fail', 'fail'], ['', 'none']].map(function (pair) {
        var b = h('button', { type: 'button', class: 'turn-mark', 'data-give': pair[1], 'aria-label': 'turn ' + turn.turn + ': ' + pair[1], text: pair[1] });
        b.addEventListener('click', function () { saveTurn(i, pair[0]); });
        return b;
      });
      turnbar.appendChild(h('li', { 'data-turn': turn.turn, 'data-mark': mine, 'aria-current': i === st.turn ? 'true' : null }, [show].concat(buttons)));
    });
  }
  function draw() {
    // Each rep opens at its first turn; a reload that brought fewer turns keeps the place in range.
    if (st.turnOf !== st.pos) { st.turnOf = st.pos; st.turn = 0; }
    var shownRollout = rolloutOf(st.pos);
    if (shownRollout && st.turn >= shownRollout.list.length) st.turn = Math.max(0, shownRollout.list.length - 1);
    var marks = m().marks;
    var open = 0, done = 0;
    for (var i = 0; i < total(); i++) if (!m().skipped[i]) { open++; if (marks[i][0] !== '') done++; }
    progress.textContent = 'marked ' + done + '/' + open + ' in ' + m().file + (m().blind ? ' (blind, seed ' + m().blind.seed + ')' : '') + ' \u00b7 grader ' + m().grader;
    saveStatus.textContent = st.error ? 'not saved: ' + st.error : st.pending > 0 ? 'saving\u2026' : 'every mark saved';
    var rep = repOf(st.pos);
    // Blind: the place in the shuffled order only; a fixture name or rep number would say which fixture this is.
    label.textContent = blind ? 'item ' + (st.pos + 1) + ' of ' + total() : st.body.run.fixtures[rep.f].name + ' rep ' + rep.rep + ' (' + (st.pos + 1) + ' of ' + total() + ')';
    var current = marks[st.pos];
    markbar.textContent = 'mark: ' + (current[0] || 'none') + (current[1] ? ' \u00b7 note: ' + current[1] : '') + (m().skipped[st.pos] ? ' \u00b7 ' + (blind ? 'this rep keeps its mark' : rep.status + ': keeps its mark') : '');
    markbar.setAttribute('data-mark', current[0]);
    tabResponse.setAttribute('aria-selected', String(st.pane === 'response'));
    tabCase.setAttribute('aria-selected', String(st.pane === 'case'));
    var content = paneContent(st.pos);
    clear(paneText);
    paneText.appendChild(typeof content === 'string' ? h('pre', { text: content }) : markdownBlock(content));
    drawTurns();
    message.textContent = m().readOnly ? 'read-only: ' + m().readOnly : st.message;
    document.body.setAttribute('data-pos', String(st.pos));
  }
  function save(mark, note, advance) {
    if (m().readOnly) { st.message = 'read-only: ' + m().readOnly; return draw(); }
    if (m().skipped[st.pos]) { st.message = 'this rep keeps its mark'; return draw(); }
    var pos = st.pos;
    var before = m().marks[pos];
    if (!advance && before[0] === mark && (note === undefined || note === before[1])) { st.message = 'unchanged'; return draw(); }
    // Shown at once as given, marked saving until the server answers that it is on disk.
    m().marks[pos] = [mark, note === undefined ? before[1] : note];
    st.pending++;
    st.error = '';
    st.message = '';
    var body = { run: st.id, position: pos, mark: mark };
    if (note !== undefined) body.note = note;
    st.queue = st.queue.then(function () {
      return post('/api/mark', body).then(function (reply) {
        st.body.marker.marks = reply.marks;
        st.body.marker.turnMarks = reply.turnMarks;
        if (reply.merged) st.message = 'the marks file had changed on disk: its marks were merged in';
      }).catch(function (error) { st.error = String(error.message || error); m().marks[pos] = before; });
    }).then(function () { st.pending--; draw(); if (st.pending === 0) document.body.setAttribute('data-saved', String(Date.now())); });
    if (advance) {
      var next = step(st.pos, 1);
      if (next === st.pos) st.message = 'last rep'; else st.pos = next;
    }
    draw();
  }
  // A turn's own mark (the turn_marks column); the rep's mark stays as it is, and the marker stays on this rep.
  function saveTurn(at, mark) {
    var rollout = rolloutOf(st.pos);
    if (!rollout || rollout.list.length === 0) { st.message = 'one turn: this rep is not a rollout'; return draw(); }
    if (m().readOnly) { st.message = 'read-only: ' + m().readOnly; return draw(); }
    if (m().skipped[st.pos]) { st.message = 'this rep keeps its mark'; return draw(); }
    var pos = st.pos;
    var turn = rollout.list[at].turn;
    var before = m().turnMarks[pos];
    m().turnMarks[pos] = before.filter(function (pair) { return pair[0] !== turn; }).concat(mark ? [[turn, mark]] : []).sort(function (a, b) { return a[0] - b[0]; });
    st.turn = at;
    st.pending++;
    st.error = '';
    st.message = 'turn ' + turn + ': ' + (mark || 'unmarked') + " (the rep's own mark is p/f/n)";
    st.queue = st.queue.then(function () {
      return post('/api/turn-mark', { run: st.id, position: pos, turn: turn, mark: mark }).then(function (reply) {
        st.body.marker.marks = reply.marks;
        st.body.marker.turnMarks = reply.turnMarks;
        if (reply.merged) st.message = 'the marks file had changed on disk: its marks were merged in';
      }).catch(function (error) { st.error = String(error.message || error); m().turnMarks[pos] = before; });
    }).then(function () { st.pending--; draw(); if (st.pending === 0) document.body.setAttribute('data-saved', String(Date.now())); });
    draw();
  }
  function stepTurn(dir) {
    var rollout = rolloutOf(st.pos);
    if (!rollout || rollout.list.length === 0) { st.message = 'one turn: this rep is not a rollout'; return draw(); }
    var next = Math.max(0, Math.min(rollout.list.length - 1, st.turn + dir));
    if (next === st.turn) st.message = dir > 0 ? 'last turn played' : 'first turn';
    st.turn = next;
    st.pane = 'response';
    draw();
  }
  function openNote() {
    if (m().skipped[st.pos]) { st.message = 'this rep keeps its mark'; return draw(); }
    st.note = true;
    noteInput.hidden = false;
    noteInput.value = m().marks[st.pos][1];
    noteInput.focus();
  }
  function closeNote() { st.note = null; noteInput.hidden = true; document.getElementById('pane-text').focus(); }
  noteInput.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') { event.preventDefault(); var text = noteInput.value; closeNote(); var cur = m().marks[st.pos][0]; save(cur === 'error' ? '' : cur, text, false); }
    else if (event.key === 'Escape') { event.preventDefault(); closeNote(); draw(); }
    event.stopPropagation();
  });
  function onKey(event) {
    if (st.note || !st.body || event.ctrlKey || event.metaKey || event.altKey) return;
    if (location.hash.indexOf('mark=') < 0 && !(VIEW.data.blind || VIEW.data.runs.length === 1)) return;
    var key = event.key;
    var handled = true;
    st.message = '';
    if (key === 'p') save('pass', undefined, true);
    else if (key === 'f') save('fail', undefined, true);
    else if (key === 'n') save('na', undefined, true);
    else if (key === 'u') save('', undefined, false);
    else if (key === 'P' || key === 'F' || key === 'N' || key === 'U') saveTurn(st.turn, { P: 'pass', F: 'fail', N: 'na', U: '' }[key]);
    else if (key === ']') stepTurn(1);
    else if (key === '[') stepTurn(-1);
    else if (key === 'e') { event.preventDefault(); openNote(); return; }
    else if (key === 'a') { st.showAll = !st.showAll; st.message = st.showAll ? 'errored reps shown' : 'errored reps skipped'; draw(); }
    else if (key === 'ArrowRight' || key === 'l') { var n = step(st.pos, 1); if (n === st.pos) st.message = 'no more reps that way'; st.pos = n; draw(); }
    else if (key === 'ArrowLeft' || key === 'h') { var p = step(st.pos, -1); if (p === st.pos) st.message = 'no more reps that way'; st.pos = p; draw(); }
    else if (key === '1') { st.pane = 'response'; draw(); }
    else if (key === '2') { st.pane = 'case'; draw(); }
    else if (key === 'Tab') { st.pane = st.pane === 'response' ? 'case' : 'response'; draw(); }
    else if (key === 'j' || key === 'ArrowDown') paneText.scrollTop += 40;
    else if (key === 'k' || key === 'ArrowUp') paneText.scrollTop -= 40;
    else handled = false;
    if (handled) event.preventDefault();
  }
  document.addEventListener('keydown', onKey);
  window.addEventListener('hashchange', function off() { document.removeEventListener('keydown', onKey); window.removeEventListener('hashchange', off); });

  function load(keepPlace) {
    return api('/api/run?run=' + id).then(function (body) {
      var place = st.body && keepPlace ? st.pos : -1;
      st.body = body;
      VIEW.version = body.version;
      st.pos = place >= 0 && place < total() ? place : firstUnmarked();
      rubricHead.textContent = body.marker.question + ' (rubric version ' + body.marker.rubricVersion + ')';
      addAll(clear(rubric), mdNodes(body.marker.rubricDoc));
      draw();
      ready('marker');
    });
  }
  load(false).then(function () {
    pollRun(id, function () { if (st.pending === 0) load(true); });
  }).catch(function (error) { root.appendChild(h('p', { class: 'warning', text: String(error.message || error) })); ready('error'); });
}
`;
