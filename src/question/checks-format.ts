import { z } from 'zod';

/** A check's regular expression as it runs: a plain string gets the `u` flag, an entry with flags gets exactly those. */
export function checkRegex(entry: string | { pattern: string; flags?: string | undefined }): RegExp {
  return typeof entry === 'string' ? new RegExp(entry, 'u') : new RegExp(entry.pattern, entry.flags ?? 'u');
}

/** A regular expression as a question writes it: a pattern, or `{ pattern, flags }` (JavaScript syntax). */
const regexEntry = z
  .union([
    z.string().min(1),
    z
      .object({
        pattern: z.string().min(1),
        flags: z
          .string()
          .regex(/^[imsu]*$/, 'flags may be i, m, s and u')
          .optional(),
      })
      .strict(),
  ])
  .superRefine((entry, context) => {
    try {
      checkRegex(entry);
    } catch (error) {
      context.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
    }
  });

/** An expectation on rows the SUT inserted into its scratch campaign. */
const insertedEntry = z
  .object({
    table: z.string().min(1),
    /** Columns that must hold a non-empty value in at least one inserted row. */
    nonEmpty: z.array(z.string().min(1)).default([]),
  })
  .strict();

/**
 * Deterministic checks of a question, read by `turnkit judge --checks`: narrow screens, not judges. Terms match
 * case-insensitively on word boundaries; regular expressions as written; effects as the run recorded them.
 */
export const checksSchema = z
  .object({
    /** Every term must occur in the response ("Go" matches "GO", not "ongoing"). */
    mustContain: z.array(z.string().trim().min(1)).default([]),
    /** No term may occur in the response. */
    mustNotContain: z.array(z.string().trim().min(1)).default([]),
    /** Every expression must match the response. */
    matches: z.array(regexEntry).default([]),
    /** No expression may match the response. */
    mustNotMatch: z.array(regexEntry).default([]),
    effects: z
      .object({
        /** Each entry: the SUT inserted at least one row of the table, with these columns non-empty. */
        inserted: z.array(insertedEntry).default([]),
        /** The SUT changed nothing outside its scratch campaign. */
        noOutsideChanges: z.boolean().default(false),
      })
      .strict()
      .default({ inserted: [], noOutsideChanges: false }),
  })
  .strict()
  .refine(
    (checks) =>
      checks.mustContain.length +
        checks.mustNotContain.length +
        checks.matches.length +
        checks.mustNotMatch.length +
        checks.effects.inserted.length >
        0 || checks.effects.noOutsideChanges,
    'declare at least one check',
  );

/** A question's deterministic checks. */
export type Checks = z.output<typeof checksSchema>;
/** A regular expression entry of a check. */
export type RegexEntry = Checks['matches'][number];
