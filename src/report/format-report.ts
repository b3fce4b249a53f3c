import { relative } from 'node:path';
import { shownInFolder, shownPath } from '../util/shown-path.js';
import type { Align } from '../util/text-table.js';
import type { FixtureReport, MarkCounts, Report, TagTotals } from './build-report.js';
import type { Comparison } from './compare-runs.js';
import { spendRows } from './format-spend.js';
import { consistencyLines } from '../stats/consistency.js';
import { formatSurvival } from './format-survival.js';
import { formatPlayers } from './format-players.js';
import { correctedSummary, trustLines } from './format-trust.js';
import { sourceLines } from './format-sources.js';
import { screenHints, screenLines } from './format-screens.js';
import {
  latencyText,
  policyWords,
  pValue,
  rateText,
  type ReportStyle,
  signed,
  span,
  styled,
  type Table,
  verdictText,
} from './report-text.js';

/** A p-value as the report prints it (the demo quotes one). */
export { pValue };

/** What a printed report holds. */
export interface ReportLayout {
  /**
   * Every section (marks by source, screens, what the target demands, consistency, cost, the question as a whole,
   * agreement). Without it the report fits a screen: the fixture tables, the comparisons, and one line per finding
   * that needs attention, then one line naming the sections left out.
   */
  full?: boolean;
}

/**
 * The report as lines: per tag a table of fixtures with its total, base pairs and a rollout's survival, a comparison
 * with another run; with `full`, every other section too (see ReportLayout).
 */
export function formatReport(
  report: Report,
  style: ReportStyle,
  comparison?: Comparison,
  layout: ReportLayout = {},
): string[] {
  const { table, heading } = styled(style);
  const lines: string[] = [];
  const title = `${report.question.id}: ${report.question.text}`;
  lines.push(style === 'md' ? `# ${title}` : title, '');
  const status = report.complete
    ? 'complete'
    : `${report.status}, ${report.fixtures.reduce((sum, fixture) => sum + fixture.notRun, 0)} rep(s) not run`;
  lines.push(
    `Run ${shownPath(report.dir)} (${status}${report.shard ? `, shard ${report.shard.index}/${report.shard.count}` : ''}); marks from ${marksShown(report)}; rubric version ${report.rubricVersion}; target ${report.target}, ${report.reps} reps per fixture.`,
    '',
  );

  // Each tag is its own table with its own total: dev and heldout are never pooled into one number.
  for (const totals of report.tags) {
    lines.push(heading(`${totals.tag} fixtures`), '');
    const rows = [
      fixtureHeader(report),
      ...report.fixtures.filter((fixture) => (fixture.tag ?? 'untagged') === totals.tag).map(fixtureRow),
      totalRow(totals),
    ];
    lines.push(...table(rows, FIXTURE_ALIGN), '');
  }
  // Reports built before the trust section (a test's hand-made one) have no `trust`.
  const summary = report.trust ? correctedSummary(report.trust, report.target) : undefined;
  if (summary) lines.splice(2, 0, summary.charAt(0).toUpperCase() + summary.slice(1), '');
  lines.push(...pairLines(report, table, heading));
  if (report.rollout) lines.push(...formatSurvival(report.rollout, style));
  // A section's heading and lines, or none when the run has nothing to show there.
  const headed = (title: string, body: string[]): string[] =>
    body.length > 0 ? [heading(title), '', ...body, ''] : [];
  const spend = spendRows(report);
  // The sections a compact report leaves out, each with its lines (empty: the run has nothing to show there).
  const sections = [
    { name: 'marks by source', lines: headed('Marks by source', sourceLines(report, table)) },
    { name: 'screens', lines: report.screens ? screenLines(report.screens, report.dir, table, heading) : [] },
    { name: 'what the target demands', lines: demandLines(report, table, heading) },
    { name: 'consistency', lines: headed('Consistency', consistencyLines(report, table)) },
    {
      name: 'tokens and cost',
      lines: headed(
        'Tokens and cost',
        spend.length > 0 ? table(spend, ['left', 'right', 'right', 'right', 'right']) : [],
      ),
    },
    {
      name: 'the question as a whole',
      lines: report.trust ? trustLines(report.trust, report.target, table, heading) : [],
    },
    { name: 'agreement', lines: agreementLines(report, table, heading) },
  ];
  if (layout.full) for (const section of sections) lines.push(...section.lines);
  const findings = [
    ...report.warnings.map((warning) => `warning: ${warning}`),
    ...(layout.full ? [] : [...noVerdictFindings(report), ...(report.screens ? screenHints(report.screens) : [])]),
  ];
  if (findings.length > 0) lines.push(...findings, '');
  if (comparison) lines.push(...formatComparison(comparison, style));
  const left = sections.filter((section) => section.lines.length > 0).map((section) => section.name);
  if (!layout.full && left.length > 0) {
    if (lines.at(-1) !== '') lines.push('');
    lines.push(`Also in the full report (--full): ${left.join(', ')}.`);
  }
  return trimEnd(lines);
}

// A fixture with no verdict, as a finding: nothing to compare with the target.
function noVerdictFindings(report: Report): string[] {
  return report.fixtures
    .filter((fixture) => fixture.verdict === 'none')
    .map(
      (fixture) =>
        `${fixture.fixture}: no verdict: no rep qualified for a rate (${fixture.na} na, ${fixture.error} error)`,
    );
}

/** Constructed fixtures against their bases: rates, delta and Fisher's p (none without pairs). */
function pairLines(report: Report, table: Table, heading: (text: string) => string): string[] {
  if (report.pairs.length === 0) return [];
  const rateOf = (name: string): string => rateText(report.fixtures.find((fixture) => fixture.fixture === name)!);
  const rows = [
    ['constructed', 'base', 'rates', 'delta', 'Fisher p'],
    ...report.pairs.map((pair) => [
      pair.constructed,
      pair.base,
      `${rateOf(pair.constructed)} vs ${rateOf(pair.base)}`,
      signed(pair.delta, '±'),
      pValue(pair.p),
    ]),
  ];
  return [
    heading('Constructed fixtures against their bases'),
    '',
    ...table(rows, ['left', 'left', 'left', 'right', 'right']),
    '',
  ];
}

/** What the target demands of the reps as reps are lost to na or error. */
function demandLines(report: Report, table: Table, heading: (text: string) => string): string[] {
  const row = (label: string, field: 'lost' | 'n' | 'passesNeeded' | 'failsTolerated'): string[] => [
    label,
    ...report.demands.map((demand) => String(demand[field])),
  ];
  return [
    heading(`What ${report.target} demands of ${report.reps} reps`),
    '',
    ...table(
      [
        row('reps lost to na or error', 'lost'),
        row('qualified reps', 'n'),
        row('passes needed', 'passesNeeded'),
        row('fails tolerated', 'failsTolerated'),
      ],
      ['left', 'right', 'right', 'right', 'right'],
    ),
    '',
  ];
}

/** Every marks file against the one it is measured against (none without agreements). */
function agreementLines(report: Report, table: Table, heading: (text: string) => string): string[] {
  if (report.agreements.length === 0) return [];
  const rows = [
    ['marks file', 'against', 'agreement', 'kappa', ''],
    ...report.agreements.map((entry) => [
      entry.file,
      entry.against,
      entry.matched === 0
        ? 'no pass/fail in common'
        : `${entry.agreed}/${entry.matched} = ${(entry.agreed / entry.matched).toFixed(3)}`,
      entry.kappa === null ? 'null' : entry.kappa.toFixed(3),
      entry.self ? 'self-agreement: the ceiling for any judge' : '',
    ]),
  ];
  return [heading('Agreement between graders'), '', ...table(rows, ['left', 'left', 'right', 'right', 'left']), ''];
}

/** The comparison with another run: per-fixture deltas and p-values, then every warning. */
export function formatComparison(comparison: Comparison, style: ReportStyle): string[] {
  const { table, heading } = styled(style);
  const lines = [heading(`Against ${shownPath(comparison.otherDir)}`), ''];
  const rows = [
    ['fixture', 'tag', 'here', 'there', 'delta', 'Fisher p'],
    ...comparison.fixtures.map((entry) => [
      `${entry.fixture}${entry.fixtureChanged ? ' (fixture changed)' : ''}`,
      entry.tag ?? '',
      rateText(entry.here),
      rateText(entry.there),
      signed(entry.delta, '±'),
      pValue(entry.p),
    ]),
  ];
  lines.push(...table(rows, ['left', 'left', 'right', 'right', 'right', 'right']), '');
  const paired = comparison.paired;
  if (paired && paired.test.strata > 0) {
    const t = paired.test;
    const interval = t.interval ? ` ${span(t.interval)}` : '';
    lines.push(
      `Paired by fixture over ${t.strata} fixture(s): pooled difference ${signed(t.difference, '±')}${interval} (clustered by fixture), Cochran-Mantel-Haenszel p ${pValue(t.p)}.`,
    );
    if (comparison.fixtures.length > 1)
      lines.push(
        `Holm-adjusted Fisher p per fixture (${comparison.fixtures.length} shown together): ${comparison.fixtures.map((entry, i) => `${entry.fixture} ${pValue(paired.holm[i] ?? null)}`).join(', ')}.`,
      );
    lines.push('');
  }
  if (comparison.players) lines.push(...formatPlayers(comparison.players, style), '');
  if (comparison.onlyHere.length > 0) lines.push(`Only in this run: ${comparison.onlyHere.join(', ')}`);
  if (comparison.onlyThere.length > 0) lines.push(`Only in the other run: ${comparison.onlyThere.join(', ')}`);
  for (const warning of comparison.warnings) lines.push(`warning: ${warning}`);
  return trimEnd(lines);
}

// The rate's header says how errored reps count in it (the question's `errors:` policy).
const fixtureHeader = (report: Report): string[] => [
  'fixture',
  'pass',
  'fail',
  'na',
  'error',
  'blank',
  `rate (${policyWords(report.errors)})`,
  '95% interval',
  'verdict',
  'passes needed/fails ok',
  'SUT ms p50/p95',
];
const FIXTURE_ALIGN: Align[] = ['left', ...Array<Align>(6).fill('right'), 'left', 'left', 'right', 'right'];

function fixtureRow(fixture: FixtureReport): string[] {
  return [
    fixture.fixture,
    ...counts(fixture),
    rateText(fixture),
    span(fixture.wilson),
    verdictText(fixture),
    `${fixture.passesNeeded}/${fixture.failsTolerated}`,
    latencyText(fixture),
  ];
}

function totalRow(totals: TagTotals): string[] {
  // A fixture with no qualified rep is none of met, missed and pending: counted apart, so the total still adds up.
  const none = totals.fixtures - totals.met - totals.missed - totals.pending;
  const verdicts = [
    `${totals.met} met`,
    `${totals.missed} missed`,
    ...(totals.pending > 0 ? [`${totals.pending} pending`] : []),
    ...(none > 0 ? [`${none} no verdict`] : []),
  ].join(', ');
  return [
    `total (${totals.fixtures} fixture${totals.fixtures === 1 ? '' : 's'})`,
    ...counts(totals),
    rateText(totals),
    span(totals.wilson),
    verdicts,
    '',
    '',
  ];
}

// The run's own marks file by its name; another file by its path.
function marksShown(report: Report): string {
  if (report.marksSources) return report.marksSources.files.map((file) => relative(report.dir, file)).join(', ');
  return shownInFolder(report.dir, report.marksFile);
}

function counts(marks: MarkCounts): string[] {
  return [marks.pass, marks.fail, marks.na, marks.error, marks.blank].map(String);
}

function trimEnd(lines: string[]): string[] {
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
