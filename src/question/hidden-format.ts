import { z } from 'zod';

/** Words in a run that reveal a long hidden value when they occur in this order (the default of `words`). */
const HIDDEN_RUN_WORDS = 5;

/**
 * Rows the player must not learn (`hidden:`): their values may appear in no response and no tool call's arguments,
 * a value as a whole phrase, a longer one as any `words` of its words in a row (matched as `checks` terms are).
 */
const hiddenRule = z
  .object({
    /** The screen's name (default `hidden-TABLE`). */
    name: z
      .string()
      .regex(/^[\w.-]+$/, 'use letters, digits, ".", "_" and "-" only')
      .optional(),
    table: z.string().min(1),
    /** Only rows whose columns hold these values (`{ is_secret: true }`); absent: every row of the table. */
    where: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    /** The columns whose values are hidden (a GM-only notes column, a secret's name and description). */
    columns: z.array(z.string().min(1)).min(1, 'name at least one column'),
    words: z.number().int().min(2).max(50).default(HIDDEN_RUN_WORDS),
  })
  .strict();

/** A question's hidden rows, each rule a screen. */
export const hiddenSchema = z.array(hiddenRule).min(1, 'name at least one table');

/** One rule of `hidden:`. */
export type HiddenRule = z.output<typeof hiddenRule>;
