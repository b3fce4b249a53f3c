/**
 * The page script's viewer: the list of runs, a run's report and reps, two runs side by side per fixture, and the
 * marker; it talks to its server with the URL's token, and polls it so that reps a running `turnkit run` adds
 * appear.
 */
export const CLIENT_VIEWER = String.raw`
var VIEW = { data: null, poll: null, version: null };

function api(path) {
  return fetch(path + (path.indexOf('?') >= 0 ? '&' : '?') + 'token=' + encodeURIComponent(VIEW.data.token), { cache: 'no-store' })
    .then(function (res) { return res.json().then(function (body) { if (!res.ok) throw new Error(body.error || res.statusText); return body; }); });
}
function post(path, value) {
  return fetch(path, { method: 'POST', cache: 'no-store', headers: { 'Content-Type': 'application/json', 'X-Turnkit-Token': VIEW.data.token, 'X-Turnkit-Csrf': VIEW.data.csrf }, body: JSON.stringify(value) })
    .then(function (res) { return res.json().then(function (body) { if (!res.ok) throw new Error(body.error || res.statusText); return body; }); });
}

function startViewer(data) {
  VIEW.data = data;
  window.addEventListener('hashchange', route);
  route();
}

function ready(view) {
  document.body.setAttribute('data-view', view);
  document.body.setAttribute('data-ready', 'true');
}

function stopPolling() { if (VIEW.poll) clearInterval(VIEW.poll); VIEW.poll = null; }

// Every few seconds: has the run changed (a rep added by a running turnkit run, another file's marks)?
function pollRun(id, onChange) {
  stopPolling();
  VIEW.poll = setInterval(function () {
    api('/api/version?run=' + id).then(function (body) {
      if (VIEW.version !== null && body.version !== VIEW.version) onChange();
    }).catch(function () {});
  }, 1500);
}

function route() {
  stopPolling();
  document.body.setAttribute('data-ready', 'false');
  var root = clear(document.getElementById('app'));
  var hash = location.hash.replace(/^#/, '');
  var match = /^(run|mark|side)=([0-9]+)(?:,([0-9]+))?$/.exec(hash);
  if (VIEW.data.runs.length === 1 && !match) match = [null, VIEW.data.blind ? 'mark' : 'run', '0'];
  if (!match) return showList(root);
  var id = Number(match[2]);
  if (match[1] === 'mark' || VIEW.data.blind) return showMarker(root, id);
  if (match[1] === 'side' && match[3] !== undefined) return showSide(root, id, Number(match[3]));
  return showRun(root, id);
}

function nav(root) {
  var links = [h('a', { href: '#list', text: 'all runs' })];
  root.appendChild(h('nav', null, links));
}

function showList(root) {
  root.appendChild(h('h1', { text: VIEW.data.blind ? 'turnkit view: blind re-mark' : 'turnkit view' }));
  var checked = [];
  var sideButton = h('button', { type: 'button', id: 'side-by-side', text: 'show the two checked runs side by side', disabled: true });
  var rows = VIEW.data.runs.map(function (run) {
    var box = h('input', { type: 'checkbox', 'aria-label': 'compare ' + run.dir, 'data-run': run.id });
    box.addEventListener('change', function () {
      if (box.checked) checked.push(run.id); else checked = checked.filter(function (id) { return id !== run.id; });
      sideButton.disabled = checked.length !== 2;
    });
    return h('tr', { 'data-run': run.id }, [
      h('th', { scope: 'row', text: run.question }),
      h('td', { text: run.stamp }),
      h('td', { text: run.dir }),
      h('td', null, VIEW.data.blind ? [h('a', { href: '#mark=' + run.id, text: 'mark blind' })] : [h('a', { href: '#run=' + run.id, text: 'open' }), ' ', h('a', { href: '#mark=' + run.id, text: 'mark' })]),
      h('td', null, VIEW.data.blind ? null : box),
    ]);
  });
  root.appendChild(h('table', { id: 'runs' }, [h('thead', null, h('tr', null, ['question', 'run', 'folder', '', 'side by side'].map(function (c) { return h('th', { scope: 'col', text: c }); }))), h('tbody', null, rows)]));
  if (!VIEW.data.blind) root.appendChild(sideButton);
  sideButton.addEventListener('click', function () { location.hash = 'side=' + checked[0] + ',' + checked[1]; });
  ready('list');
}

function showRun(root, id) {
  nav(root);
  var box = h('div', { class: 'run' });
  root.appendChild(box);
  api('/api/run?run=' + id).then(function (body) {
    VIEW.version = body.version;
    box.appendChild(h('p', null, [h('a', { href: '#mark=' + id, id: 'open-marker', text: 'mark these reps (' + body.marker.file + ')' })]));
    renderReport(body.run, box);
    renderReps(body.run, box);
    ready('run');
    pollRun(id, function () { route(); });
  }).catch(function (error) { box.appendChild(h('p', { class: 'warning', text: String(error.message || error) })); ready('error'); });
}

function showSide(root, a, b) {
  nav(root);
  var box = h('div', { class: 'side-by-side' });
  root.appendChild(box);
  api('/api/compare?a=' + a + '&b=' + b).then(function (body) {
    box.appendChild(h('h1', { text: 'Side by side: ' + body.a.dir + ' and ' + body.b.dir }));
    if (body.comparison) box.appendChild(renderComparison(body.comparison));
    if (body.problem) box.appendChild(h('p', { class: 'warning', text: body.problem }));
    var names = [];
    [body.a, body.b].forEach(function (run) { run.fixtures.forEach(function (f) { if (names.indexOf(f.name) < 0) names.push(f.name); }); });
    names.forEach(function (name) {
      var columns = [body.a, body.b].map(function (run) {
        var index = -1;
        run.fixtures.forEach(function (f, i) { if (f.name === name) index = i; });
        var col = h('div', { class: 'column', 'data-run-dir': run.dir }, [h('h4', { text: run.dir })]);
        if (index < 0) return addAll(col, h('p', { text: 'not in this run' }));
        var line = run.report.fixtures.filter(function (f) { return f.fixture === name; })[0];
        if (line) col.appendChild(h('p', { 'data-k': 'rate', text: 'rate ' + rateText(line) + ', ' + line.verdict }));
        var reps = run.reps.filter(function (rep) { return rep.f === index; });
        reps.slice(0, 10).forEach(function (rep) { col.appendChild(repCard(run, rep)); });
        if (reps.length > 10) col.appendChild(h('p', { text: (reps.length - 10) + ' more rep(s): open the run to page through them' }));
        return col;
      });
      box.appendChild(h('section', { class: 'fixture-side', 'data-fixture': name }, [h('h2', { text: name }), h('div', { class: 'side' }, columns)]));
    });
    ready('side');
  }).catch(function (error) { box.appendChild(h('p', { class: 'warning', text: String(error.message || error) })); ready('error'); });
}
`;
