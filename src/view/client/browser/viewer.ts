import type { RunPage, RunView } from '../../view-data.js';
import { api, type CompareReply, type ViewData } from './api.js';
import { addAll, clear, h } from './dom.js';
import { showMarker } from './marker.js';
import { renderReport } from './report.js';
import { repCard, renderReps } from './reps.js';
import { renderComparison } from './report-sections.js';
import { rateText } from '../../../report/report-text.js';
import { failed, nav, ready, stopPolling, VIEW, pollRun } from './viewer-state.js';

/*
 * The page script's viewer: the list of runs, a run's report and reps, two runs side by side per fixture, and the
 * marker; it talks to its server with the URL's token, and polls it so that reps a running `turnkit run` adds
 * appear.
 */

/** The viewer's entry: routes by the URL's hash, now and on each change. */
export function startViewer(data: ViewData): void {
  VIEW.data = data;
  window.addEventListener('hashchange', route);
  route();
}

function route(): void {
  stopPolling();
  document.body.setAttribute('data-ready', 'false');
  const root = clear(document.getElementById('app')!);
  const hash = location.hash.replace(/^#/, '');
  let match: (string | undefined)[] | null = /^(run|mark|side)=([0-9]+)(?:,([0-9]+))?$/.exec(hash);
  if (VIEW.data.runs.length === 1 && !match) match = [undefined, VIEW.data.blind ? 'mark' : 'run', '0'];
  if (!match) showList(root);
  else if (match[1] === 'mark' || VIEW.data.blind) showMarker(root, Number(match[2]));
  else if (match[1] === 'side' && match[3] !== undefined) showSide(root, Number(match[2]), Number(match[3]));
  else showRun(root, Number(match[2]));
}

function showList(root: HTMLElement): void {
  const blind = VIEW.data.blind;
  root.appendChild(h('h1', { text: blind ? 'turnkit view: blind re-mark' : 'turnkit view' }));
  let checked: number[] = [];
  const sideButton = h('button', {
    type: 'button',
    id: 'side-by-side',
    text: 'show the two checked runs side by side',
    disabled: true,
  });
  const rows = VIEW.data.runs.map((run) => {
    const box = h('input', { type: 'checkbox', 'aria-label': `compare ${run.dir}`, 'data-run': run.id });
    box.addEventListener('change', () => {
      if (box.checked) checked.push(run.id);
      else checked = checked.filter((id) => id !== run.id);
      sideButton.disabled = checked.length !== 2;
    });
    const links = blind
      ? [h('a', { href: `#mark=${run.id}`, text: 'mark blind' })]
      : [h('a', { href: `#run=${run.id}`, text: 'open' }), ' ', h('a', { href: `#mark=${run.id}`, text: 'mark' })];
    return h('tr', { 'data-run': run.id }, [
      h('th', { scope: 'row', text: run.question }),
      h('td', { text: run.stamp }),
      h('td', { text: run.dir }),
      h('td', null, links),
      h('td', null, blind ? null : box),
    ]);
  });
  const header = ['question', 'run', 'folder', '', 'side by side'].map((c) => h('th', { scope: 'col', text: c }));
  root.appendChild(h('table', { id: 'runs' }, [h('thead', null, h('tr', null, header)), h('tbody', null, rows)]));
  if (!blind) root.appendChild(sideButton);
  sideButton.addEventListener('click', () => {
    location.hash = `side=${checked[0]},${checked[1]}`;
  });
  ready('list');
}

// A large run's reps come in pages: the first screen (the report and the first page of reps) is drawn from the first,
// and the rest are fetched behind it and the rep list drawn again once they are all there (filters then see all).
// The rep list's own page size: the first screen shows no more reps than these.
const FIRST_PAGE = 25;
const PAGE = 2000;

function showRun(root: HTMLElement, id: number): void {
  nav(root);
  const box = h('div', { class: 'run' });
  root.appendChild(box);
  api<RunPage>(VIEW.data, `/api/run?run=${id}&from=0&to=${FIRST_PAGE}`)
    .then(async (body) => {
      VIEW.version = body.version;
      const run = body.run!;
      const open = h('a', { href: `#mark=${id}`, id: 'open-marker', text: `mark these reps (${body.markerFile})` });
      box.appendChild(h('p', null, [open]));
      renderReport(run, box);
      renderReps(run, box, body.repsTotal);
      document.body.setAttribute('data-first-screen', 'true');
      while (run.reps.length < body.repsTotal) {
        const from = run.reps.length;
        const page = await api<{ reps: RunView['reps']; version: string }>(
          VIEW.data,
          `/api/reps?run=${id}&from=${from}&to=${from + PAGE}`,
        );
        // The run changed meanwhile (a rep added, a marks file edited): start again from its new version.
        if (page.version !== body.version || page.reps.length === 0) return route();
        for (const rep of page.reps) run.reps.push(rep);
      }
      if (body.repsTotal > FIRST_PAGE) {
        box.querySelector('#reps')?.remove();
        renderReps(run, box);
      }
      ready('run');
      pollRun(id, () => route());
    })
    .catch(failed(box));
}

function showSide(root: HTMLElement, a: number, b: number): void {
  nav(root);
  const box = h('div', { class: 'side-by-side' });
  root.appendChild(box);
  api<CompareReply>(VIEW.data, `/api/compare?a=${a}&b=${b}`)
    .then((body) => {
      box.appendChild(h('h1', { text: `Side by side: ${body.a.dir} and ${body.b.dir}` }));
      if (body.comparison) box.appendChild(renderComparison(body.comparison));
      if (body.problem) box.appendChild(h('p', { class: 'warning', text: body.problem }));
      const names: string[] = [];
      for (const run of [body.a, body.b])
        for (const f of run.fixtures) if (names.indexOf(f.name) < 0) names.push(f.name);
      for (const name of names) {
        const columns = [body.a, body.b].map((run) => {
          const index = run.fixtures.findLastIndex((f) => f.name === name);
          const col = h('div', { class: 'column', 'data-run-dir': run.dir }, [h('h4', { text: run.dir })]);
          if (index < 0) return addAll(col, h('p', { text: 'not in this run' }));
          const line = run.report.fixtures.filter((f) => f.fixture === name)[0];
          if (line) col.appendChild(h('p', { 'data-k': 'rate', text: `rate ${rateText(line)}, ${line.verdict}` }));
          const reps = run.reps.filter((rep) => rep.f === index);
          for (const rep of reps.slice(0, 10)) col.appendChild(repCard(run, rep));
          if (reps.length > 10)
            col.appendChild(h('p', { text: `${reps.length - 10} more rep(s): open the run to page through them` }));
          return col;
        });
        box.appendChild(
          h('section', { class: 'fixture-side', 'data-fixture': name }, [
            h('h2', { text: name }),
            h('div', { class: 'side' }, columns),
          ]),
        );
      }
      ready('side');
    })
    .catch(failed(box));
}
