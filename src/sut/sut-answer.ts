import type { Usage } from '../pipeline/spend.js';

/**
 * Reads `usage` and `cost` from a SUT's answer object (`{ response, usage: { input_tokens, output_tokens }, cost }`);
 * an answer without them has none. A malformed one is an error message, so that a SUT's bug is not a silent zero.
 */
export function answerSpend(value: unknown): { usage?: Usage; cost?: number } | { error: string } {
  const answer = value as { usage?: unknown; cost?: unknown };
  const out: { usage?: Usage; cost?: number } = {};
  if (answer.usage !== undefined) {
    const usage = answer.usage as { input_tokens?: unknown; output_tokens?: unknown } | null;
    const count = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
    if (typeof usage !== 'object' || usage === null || !count(usage.input_tokens) || !count(usage.output_tokens))
      return { error: '"usage" must be { "input_tokens": n, "output_tokens": m } with whole numbers n, m >= 0' };
    out.usage = { inputTokens: usage.input_tokens, outputTokens: usage.output_tokens };
  }
  if (answer.cost !== undefined) {
    if (typeof answer.cost !== 'number' || !Number.isFinite(answer.cost) || answer.cost < 0)
      return { error: '"cost" must be a number >= 0' };
    out.cost = answer.cost;
  }
  return out;
}
