import type { Report } from '../../report/build-report.js';
import { rateText, verdictText } from '../../report/report-text.js';
import { escapeHtml } from '../../util/escape-html.js';

/**
 * The runs' summary tables as HTML, every text escaped, for the first response of the viewer: the page says what it
 * is before its script runs (or where none runs: a crawler, JavaScript turned off). The script draws the full page
 * over it.
 */
export function summaryHtml(reports: readonly Report[]): string {
  return reports
    .map((report, i) => {
      const header = ['fixture', 'tag', 'pass', 'fail', 'na', 'error', 'blank', 'rate', 'verdict'];
      const rows = report.fixtures.map((f) =>
        [
          f.fixture,
          f.tag ?? '',
          String(f.pass),
          String(f.fail),
          String(f.na),
          String(f.error),
          String(f.blank),
          rateText(f),
          verdictText(f),
        ]
          .map((cell, c) => (c === 0 ? `<th scope="row">${escapeHtml(cell)}</th>` : `<td>${escapeHtml(cell)}</td>`))
          .join(''),
      );
      return [
        `<section class="summary" id="summary-${i}">`,
        `<h1>${escapeHtml(report.question.id)}: ${escapeHtml(report.question.text)}</h1>`,
        `<p class="meta">Run ${escapeHtml(report.dir)}; marks from ${escapeHtml(report.marksFile)}; target ${report.target}, ${report.reps} reps per fixture.</p>`,
        '<table class="fixtures">',
        `<caption>${escapeHtml(report.question.id)}: rate per fixture</caption>`,
        `<thead><tr>${header.map((name) => `<th scope="col">${name}</th>`).join('')}</tr></thead>`,
        `<tbody>${rows.map((row) => `<tr>${row}</tr>`).join('')}</tbody>`,
        '</table>',
        '</section>',
      ].join('\n');
    })
    .join('\n');
}
