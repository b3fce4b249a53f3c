import { z } from 'zod';
import type { CallSpend, Spend } from '../model/spend.js';

// Apart from spend.ts: the report sums spends on every start, and zod is the writers' and the full checks' to load.

/** The zod schema of a Spend, as the manifest and the report hold it. */
export const spendSchema = z
  .object({
    calls: z.number().int().nonnegative(),
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cost: z.number().nonnegative().nullable(),
    unpriced: z.number().int().nonnegative(),
  })
  .strict();

/** One call's usage and cost as a rep record or a judge verdict keeps it (cost null: not known). */
export const callSpendSchema = z
  .object({
    inputTokens: z.number().int().nonnegative(),
    outputTokens: z.number().int().nonnegative(),
    cost: z.number().nonnegative().nullable(),
  })
  .strict();

// The hand-written types of spend.ts are these schemas' outputs (checked here, where both are in view).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCall: Same<z.output<typeof callSpendSchema>, CallSpend> = true;
const sameSpend: Same<z.output<typeof spendSchema>, Spend> = true;
void sameCall;
void sameSpend;
