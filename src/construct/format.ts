import { z } from 'zod';
import type { IChange } from 'json-diff-ts';
import { FIXTURE_NAME, FIXTURE_NAME_RULE } from '../fixture/format.js';

/** The version tag every constructed fixture carries. */
export const CONSTRUCTED_FORMAT = 'turnkit.constructed/1';
/** File name of the constructed-fixture JSON Schema emitted next to constructed fixtures (for editors). */
export const CONSTRUCTED_SCHEMA_FILE = 'turnkit.constructed.schema.json';

/** One change of a json-diff-ts changeset: a key, its old and new value, or the changes below it. */
export const changeSchema: z.ZodType<IChange> = z.lazy(() =>
  z
    .object({
      type: z.enum(['ADD', 'UPDATE', 'REMOVE']),
      key: z.string(),
      embeddedKey: z.string().optional(),
      value: z.unknown().optional(),
      oldValue: z.unknown().optional(),
      changes: z.array(changeSchema).optional(),
    })
    .strict(),
) as unknown as z.ZodType<IChange>;

/** A constructed fixture: a base fixture pinned by hash plus a recorded diff confined to one upstream turn. */
export const constructedSchema = z
  .object({
    $schema: z.string().optional(),
    format: z.literal(CONSTRUCTED_FORMAT),
    name: z
      .string()
      .min(1)
      .regex(FIXTURE_NAME, FIXTURE_NAME_RULE)
      .refine((name) => !/^\.+$/.test(name), 'a name cannot be only dots'),
    /** Why this experiment exists: what the author suspects and what the change tests. */
    why: z.string().trim().min(1, 'say why this fixture exists'),
    base: z
      .object({
        /** The base fixture (captured or constructed), relative to this file's folder. */
        path: z.string().min(1),
        /** sha256 of the base file's bytes, hex. */
        sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits'),
      })
      .strict(),
    /** The upstream turn whose rows the changeset edits (before the base's input turn). */
    turn: z.number().int().min(1),
    /** json-diff-ts changeset from base to result; row arrays are keyed by primary key. */
    changeset: z.array(changeSchema),
  })
  .strict();

/** A constructed fixture as read from or written to a file. */
export type ConstructedFixture = z.output<typeof constructedSchema>;

/** The JSON Schema of the constructed-fixture format, for editors and other tools. */
export function constructedJsonSchema(): Record<string, unknown> {
  return {
    ...(z.toJSONSchema(constructedSchema, { unrepresentable: 'any', cycles: 'ref' }) as Record<string, unknown>),
    title: 'turnkit constructed fixture',
    $id: `https://turnkit.dev/schema/${CONSTRUCTED_FORMAT}.json`,
  };
}
