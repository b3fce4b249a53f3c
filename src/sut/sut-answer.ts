import type { Usage } from '../model/spend.js';

/** More tokens than any model call takes: a figure past it is a SUT's bug, which would swamp every total it joins. */
export const MAX_CALL_TOKENS = 1_000_000_000;
/** More than any one call costs, in the price's currency: the same guard for a reported cost. */
const MAX_CALL_COST = 1_000_000;

/** A token count one call may report: a whole number from 0 to MAX_CALL_TOKENS. */
export function plausibleTokens(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 && n <= MAX_CALL_TOKENS;
}

/**
 * Reads `usage` and `cost` from a SUT's answer object (`{ response, usage: { input_tokens, output_tokens }, cost }`);
 * an answer without them has none. A malformed one is an error message, so that a SUT's bug is not a silent zero.
 */
export function answerSpend(value: unknown): { usage?: Usage; cost?: number } | { error: string } {
  const answer = value as { usage?: unknown; cost?: unknown };
  const out: { usage?: Usage; cost?: number } = {};
  if (answer.usage !== undefined) {
    const usage = answer.usage as { input_tokens?: unknown; output_tokens?: unknown } | null;
    if (
      typeof usage !== 'object' ||
      usage === null ||
      !plausibleTokens(usage.input_tokens) ||
      !plausibleTokens(usage.output_tokens)
    )
      return {
        error: `"usage" must be { "input_tokens": n, "output_tokens": m } with whole numbers n, m from 0 to ${MAX_CALL_TOKENS}`,
      };
    out.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  }
  if (answer.cost !== undefined) {
    if (
      typeof answer.cost !== 'number' ||
      !Number.isFinite(answer.cost) ||
      answer.cost < 0 ||
      answer.cost > MAX_CALL_COST
    )
      return { error: `"cost" must be a number from 0 to ${MAX_CALL_COST}` };
    out.cost = answer.cost;
  }
  return out;
}
