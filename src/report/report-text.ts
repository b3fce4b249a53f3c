import type { Interval } from '../stats/stats.js';
import type { ErrorsPolicy, ScreenCounts } from './screen-report.js';
import { formatTable, markdownTable } from '../util/text-table.js';

/** Plain text for a terminal, or Markdown for a pull request or a notebook. */
export type ReportStyle = 'text' | 'md';

/** A table renderer (text or Markdown). */
export type Table = typeof formatTable;

/** A style's table renderer, and its heading of a section (`## ` in Markdown, or `### ` for a subsection). */
export function styled(style: ReportStyle, level = '##'): { table: Table; heading: (text: string) => string } {
  return {
    table: style === 'md' ? markdownTable : formatTable,
    heading: (text) => (style === 'md' ? `${level} ${text}` : text),
  };
}

/** A number to `digits` decimals, or "-" when there is none. */
export function fixed(value: number | null | undefined, digits = 2): string {
  return value === null || value === undefined ? '-' : value.toFixed(digits);
}

/** An interval as `[low, high]` to two decimals, or "-" when there is none. */
export function span(interval: Interval | null | undefined): string {
  return interval ? `[${interval.low.toFixed(2)}, ${interval.high.toFixed(2)}]` : '-';
}

/** A p-value as printed: three decimals, "<0.001", or "-" when there is none. */
export function pValue(p: number | null): string {
  if (p === null) return '-';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** A difference to two decimals with its sign ("+" when positive; `zero` before an exact 0), or "-" when there is none. */
export function signed(delta: number | null, zero = ''): string {
  if (delta === null) return '-';
  return `${delta > 0 ? '+' : delta < 0 ? '-' : zero}${Math.abs(delta).toFixed(2)}`;
}

/** A rate with the pass/fail counts it is of, "0.50 (2/4)" (of `n` under the errors policy, when given), or "-". */
export function rateText(marks: { pass: number; fail: number; rate: number | null; n?: number | undefined }): string {
  return marks.rate === null ? '-' : `${marks.rate.toFixed(2)} (${marks.pass}/${marks.n ?? marks.pass + marks.fail})`;
}

/** A fixture's verdict as the report words it: "met (uncertain)", "no verdict". */
export function verdictText(fixture: { verdict: string; uncertain: boolean }): string {
  return `${fixture.verdict === 'none' ? 'no verdict' : fixture.verdict}${fixture.uncertain ? ' (uncertain)' : ''}`;
}

/** The SUT's median/p95 latency in whole ms, or "-" when there is none. */
export function latencyText(fixture: { latency: { median: number | null; p95: number | null } }): string {
  const { median, p95 } = fixture.latency;
  return median === null ? '-' : `${Math.round(median)}/${Math.round(p95 ?? 0)}`;
}

/** The words a rate's policy is shown with, beside every rate the report prints. */
export function policyWords(errors: ErrorsPolicy | undefined): string {
  return errors === 'fail' ? 'errors as fails' : 'errors excluded';
}

/** A screen's cell: passes/denominator and its rate, then what stayed out of the denominator. */
export function screenCell(counts: ScreenCounts): string {
  const outside = [
    ...(counts.unscored > 0 ? [`${counts.unscored} unscored`] : []),
    // Under `errors: fail` the errors are in the denominator, as fails.
    ...(counts.error > 0
      ? [`${counts.error} error${counts.denominator < counts.pass + counts.fail + counts.error ? '' : ' as fail'}`]
      : []),
    ...(counts.blank > 0 ? [`${counts.blank} blank`] : []),
  ];
  const rate = counts.rate === null ? '' : ` = ${counts.rate.toFixed(2)}`;
  return `${counts.pass}/${counts.denominator}${rate}${outside.length > 0 ? ` (${outside.join(', ')})` : ''}`;
}
