import type { Spend } from '../model/spend.js';
import type { Report } from './build-report.js';

/** The cells of a spend: tokens in/out and cost ("-" when unknown; the unpriced calls counted beside it). */
function spendCells(spend: Spend): string[] {
  if (spend.calls === 0) return ['-', '-'];
  const cost = spend.cost === null ? '-' : String(spend.cost);
  return [
    `${spend.inputTokens}/${spend.outputTokens}`,
    spend.unpriced > 0 ? `${cost} (${spend.unpriced} unpriced)` : cost,
  ];
}

/** The rows of the report's tokens-and-cost table; none when no SUT or judge call reported usage or a cost. */
export function spendRows(report: Report): string[][] {
  if (report.spend.total.calls === 0) return [];
  return [
    ['fixture', 'SUT tokens in/out', 'SUT cost', 'judge tokens in/out', 'judge cost'],
    ...report.fixtures.map((fixture) => [
      fixture.fixture,
      ...spendCells(fixture.spend.sut),
      ...spendCells(fixture.spend.judges),
    ]),
    ['total', ...spendCells(report.spend.sut), ...spendCells(report.spend.judges)],
  ];
}
