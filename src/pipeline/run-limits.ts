import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';
import { sutKind } from '../sut/sut-kinds.js';
import type { SutConfig } from '../question/question-format.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { Price } from '../model/spend.js';

// How a price is written in the config, for the messages that ask for one.
const PRICE_EXAMPLE = (model: string): string =>
  `"prices": { ${JSON.stringify(model)}: { "input": IN, "output": OUT } } (per million tokens)`;

/**
 * Refuses `--max-cost` up front when the SUT's cost can never be counted: an http SUT reports tokens, never a cost,
 * so without a price for its model in the config no rep would count toward the budget. Said before the database is
 * reached or a run directory made, so that nothing is spent on a guard that cannot hold.
 */
export function checkBudgetPrice(
  maxCost: number | undefined,
  prices: Readonly<Record<string, Price>>,
  sut: SutConfig,
  configFile: string | undefined,
  /** Where the question names the model (`q.yaml:7:10: $.sut.model`). */
  place: string,
): void {
  const model = sutKind(sut).pricedModel?.(sut);
  if (maxCost === undefined || model === undefined || prices[model] !== undefined) return;
  // With no config file yet, the place for prices is the one `turnkit init` writes.
  const where = configFile ? shownPath(configFile) : 'the config (there is none yet: turnkit init writes one)';
  throw new TurnkitError(
    'CONFIG',
    `${place}: --max-cost ${maxCost}: the SUT's model "${model}" has no price, so its cost cannot be counted; add ${PRICE_EXAMPLE(model)} to ${where}, or run without --max-cost`,
  );
}

/**
 * The price of a SUT's model from the config's prices, for a kind priced by its model (http); other kinds report
 * their cost.
 */
export function sutPrice(prices: Record<string, Price>, sut: SutConfig): Price | undefined {
  const model = sutKind(sut).pricedModel?.(sut);
  return model === undefined ? undefined : prices[model];
}

/**
 * Why a rep's SUT cost cannot be counted toward `--max-cost` (one line), or undefined when it can. A rep whose SUT
 * answered must have a known cost: tokens without a cost or a price, or an answer with neither usage nor cost, would
 * let the budget be passed unseen. A rep whose SUT never answered (a seed error, a crash with nothing reported) is
 * an errored rep, said as such, not a cost.
 */
export function uncountedCost(record: RepRecord, sut: SutConfig): string | undefined {
  if (record.spend ? record.spend.cost !== null : record.response === null) return undefined;
  const rep = `${record.fixture} rep ${record.rep}`;
  const adapter = sutKind(sut);
  const model = adapter.pricedModel?.(sut);
  if (model !== undefined)
    return record.spend
      ? `${rep}: the SUT's model "${model}" has no price; add ${PRICE_EXAMPLE(model)} to the config`
      : `${rep}: the SUT's endpoint (model "${model}") reported no usage, so its cost cannot be counted`;
  const what = record.spend ? 'tokens but no cost' : 'neither usage nor cost';
  return `${rep}: the ${adapter.label(sut)} reported ${what}; have it answer with its "cost" ({ "response": ..., "usage": ..., "cost": x }), as only an http SUT is priced from the config's "prices"`;
}
