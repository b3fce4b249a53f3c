import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { serializeDocument } from '../fixture/format.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { parseJsonText, parseWithSchema } from '../util/json/json-source.js';
import { HAND_WRITTEN_LIMIT, readInputText } from '../util/read-input.js';
import { shownPath } from '../util/shown-path.js';

/** The version tag of an attribution folder's `attribution.json`. */
const ATTRIBUTION_FORMAT = 'turnkit.attribution/1';
/** The file that says what an attribution folder is, how far it got, and (once done) its ranking. */
const ATTRIBUTION_FILE = 'attribution.json';

const neutraliserSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('drop') }).strict(),
  z.object({ kind: z.literal('text'), text: z.string() }).strict(),
  /** The author's patch files, by turn, relative to the project folder. */
  z.object({ kind: z.literal('patches'), files: z.record(z.string(), z.string()) }).strict(),
]);

/** What an attribution is and how far it got: written first, rewritten after each look and at the end. */
const attributionStateSchema = z
  .object({
    format: z.literal(ATTRIBUTION_FORMAT),
    /** The question as given, and the base fixture (relative to the project folder) with its bytes' sha256. */
    question: z.string(),
    fixture: z.object({ path: z.string(), sha256: z.string() }).strict(),
    turns: z.string(),
    neutraliser: neutraliserSchema,
    design: z
      .object({ repsPerLook: z.number().int().min(1), maxLooks: z.number().int().min(1), alpha: z.number() })
      .strict(),
    /** Each arm but the base: its label, turns, fixture name and constructed fixture (relative to this folder). */
    variants: z.array(
      z.object({ label: z.string(), turns: z.array(z.number().int()), name: z.string(), file: z.string() }).strict(),
    ),
    /** Each look's run directory, relative to this folder, in look order. */
    looks: z.array(z.string()),
    /** The ranking once the design stopped (attributionJson's shape). */
    outcome: z.unknown().optional(),
  })
  .strict();

/** An attribution folder's state as read from or written to `attribution.json`. */
export type AttributionState = z.output<typeof attributionStateSchema>;

/** Reads and checks an attribution folder's `attribution.json`; a folder without one is not an attribution. */
export async function readAttributionState(dir: string): Promise<AttributionState> {
  const file = join(dir, ATTRIBUTION_FILE);
  const shown = shownPath(file);
  if (!existsSync(file))
    throw new TurnkitError('NOT_FOUND', `${shownPath(dir)}: not an attribution folder (no ${ATTRIBUTION_FILE})`);
  const text = await readInputText(file, shown, HAND_WRITTEN_LIMIT);
  return parseWithSchema(attributionStateSchema, parseJsonText(text, shown), shown);
}

/** Writes the state atomically: a reader (or a resume after a kill) sees the old file or the new one. */
export async function writeAttributionState(dir: string, state: AttributionState): Promise<void> {
  await writeFileAtomic(join(dir, ATTRIBUTION_FILE), serializeDocument(state));
}
