import { z } from 'zod';

/** Node's timers hold at most 2^31 - 1 ms: a longer timeout would fire at once and fail every rep. */
const MAX_TIMEOUT_S = 2_147_483;

/** A SUT's timeout in seconds: positive, within what a timer can wait (every kind's `timeout`). */
export const sutTimeout = z
  .number()
  .positive()
  .max(MAX_TIMEOUT_S, `at most ${MAX_TIMEOUT_S} s (about 24 days), the longest a timer can wait`)
  .default(130);

/** The bytes a SUT's answer (and each output stream kept) may take by default. */
export const sutMaxOutput = z.number().int().positive().default(131_072);
