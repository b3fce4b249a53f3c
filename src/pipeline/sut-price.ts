import type { SutConfig } from '../question/question-format.js';
import { sutKind } from '../sut/sut-kinds.js';
import type { Price } from '../model/spend.js';

// Apart from run-spend.ts, which the report reads: only a run prices its SUT, and the SUT kinds (their adapters, pg,
// the model clients) are a run's to load.

/**
 * The price of a SUT's model from the config's prices, for a kind priced by its model (http); other kinds report
 * their cost.
 */
export function sutPrice(prices: Record<string, Price>, sut: SutConfig): Price | undefined {
  const model = sutKind(sut).pricedModel?.(sut);
  return model === undefined ? undefined : prices[model];
}
