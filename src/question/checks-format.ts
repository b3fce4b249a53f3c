import { z } from 'zod';
import { checkRegex, declaresAnyCheck } from './check-regex.js';

/** A screen's own name: it names the screen's row in the report and its results in screens.checks.jsonl. */
export const screenName = z
  .string()
  .trim()
  .min(1)
  .max(80, 'at most 80 characters')
  .regex(/^[^,\n]+$/, 'no comma or line break');

/**
 * The fixtures a screen applies to (names, `*` matching any characters): on the others it is unscored, never a pass.
 * A fixture entry of the question may instead `skip` screens by name.
 */
const appliesList = z.array(z.string().trim().min(1)).min(1, 'name at least one fixture');

/** What every check may say about itself: its screen's name and the fixtures it applies to. */
const screenFields = { name: screenName.optional(), applies: appliesList.optional() };

/** A term list: the terms alone, or `{ name, terms, applies }`. */
const termList = z
  .union([
    z.array(z.string().trim().min(1)),
    z.object({ ...screenFields, terms: z.array(z.string().trim().min(1)).min(1, 'name at least one term') }).strict(),
  ])
  .default([]);

/**
 * A regular expression as a question writes it: a pattern, or `{ pattern, flags }` with `fields` beside them
 * (JavaScript syntax; a pattern that does not compile is refused at its place). Checks and tool rules share it.
 */
export function regexEntryWith<Fields extends z.ZodRawShape>(fields: Fields) {
  return z
    .union([
      z.string().min(1),
      z
        .object({
          pattern: z.string().min(1),
          flags: z
            .string()
            .regex(/^[imsu]*$/, 'flags may be i, m, s and u')
            .optional(),
          ...fields,
        })
        .strict(),
    ])
    .superRefine((entry, context) => {
      try {
        checkRegex(entry as string | { pattern: string; flags?: string | undefined });
      } catch (error) {
        context.addIssue({ code: 'custom', message: `not a regular expression: ${(error as Error).message}` });
      }
    });
}

/** A regular expression of a check: a pattern, or `{ pattern, flags, name, applies }`. */
const regexEntry = regexEntryWith(screenFields);

/** An expectation on rows the SUT inserted into its scratch campaign. */
const insertedEntry = z
  .object({
    table: z.string().min(1),
    /** Columns that must hold a non-empty value in at least one inserted row. */
    nonEmpty: z.array(z.string().min(1)).default([]),
    ...screenFields,
  })
  .strict();

/** A value a column of the expected state must hold: the value itself, or a pattern, a set, or any non-empty value. */
const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const valuePredicate = z.union([
  scalar,
  z.object({ matches: regexEntryWith({}) }).strict(),
  z.object({ oneOf: z.array(scalar).min(1, 'name at least one value') }).strict(),
  z.object({ nonEmpty: z.literal(true) }).strict(),
]);

/** How many rows: exactly this many, or at least `min` and at most `max`. */
const rowCount = z.union([
  z.number().int().min(0),
  z
    .object({ min: z.number().int().min(0).optional(), max: z.number().int().min(0).optional() })
    .strict()
    .refine((c) => c.min !== undefined || c.max !== undefined, 'give min, max or both')
    .refine((c) => c.min === undefined || c.max === undefined || c.min <= c.max, 'min is above max'),
]);

/**
 * A row the SUT must leave: with `key`, the row of that key (inserted, or updated with these columns set); without,
 * some inserted row. The other entries are columns and what they must hold.
 */
const expectedRow = z.object({ key: z.record(z.string(), scalar).optional() }).catchall(valuePredicate);

/** What one table must look like after the rep: `unchanged`, or counts of rows inserted, updated, deleted and rows. */
const tableExpectation = z.union([
  z.literal('unchanged'),
  z
    .object({
      inserted: rowCount.optional(),
      updated: rowCount.optional(),
      deleted: rowCount.optional(),
      rows: z.array(expectedRow).optional(),
      ...screenFields,
    })
    .strict(),
]);

/**
 * The campaign's expected state after the rep, from what the SUT changed. Volatile columns (`column`, or
 * `table.column`) never count as a change: serial keys, timestamps, text the game generates.
 */
const stateChecks = z
  .object({
    volatile: z.array(z.string().trim().min(1)).default([]),
    tables: z.record(z.string().min(1), tableExpectation).default({}),
    /** No table but those named under `tables` may change (`true`, or `{ name, applies }`). */
    onlyChanges: z.union([z.boolean(), z.object(screenFields).strict()]).default(false),
  })
  .strict();

/** A question's expected state (`checks.state`). */
export type StateChecks = z.output<typeof stateChecks>;
/** One table's expectation of `checks.state.tables`. */
export type TableExpectation = StateChecks['tables'][string];
/** What a column of an expected row must hold. */
export type ValuePredicate = z.output<typeof valuePredicate>;

/** A rule over one of the question's facts (see checksSchema.facts). */
const factRule = z
  .object({
    fact: z.string().min(1),
    mustState: z.boolean().default(false),
    mustNotContradict: z.boolean().default(true),
    ...screenFields,
  })
  .strict()
  .refine((rule) => rule.mustState || rule.mustNotContradict, 'give mustState or mustNotContradict');

/**
 * Deterministic checks of a question, read by `turnkit judge --checks`: narrow screens, not judges. Terms match
 * case-insensitively on word boundaries; regular expressions as written; effects as the run recorded them.
 */
export const checksSchema = z
  .object({
    /** Every term must occur in the response ("Go" matches "GO", not "ongoing"). */
    mustContain: termList,
    /** No term may occur in the response. */
    mustNotContain: termList,
    /** Every expression must match the response. */
    matches: z.array(regexEntry).default([]),
    /** No expression may match the response. */
    mustNotMatch: z.array(regexEntry).default([]),
    effects: z
      .object({
        /** Each entry: the SUT inserted at least one row of the table, with these columns non-empty. */
        inserted: z.array(insertedEntry).default([]),
        /** The SUT changed nothing outside its scratch campaign (`true`, or `{ name, applies }`). */
        noOutsideChanges: z.union([z.boolean(), z.object(screenFields).strict()]).default(false),
      })
      .strict()
      .default({ inserted: [], noOutsideChanges: false }),
    /** What the campaign must look like after the rep (see stateChecks). */
    state: stateChecks.optional(),
    /** Rules over the question's facts as read before the SUT call: `mustState`, `mustNotContradict` (default). */
    facts: z.array(factRule).optional(),
  })
  .strict()
  .refine(declaresAnyCheck, 'declare at least one check');

/** A question's deterministic checks. */
export type Checks = z.output<typeof checksSchema>;
/** A term list of a check, bare or named. */
export type TermList = Checks['mustContain'];
