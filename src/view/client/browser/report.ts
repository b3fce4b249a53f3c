import type { RunView } from '../../view-data.js';
import { rateChart } from './charts.js';
import { renderDiff } from './diffs.js';
import { h, markdownBlock, section } from './dom.js';
import { renderAgreements, renderComparison, renderSurvival } from './report-sections.js';
import { renderScreens } from './screens.js';
import { type Cell, type Row, table } from './table.js';
import { latencyText, policyWords, pValue, rateText, signed, span, verdictText } from '../../../report/report-text.js';

/*
 * The page script's report: per tag a chart followed by the table it stands for; base pairs, what the target
 * demands, consistency, agreements, a comparison, warnings, constructed fixtures' diffs.
 */

type Report = RunView['report'];

// The rate's header says how errored reps count in it (the question's `errors:` policy).
const fixtureHeader = (r: Report): string[] => [
  ...['fixture', 'pass', 'fail', 'na', 'error', 'blank'],
  `rate (${policyWords(r.errors)})`,
  ...['95% interval', 'verdict', 'passes needed/fails ok', 'SUT ms p50/p95'],
];

// The counts, rate and interval a fixture's row and its tag's total both show.
function countCells(m: Report['fixtures'][number] | Report['tags'][number]): Cell[] {
  return [
    ...(['pass', 'fail', 'na', 'error', 'blank'] as const).map((k) => ({ k, text: m[k] })),
    { k: 'rate', text: rateText(m) },
    { k: 'interval', text: span(m.wilson) },
  ];
}

function fixtureCells(f: Report['fixtures'][number]): Cell[] {
  return [
    f.fixture,
    ...countCells(f),
    { k: 'verdict', text: verdictText(f) },
    { k: 'needed', text: `${f.passesNeeded}/${f.failsTolerated}` },
    { k: 'latency', text: latencyText(f) },
  ];
}

function totalCells(t: Report['tags'][number]): Cell[] {
  // A fixture with no verdict (no qualified rep) is none of met, missed or pending: counted apart.
  const none = t.fixtures - t.met - t.missed - t.pending;
  const verdicts = [
    `${t.met} met`,
    `${t.missed} missed`,
    ...(t.pending > 0 ? [`${t.pending} pending`] : []),
    ...(none > 0 ? [`${none} no verdict`] : []),
  ].join(', ');
  return [
    `total (${t.fixtures} fixture${t.fixtures === 1 ? '' : 's'})`,
    ...countCells(t),
    { k: 'verdict', text: verdicts },
    '',
    '',
  ];
}

/** A run's report, appended to root. */
export function renderReport(run: RunView, root: HTMLElement): void {
  const r = run.report;
  const notRun = r.fixtures.reduce((n, f) => n + f.notRun, 0);
  const status = r.complete ? 'complete' : `${r.status}, ${notRun} rep(s) not run`;
  const shard = r.shard ? `, shard ${r.shard.index}/${r.shard.count}` : '';
  const meta = `Run ${r.dir} (${status}${shard}); marks from ${r.marksFile}; rubric version ${r.rubricVersion}; target ${r.target}, ${r.reps} reps per fixture.`;
  root.appendChild(
    h('header', null, [
      h('h1', null, [h('span', { text: r.question.id }), ': ', h('span', { text: r.question.text })]),
      h('p', { class: 'meta', id: 'run-meta', text: meta }),
    ]),
  );
  // The rubric the reps were marked by, rendered from its Markdown; closed, as it is read once.
  if (run.rubricDoc)
    root.appendChild(
      h('details', { id: 'report-rubric' }, [
        h('summary', { text: `rubric (version ${r.rubricVersion})` }),
        markdownBlock(run.rubricDoc),
      ]),
    );
  for (const totals of r.tags) {
    const members = r.fixtures.filter((f) => (f.tag || 'untagged') === totals.tag);
    const rows: Row[] = members.map((f) => ({ attrs: { 'data-fixture': f.fixture }, cells: fixtureCells(f) }));
    rows.push({ attrs: { 'data-total': totals.tag }, cells: totalCells(totals) });
    const caption = `${totals.tag} fixtures: counts, rate, interval, verdict, latency`;
    root.appendChild(
      section({ class: 'tag', 'data-tag': totals.tag }, `${totals.tag} fixtures`, [
        rateChart(members, r.target, `chart-${totals.tag}`),
        table(caption, fixtureHeader(r), rows, { class: 'fixtures' }),
      ]),
    );
  }
  if (r.marksSources) root.appendChild(renderMarksSources(r.marksSources));
  if (r.screens) root.appendChild(renderScreens(r.screens));
  if (r.pairs.length > 0) root.appendChild(renderPairs(r));
  if (r.rollout) root.appendChild(renderSurvival(r.rollout, run));
  root.appendChild(renderDemands(r));
  root.appendChild(renderConsistency(r));
  if (run.agreements.length > 0) root.appendChild(renderAgreements(run.agreements));
  if (run.trust.lines.length > 0) root.appendChild(renderTrust(run.trust));
  if (run.heldout) root.appendChild(section({ id: 'heldout-looks' }, 'Held-out set', [h('p', { text: run.heldout })]));
  if (run.comparison) root.appendChild(renderComparison(run.comparison, run.playersText));
  if (r.warnings.length > 0)
    root.appendChild(
      section({ id: 'warnings' }, 'Warnings', [
        h(
          'ul',
          null,
          r.warnings.map((w) => h('li', { text: w })),
        ),
      ]),
    );
  const diffs = run.fixtures.filter((f) => f.diff !== null);
  if (diffs.length > 0)
    root.appendChild(section({ id: 'diffs' }, 'Constructed fixtures: the recorded diff', diffs.map(renderDiff)));
}

/** How many of each fixture's marks came from which marks file (`report --marks a,b`). */
function renderMarksSources(sources: NonNullable<Report['marksSources']>): HTMLElement {
  const files = sources.files.map((f) => f.split(/[\\/]/).pop() ?? f);
  const rows: Row[] = sources.fixtures.map((e) => ({
    attrs: { 'data-fixture': e.fixture },
    cells: [e.fixture, ...files.map((file) => String(e.sources.find((s) => s.file === file)?.marks ?? 0))],
  }));
  return section({ id: 'marks-sources' }, 'Marks by source', [table(null, ['fixture', ...files], rows)]);
}

/** The trust section as the text report has it, and the corrected verdict on its own line. */
function renderTrust(trust: RunView['trust']): HTMLElement {
  return section({ id: 'trust' }, 'Can I trust this number?', [
    trust.summary ? h('p', { id: 'corrected-verdict', text: trust.summary }) : null,
    h('pre', { class: 'trust', text: trust.lines.join('\n') }),
  ]);
}

function renderPairs(r: Report): HTMLElement {
  const rateOf = (name: string): string => rateText(r.fixtures.filter((f) => f.fixture === name)[0]!);
  const rows = r.pairs.map((p) => ({
    attrs: { 'data-pair': p.constructed },
    cells: [
      p.constructed,
      p.base,
      `${rateOf(p.constructed)} vs ${rateOf(p.base)}`,
      { k: 'delta', text: signed(p.delta, '±') },
      { k: 'p', text: pValue(p.p) },
    ],
  }));
  return section({ id: 'pairs' }, 'Constructed fixtures against their bases', [
    table(null, ['constructed', 'base', 'rates', 'delta', 'Fisher p'], rows),
  ]);
}

function renderDemands(r: Report): HTMLElement {
  return section({ id: 'demands' }, `What ${r.target} demands of ${r.reps} reps`, [
    table(
      null,
      ['reps lost to na or error', ...r.demands.map((d) => String(d.lost))],
      [
        { cells: ['qualified reps', ...r.demands.map((d) => String(d.n))] },
        { cells: ['passes needed', ...r.demands.map((d) => String(d.passesNeeded))] },
        { cells: ['fails tolerated', ...r.demands.map((d) => String(d.failsTolerated))] },
      ],
    ),
  ]);
}

// pass^k for k = 1, 2, 3, 5, 10, ... and the reps (as the text report shows them); undefined where k > qualified.
function renderConsistency(r: Report): HTMLElement {
  const most = Math.max(1, ...r.fixtures.map((f) => f.passK.length));
  let ks = [1, 2, 3, 5];
  for (let k = 10; k < most; k *= 10) ks.push(k);
  ks.push(most);
  ks = ks.filter((k, i) => k <= most && ks.indexOf(k) === i).sort((a, b) => a - b);
  const cell = (v: number | null | undefined): string => (v === null || v === undefined ? 'undefined' : v.toFixed(3));
  return section({ id: 'consistency' }, 'Consistency', [
    table(
      'pass^k: the chance that k reps drawn from the qualified ones all pass',
      ['fixture', ...ks.map((k) => `pass^${k}`)],
      r.fixtures.map((f) => ({
        attrs: { 'data-consistency': f.fixture },
        cells: [f.fixture, ...ks.map((k) => cell(f.passK[k - 1]))],
      })),
    ),
    h(
      'ul',
      null,
      r.tags.map((t) => {
        const c = t.consistency;
        const share = c.share === null ? '' : ` (${c.share.toFixed(2)})`;
        const text = `${t.tag}: ${c.allPassed} of ${c.of} fixture(s) with qualified reps passed every one${share}`;
        return h('li', { 'data-consistency-tag': t.tag, text });
      }),
    ),
  ]);
}
