/**
 * The page script's rep list: every rep of a run filtered by fixture, by mark (in a chosen marks file) and by text,
 * shown a page at a time so that the DOM holds a bounded number of rows whatever the run's size.
 */
export const CLIENT_REPS = String.raw`
var PAGE_SIZE = 25;

function repText(run, rep) {
  if (rep._text === undefined) {
    var parts = [rep.response || '', rep.error ? rep.error.message : '', rep.rollout ? turnSearchText(rep.rollout) : ''];
    rep.marks.forEach(function (m) { if (m) parts.push(m[1]); });
    rep._text = parts.join('\n').toLowerCase();
  }
  return rep._text;
}

function renderReps(run, root) {
  var state = { fixture: '', mark: '*', file: 0, text: '', page: 0 };
  var section = h('section', { id: 'reps' }, [h('h2', { text: 'Reps (' + run.reps.length + ')' })]);
  var fixtureSelect = h('select', { id: 'filter-fixture', 'aria-label': 'fixture' }, [h('option', { value: '', text: 'every fixture' })].concat(
    run.fixtures.map(function (f, i) { return h('option', { value: String(i), text: f.name }); })));
  var fileSelect = h('select', { id: 'filter-file', 'aria-label': 'marks file' }, run.marksFiles.map(function (name, i) { return h('option', { value: String(i), text: name }); }));
  var markSelect = h('select', { id: 'filter-mark', 'aria-label': 'mark' }, ['*', 'pass', 'fail', 'na', 'error', 'blank'].map(function (m) {
    return h('option', { value: m, text: m === '*' ? 'any mark' : m });
  }));
  var search = h('input', { id: 'filter-text', type: 'search', placeholder: 'text in responses, errors, notes', 'aria-label': 'text' });
  var count = h('p', { id: 'rep-count', 'aria-live': 'polite' });
  var list = h('div', { id: 'rep-list' });
  var prev = h('button', { type: 'button', id: 'page-prev', text: 'previous page' });
  var next = h('button', { type: 'button', id: 'page-next', text: 'next page' });
  section.appendChild(h('div', { class: 'filters' }, [h('label', null, ['fixture ', fixtureSelect]), h('label', null, ['mark ', markSelect]), h('label', null, ['in ', fileSelect]), h('label', null, ['text ', search])]));
  section.appendChild(count);
  section.appendChild(list);
  section.appendChild(h('div', { class: 'pager' }, [prev, next]));
  root.appendChild(section);

  var matching = [];
  function filter() {
    var needle = state.text.toLowerCase();
    matching = run.reps.filter(function (rep) {
      if (state.fixture !== '' && String(rep.f) !== state.fixture) return false;
      if (state.mark !== '*') {
        var m = rep.marks[state.file];
        var mark = m ? m[0] : '';
        if ((mark || 'blank') !== state.mark) return false;
      }
      return needle === '' || repText(run, rep).indexOf(needle) >= 0;
    });
    state.page = Math.min(state.page, Math.max(0, Math.ceil(matching.length / PAGE_SIZE) - 1));
    draw();
  }
  function draw() {
    clear(list);
    var start = state.page * PAGE_SIZE;
    var shown = matching.slice(start, start + PAGE_SIZE);
    count.textContent = matching.length === 0 ? 'no rep matches' : 'reps ' + (start + 1) + '-' + (start + shown.length) + ' of ' + matching.length + (matching.length < run.reps.length ? ' matching (' + run.reps.length + ' in all)' : '');
    shown.forEach(function (rep) { list.appendChild(repCard(run, rep)); });
    prev.disabled = state.page === 0;
    next.disabled = start + PAGE_SIZE >= matching.length;
  }
  var timer = null;
  fixtureSelect.addEventListener('change', function () { state.fixture = fixtureSelect.value; state.page = 0; filter(); });
  markSelect.addEventListener('change', function () { state.mark = markSelect.value; state.page = 0; filter(); });
  fileSelect.addEventListener('change', function () { state.file = Number(fileSelect.value); state.page = 0; filter(); });
  search.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () { state.text = search.value; state.page = 0; filter(); }, 120);
  });
  prev.addEventListener('click', function () { state.page--; draw(); });
  next.addEventListener('click', function () { state.page++; draw(); });
  filter();
}

function effectsTable(effects) {
  var rows = [];
  ['inserted', 'updated', 'deleted'].forEach(function (kind) {
    Object.keys(effects[kind]).sort().forEach(function (name) { rows.push({ cells: [kind, name, String(effects[kind][name])] }); });
  });
  if (rows.length === 0) return h('p', { text: 'The SUT changed nothing in its scratch campaign.' });
  var parts = [table('What the SUT changed in its scratch campaign', ['change', 'table', 'rows'], rows, { class: 'effects' })];
  Object.keys(effects.insertedRows || {}).sort().forEach(function (name) {
    parts.push(h('details', null, [h('summary', { text: 'inserted rows of ' + name }), h('pre', { text: JSON.stringify(effects.insertedRows[name], null, 2) })]));
  });
  return h('div', null, parts);
}

function repCard(run, rep) {
  var fixture = run.fixtures[rep.f];
  var card = h('article', { class: 'rep ' + rep.status.replace(' ', '-'), 'data-rep': fixture.name + '/' + rep.rep }, [
    h('h3', { text: fixture.name + ' rep ' + rep.rep + ' \u00b7 ' + rep.status + (rep.sutMs === null ? '' : ' \u00b7 SUT ' + Math.round(rep.sutMs) + ' ms') }),
  ]);
  var marks = h('ul', { class: 'marks' });
  run.marksFiles.forEach(function (name, i) {
    var m = rep.marks[i];
    marks.appendChild(h('li', null, [h('span', { class: 'file', text: name + ': ' }), h('b', { class: 'mark', text: m && m[0] ? m[0] : 'blank' }), m && m[1] ? h('span', { class: 'note', text: ' \u2014 ' + m[1] }) : null]));
  });
  card.appendChild(marks);
  if (rep.error) card.appendChild(h('div', { class: 'error' }, [h('p', { text: 'ERROR (' + rep.error.stage + ': ' + rep.error.cause + '): ' + rep.error.message }),
    rep.stdoutTail ? h('details', null, [h('summary', { text: 'stdout (end)' }), h('pre', { text: rep.stdoutTail })]) : null,
    rep.stderrTail ? h('details', null, [h('summary', { text: 'stderr (end)' }), h('pre', { text: rep.stderrTail })]) : null]));
  // A rollout's turns stand in for its response (the same text, turn by turn).
  if (rep.rollout) card.appendChild(rolloutBlock(run, rep));
  else if (rep.response !== null) card.appendChild(h('pre', { class: 'response', text: rep.response }));
  if (rep.status === 'not run') card.appendChild(h('p', { text: 'Not run: this rep has no record (turnkit run --resume finishes it).' }));
  if (rep.effects) card.appendChild(effectsTable(rep.effects));
  if (rep.outside && rep.outside.length > 0) card.appendChild(h('ul', { class: 'outside' }, rep.outside.map(function (line) { return h('li', { text: 'outside its campaign: ' + line }); })));
  // The case file is shared by the fixture's reps: it is kept once and put in the page only when opened.
  var details = h('details', { class: 'case' }, [h('summary', { text: 'case file' })]);
  details.addEventListener('toggle', function () {
    if (details.open && details.children.length === 1) details.appendChild(markdownBlock(fixture.caseFileDoc));
  });
  card.appendChild(details);
  return card;
}
`;
