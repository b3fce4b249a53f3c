/** Tokens a model call used, as the API reported them. */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** A model's price in the config: currency units per million input and per million output tokens. */
export interface Price {
  input: number;
  output: number;
}

/** What calls spent: tokens, the cost of those whose cost is known, and how many calls had tokens but no price. */
export interface Spend {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum of the known costs; null when no call's cost is known. */
  cost: number | null;
  /** Calls that reported tokens but neither a cost nor a price for their model: their cost is not in `cost`. */
  unpriced: number;
}

/** One call's usage and cost as a rep record or a judge verdict keeps it (cost null: not known). */
export interface CallSpend {
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

/** Nothing spent. */
export const NO_SPEND: Spend = { calls: 0, inputTokens: 0, outputTokens: 0, cost: null, unpriced: 0 };

// Costs are sums of products of prices and token counts: rounded to 1e-9 so that a total reads as the sum of its
// parts (0.1 + 0.2 shows as 0.3) while staying far below any price's precision.
const round = (value: number): number => Math.round(value * 1e9) / 1e9;

/** The cost of a call's tokens at a price; undefined without a price. */
export function costOf(usage: Usage, price: Price | undefined): number | undefined {
  if (!price) return undefined;
  return round((usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000);
}

/** One call's spend: its tokens, and the cost it reported or its tokens' cost at the price. */
export function callSpend(usage: Usage | undefined, cost: number | undefined, price: Price | undefined): CallSpend {
  const tokens = usage ?? { inputTokens: 0, outputTokens: 0 };
  return { ...tokens, cost: cost ?? (usage ? costOf(usage, price) : undefined) ?? null };
}

/** The spend of many calls summed (none: nothing spent). */
export function sumSpend(calls: readonly (CallSpend | Spend | undefined)[]): Spend {
  let total: Spend = { ...NO_SPEND };
  for (const call of calls) if (call) total = addSpend(total, call);
  return total;
}

/** Two spends (or a spend and a call) added. */
export function addSpend(a: Spend, b: CallSpend | Spend): Spend {
  const bCalls = 'calls' in b ? b.calls : 1;
  const bUnpriced = 'unpriced' in b ? b.unpriced : b.cost === null && b.inputTokens + b.outputTokens > 0 ? 1 : 0;
  return {
    calls: a.calls + bCalls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cost: a.cost === null && b.cost === null ? null : round((a.cost ?? 0) + (b.cost ?? 0)),
    unpriced: a.unpriced + bUnpriced,
  };
}
