import { z } from 'zod';

// Apart from screens-file.ts, whose reader takes a line its lean shape (lean-shapes.ts) accepts without zod.

/** A line of the screens file (screens-file.ts's ScreenRow). */
export const screenRowSchema = z
  .object({
    fixture: z.string(),
    rep: z.number().int().min(1),
    mark: z.enum(['pass', 'fail', 'na', 'error']),
    screens: z.array(
      z
        .object({ screen: z.string(), mark: z.enum(['pass', 'fail', 'unscored', 'error']), reason: z.string() })
        .strict(),
    ),
  })
  .strict();
