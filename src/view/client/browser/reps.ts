import { toolCallsBlock } from './tool-calls.js';
import type { RepView, RunView } from '../../view-data.js';
import { clear, h, markdownBlock, section as titled } from './dom.js';
import { table } from './table.js';
import { rolloutBlock, turnSearchText } from './turns.js';

/*
 * The page script's rep list: every rep of a run filtered by fixture, by mark (in a chosen marks file) and by text,
 * shown a page at a time so that the DOM holds a bounded number of rows whatever the run's size.
 */

const PAGE_SIZE = 25;

// A rep's searchable text, lower-cased once per rep.
const searchText = new WeakMap<RepView, string>();

function repText(rep: RepView): string {
  let text = searchText.get(rep);
  if (text === undefined) {
    const parts = [
      rep.response || '',
      rep.error ? rep.error.message : '',
      rep.rollout ? turnSearchText(rep.rollout) : '',
    ];
    for (const m of rep.marks) if (m) parts.push(m[1]);
    text = parts.join('\n').toLowerCase();
    searchText.set(rep, text);
  }
  return text;
}

/**
 * A run's reps with their filters and pager, appended to root; `total` (the viewer, while the rest of a large run's
 * reps are still coming) says how many there are in all.
 */
export function renderReps(run: RunView, root: HTMLElement, total = run.reps.length): void {
  const state = { fixture: '', mark: '*', file: 0, text: '', page: 0 };
  const heading =
    total > run.reps.length
      ? `Reps (${total}; the first ${run.reps.length} shown while the rest load)`
      : `Reps (${total})`;
  const section = titled({ id: 'reps' }, heading);
  const fixtureSelect = h('select', { id: 'filter-fixture', 'aria-label': 'fixture' }, [
    h('option', { value: '', text: 'every fixture' }),
    ...run.fixtures.map((f, i) => h('option', { value: String(i), text: f.name })),
  ]);
  const fileSelect = h(
    'select',
    { id: 'filter-file', 'aria-label': 'marks file' },
    run.marksFiles.map((name, i) => h('option', { value: String(i), text: name })),
  );
  const markSelect = h(
    'select',
    { id: 'filter-mark', 'aria-label': 'mark' },
    ['*', 'pass', 'fail', 'na', 'error', 'blank'].map((m) =>
      h('option', { value: m, text: m === '*' ? 'any mark' : m }),
    ),
  );
  const search = h('input', {
    id: 'filter-text',
    type: 'search',
    placeholder: 'text in responses, errors, notes',
    'aria-label': 'text',
  });
  const count = h('p', { id: 'rep-count', 'aria-live': 'polite' });
  const list = h('div', { id: 'rep-list' });
  const prev = h('button', { type: 'button', id: 'page-prev', text: 'previous page' });
  const next = h('button', { type: 'button', id: 'page-next', text: 'next page' });
  section.appendChild(
    h('div', { class: 'filters' }, [
      h('label', null, ['fixture ', fixtureSelect]),
      h('label', null, ['mark ', markSelect]),
      h('label', null, ['in ', fileSelect]),
      h('label', null, ['text ', search]),
    ]),
  );
  section.appendChild(count);
  section.appendChild(list);
  section.appendChild(h('div', { class: 'pager' }, [prev, next]));
  root.appendChild(section);

  let matching: RepView[] = [];
  function filter(): void {
    const needle = state.text.toLowerCase();
    matching = run.reps.filter((rep) => {
      if (state.fixture !== '' && String(rep.f) !== state.fixture) return false;
      if (state.mark !== '*') {
        const m = rep.marks[state.file];
        const mark = m ? m[0] : '';
        if ((mark || 'blank') !== state.mark) return false;
      }
      return needle === '' || repText(rep).indexOf(needle) >= 0;
    });
    state.page = Math.min(state.page, Math.max(0, Math.ceil(matching.length / PAGE_SIZE) - 1));
    draw();
  }
  function draw(): void {
    clear(list);
    const start = state.page * PAGE_SIZE;
    const shown = matching.slice(start, start + PAGE_SIZE);
    const of = matching.length < run.reps.length ? ` matching (${run.reps.length} in all)` : '';
    count.textContent =
      matching.length === 0 ? 'no rep matches' : `reps ${start + 1}-${start + shown.length} of ${matching.length}${of}`;
    for (const rep of shown) list.appendChild(repCard(run, rep));
    prev.disabled = state.page === 0;
    next.disabled = start + PAGE_SIZE >= matching.length;
  }
  let timer: number | undefined;
  const refilter = (change: () => void) => () => {
    change();
    state.page = 0;
    filter();
  };
  fixtureSelect.addEventListener(
    'change',
    refilter(() => (state.fixture = fixtureSelect.value)),
  );
  markSelect.addEventListener(
    'change',
    refilter(() => (state.mark = markSelect.value)),
  );
  fileSelect.addEventListener(
    'change',
    refilter(() => (state.file = Number(fileSelect.value))),
  );
  search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(
      refilter(() => (state.text = search.value)),
      120,
    );
  });
  prev.addEventListener('click', () => {
    state.page--;
    draw();
  });
  next.addEventListener('click', () => {
    state.page++;
    draw();
  });
  filter();
}

function effectsTable(effects: NonNullable<RepView['effects']>): HTMLElement {
  const rows: { cells: string[] }[] = [];
  for (const kind of ['inserted', 'updated', 'deleted'] as const) {
    for (const name of Object.keys(effects[kind]).sort())
      rows.push({ cells: [kind, name, String(effects[kind][name])] });
  }
  if (rows.length === 0) return h('p', { text: 'The SUT changed nothing in its scratch campaign.' });
  const parts: HTMLElement[] = [
    table('What the SUT changed in its scratch campaign', ['change', 'table', 'rows'], rows, { class: 'effects' }),
  ];
  for (const name of Object.keys(effects.insertedRows || {}).sort()) {
    parts.push(
      h('details', null, [
        h('summary', { text: `inserted rows of ${name}` }),
        h('pre', { text: JSON.stringify(effects.insertedRows[name], null, 2) }),
      ]),
    );
  }
  return h('div', null, parts);
}

/** One rep as a card: its marks in each marks file, its error, its response or turns, what it changed, its case file. */
export function repCard(run: RunView, rep: RepView): HTMLElement {
  const fixture = run.fixtures[rep.f]!;
  const sut = rep.sutMs === null ? '' : ` \u00b7 SUT ${Math.round(rep.sutMs)} ms`;
  const card = h(
    'article',
    { class: `rep ${rep.status.replace(' ', '-')}`, 'data-rep': `${fixture.name}/${rep.rep}` },
    [h('h3', { text: `${fixture.name} rep ${rep.rep} \u00b7 ${rep.status}${sut}` })],
  );
  const marks = h('ul', { class: 'marks' });
  run.marksFiles.forEach((name, i) => {
    const m = rep.marks[i];
    marks.appendChild(
      h('li', null, [
        h('span', { class: 'file', text: `${name}: ` }),
        h('b', { class: 'mark', text: m?.[0] ? m[0] : 'blank' }),
        m?.[1] ? h('span', { class: 'note', text: ` \u2014 ${m[1]}` }) : null,
      ]),
    );
  });
  card.appendChild(marks);
  if (rep.error)
    card.appendChild(
      h('div', { class: 'error' }, [
        h('p', { text: `ERROR (${rep.error.stage}: ${rep.error.cause}): ${rep.error.message}` }),
        rep.stdoutTail
          ? h('details', null, [h('summary', { text: 'stdout (end)' }), h('pre', { text: rep.stdoutTail })])
          : null,
        rep.stderrTail
          ? h('details', null, [h('summary', { text: 'stderr (end)' }), h('pre', { text: rep.stderrTail })])
          : null,
      ]),
    );
  // A rollout's turns stand in for its response (the same text, turn by turn).
  if (rep.rollout) card.appendChild(rolloutBlock(run, rep.rollout, rep.turnMarks));
  else if (rep.response !== null) card.appendChild(h('pre', { class: 'response', text: rep.response }));
  const calls = toolCallsBlock(rep.toolCalls);
  if (calls) card.appendChild(calls);
  if (rep.status === 'not run')
    card.appendChild(h('p', { text: 'Not run: this rep has no record (turnkit run --resume finishes it).' }));
  if (rep.effects) card.appendChild(effectsTable(rep.effects));
  if (rep.outside && rep.outside.length > 0)
    card.appendChild(
      h(
        'ul',
        { class: 'outside' },
        rep.outside.map((line) => h('li', { text: `outside its campaign: ${line}` })),
      ),
    );
  // The case file is shared by the fixture's reps: it is kept once and put in the page only when opened.
  const details = h('details', { class: 'case' }, [h('summary', { text: 'case file' })]);
  details.addEventListener('toggle', () => {
    if (details.open && details.children.length === 1) details.appendChild(markdownBlock(fixture.caseFileDoc));
  });
  card.appendChild(details);
  return card;
}
