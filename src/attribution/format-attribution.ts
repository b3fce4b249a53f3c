import type { SequentialOutcome } from './sequential-design.js';
import { formatTable } from '../util/text-table.js';

const percent = (x: number | undefined): string => (x === undefined ? '-' : `${Math.round(x * 100)}%`);
const signed = (x: number | undefined): string =>
  x === undefined ? '-' : `${x >= 0 ? '+' : '-'}${Math.round(Math.abs(x) * 100)} pts`;
const pValue = (p: number): string => (p < 0.001 ? '<0.001' : p.toFixed(3));

/** The ranking table's column names, as text and HTML show them. */
export const RANKING_HEADER = ['rank', 'variant', 'pass', 'rate', '95% interval', 'vs base', 'Holm p'] as const;

/** Each variant's row of the ranking table as the text report and the page show it, best first. */
export function rankingCells(outcome: SequentialOutcome): string[][] {
  return outcome.ranking.map((r, i) => [
    String(i + 1),
    r.label,
    `${r.pass}/${r.pass + r.fail}`,
    percent(r.rate),
    r.interval ? `${percent(r.interval.low)}-${percent(r.interval.high)}` : '-',
    signed(r.change),
    pValue(r.holmP),
  ]);
}

/** The ranking as text lines: one row per variant, best first, and the budget the design spent. */
export function formatAttribution(outcome: SequentialOutcome): string[] {
  const base = outcome.base;
  const header = [...RANKING_HEADER, ''];
  const rows = rankingCells(outcome).map((cells, i) => [
    ...cells,
    outcome.significant.includes(outcome.ranking[i]!.label) ? 'significant' : '',
  ]);
  const found =
    outcome.significant.length === 0
      ? 'No variant differs from the base at the level kept.'
      : `Neutralising ${outcome.significant.join(', ')} changes the pass rate (Holm p <= ${outcome.levelPerLook}).`;
  return [
    `base: ${base.pass}/${base.pass + base.fail} passed`,
    ...formatTable([header, ...rows]),
    found,
    `budget: ${outcome.repsSpent} reps over ${outcome.looks} look${outcome.looks === 1 ? '' : 's'}`,
  ];
}

/** The ranking as plain JSON data (no functions, no undefined): what `--json` prints. */
export function attributionJson(outcome: SequentialOutcome): unknown {
  return {
    base: outcome.base,
    looks: outcome.looks,
    repsSpent: outcome.repsSpent,
    levelPerLook: outcome.levelPerLook,
    significant: outcome.significant,
    ranking: outcome.ranking.map((r) => ({
      label: r.label,
      pass: r.pass,
      fail: r.fail,
      rate: r.rate ?? null,
      interval: r.interval ?? null,
      change: r.change ?? null,
      p: r.p,
      holmP: r.holmP,
    })),
  };
}
