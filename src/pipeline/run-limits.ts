import { TurnkitError } from '../errors.js';
import { shownPath } from '../util/shown-path.js';
import { sutKind } from '../sut/sut-kinds.js';
import type { SutConfig } from './question-format.js';
import type { RepRecord } from './rep-record.js';
import type { Price } from './spend.js';

/** The most reps per fixture a question (or `--reps`) may ask for. */
export const MAX_REPS = 10_000;
/** The most reps a run may hold, fixtures x reps. */
export const MAX_RUN_REPS = 100_000;

// Why there is a limit at all: a typo of a few zeros must be a message, not a process that eats memory until it dies.
const WHY = 'a run plans every rep before the first one starts, and keeps two files per rep and a row of marks.csv';

/** The message for a reps count above MAX_REPS. */
export const TOO_MANY_REPS = `at most ${MAX_REPS} reps per fixture (${WHY})`;

/** Refuses `--reps N` above the limit, before anything is read or planned (a usage error). */
export function checkRepsOption(reps: number | undefined): void {
  if (reps !== undefined && reps > MAX_REPS) throw new TurnkitError('USAGE', `--reps ${reps}: ${TOO_MANY_REPS}`);
}

/** Refuses a run of more than MAX_RUN_REPS reps; `where` names what set the reps (`--reps 5000` or the file's place). */
export function checkRunSize(fixtures: number, reps: number, where: string): void {
  const total = fixtures * reps;
  if (total <= MAX_RUN_REPS) return;
  throw new TurnkitError(
    'BAD_INPUT',
    `${where}: ${fixtures} fixtures x ${reps} reps = ${total} reps; at most ${MAX_RUN_REPS} per run (${WHY}): use fewer reps, or split the fixtures across questions`,
  );
}

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
