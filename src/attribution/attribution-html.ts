import type { Variant } from './build-variants.js';
import { formatAttribution, RANKING_HEADER, rankingCells } from './format-attribution.js';
import type { SequentialOutcome } from './sequential-design.js';
import { escapeHtml } from '../util/escape-html.js';

/** What the attribution page shows. */
export interface AttributionPage {
  fixture: string;
  question: string;
  dir: string;
  outcome: SequentialOutcome;
  variants: readonly Variant[];
}

// Every text on the page is escaped: labels and names come from files an author or a game wrote.

/**
 * The ranking as a self-contained HTML page (no script, no fetch): the table the text report prints, one row per
 * variant, the significant ones marked, each with the constructed fixture that makes it, and the budget spent.
 */
export function attributionHtml(page: AttributionPage): string {
  const lines = formatAttribution(page.outcome);
  const header = [...RANKING_HEADER, 'fixture'];
  const rows = rankingCells(page.outcome).map((ranked, i) => {
    const row = page.outcome.ranking[i]!;
    const significant = page.outcome.significant.includes(row.label);
    const cells = [...ranked, page.variants.find((v) => v.label === row.label)?.name ?? ''];
    const tds = cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('');
    return `<tr${significant ? ' class="significant"' : ''}>${tds}</tr>`;
  });
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(`attribution: ${page.fixture}`)}</title>`,
    '<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}tr.significant{background:#fff3c4;font-weight:600}</style>',
    '</head><body>',
    `<h1>${escapeHtml(`Which upstream turn misleads the SUT: ${page.fixture}`)}</h1>`,
    `<p class="meta">${escapeHtml(`question ${page.question}; folder ${page.dir}`)}</p>`,
    `<p class="base">${escapeHtml(lines[0]!)}</p>`,
    '<table class="ranking">',
    `<thead><tr>${header.map((name) => `<th scope="col">${name}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('')}</tbody>`,
    '</table>',
    ...lines.slice(-2).map((line) => `<p>${escapeHtml(line)}</p>`),
    '</body></html>',
    '',
  ].join('\n');
}
