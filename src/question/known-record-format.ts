import { z } from 'zod';

/** A result a screen must give on a known record. */
const expectedMarkSchema = z.enum(['pass', 'fail', 'unscored'], {
  error: 'expected "pass", "fail" or "unscored"',
});

/** A tool call of a known record, as a SUT would report it. */
const knownToolCall = z
  .object({
    name: z.string().min(1),
    arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
    result: z.unknown().optional(),
    error: z.string().nullable().optional(),
  })
  .strict();

/**
 * A record whose right result is known, to test the question's checks themselves: a response, tool calls and
 * effects, and the result each named screen must give. `verify` and `run` refuse a question whose screens disagree.
 */
export const knownRecordSchema = z
  .object({
    /** What the record stands for, shown in messages. */
    about: z.string().optional(),
    /** The fixture the record is taken as a rep of (for screens' `applies` and a fixture's `skip`). */
    fixture: z.string().min(1).default('known'),
    response: z.string().nullable().default(''),
    toolCalls: z.array(knownToolCall).default([]),
    effects: z
      .object({
        /** Rows the SUT inserted, per table. */
        inserted: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))).default({}),
        /** Rows it updated, per table: a count, or the rows by key with the columns set (`{ key, set }`). */
        updated: z
          .record(
            z.string(),
            z.union([
              z.number().int().min(0),
              z.array(
                z.object({ key: z.record(z.string(), z.unknown()), set: z.record(z.string(), z.unknown()) }).strict(),
              ),
            ]),
          )
          .default({}),
        /** Rows it deleted, per table: a count, or their keys. */
        deleted: z
          .record(z.string(), z.union([z.number().int().min(0), z.array(z.record(z.string(), z.unknown()))]))
          .default({}),
      })
      .strict()
      .default({ inserted: {}, updated: {}, deleted: {} }),
    /** Rows changed outside the scratch campaign, as the run describes them (`table pk`). */
    outside: z.array(z.string()).default([]),
    /** Screen name to the result it must give; at least one. */
    expect: z
      .record(z.string().min(1), expectedMarkSchema)
      .refine((expect) => Object.keys(expect).length > 0, 'name at least one screen and its result'),
  })
  .strict();

/** A known record as the question holds it. */
export type KnownRecord = z.output<typeof knownRecordSchema>;

/** A file of known records beside a question: a list, or `{ records: [...] }`. */
export const knownRecordsFileSchema = z.union([
  z.array(knownRecordSchema),
  z.object({ records: z.array(knownRecordSchema) }).strict(),
]);
