import { z } from 'zod';
import { checksSchema } from './checks-format.js';
import { knownRecordSchema } from './known-record-format.js';
import { hiddenSchema } from './hidden-format.js';
import { toolsSchema } from './tools-format.js';
import { MAX_REPS, TOO_MANY_REPS } from './rep-limits.js';
import { rolloutFields } from './rollout-format.js';
import type { commandSutSchema } from '../sut/sut-command.js';
import type { functionSutSchema } from '../sut/sut-function.js';
import type { httpSutSchema } from '../sut/sut-http.js';
import { sutKindSchemas } from '../sut/sut-kinds.js';
import type { moduleSutSchema } from '../sut/sut-module.js';
import type { SutFunction } from '../sut/sut-request.js';

/** A question id becomes a folder name under runs/: no separators or spaces. */
const QUESTION_ID = /^[\w.-]+$/;

const fixtureEntry = z.union(
  [
    z.string().min(1),
    z
      .object({
        /** A fixture or constructed fixture file, or a glob (relative to the project folder). */
        path: z.string().min(1),
        /** dev: used while improving the SUT; heldout: kept for the final check. Reported apart, never averaged. */
        tag: z.enum(['dev', 'heldout'], { error: 'expected "dev" or "heldout"' }).optional(),
        /** Screens (by name) that do not apply to this entry's fixtures: unscored there, never a pass. */
        skip: z.array(z.string().trim().min(1)).optional(),
      })
      .strict(),
  ],
  { error: 'expected a path, or { path, tag, skip } with tag "dev" or "heldout"' },
);

/** The longest question id: it names a folder, and file names have a limit (255 bytes with the stamp beside it). */
const MAX_ID_LENGTH = 100;

// The built-in kinds' settings, for the types below; the schemas themselves come from the SUT kinds' map, so that a
// kind registered there (sut/sut-kinds.ts) is one a question may name.
type FileSutSchema = typeof commandSutSchema | typeof moduleSutSchema | typeof httpSutSchema;
type ObjectSutSchema = FileSutSchema | typeof functionSutSchema;

/** The system under test: a command per rep, a JS/TS function, or an OpenAI-compatible chat endpoint. */
const sutSchema = z.lazy(() => sutKindSchemas().files) as unknown as z.ZodType<
  z.output<FileSutSchema>,
  z.input<FileSutSchema>
>;

/** A SUT of a question given as an object: a file's kinds, or a function (bare, or as `{ type: 'function', fn }`). */
const sutObjectSchema = z.preprocess(
  (value) => (typeof value === 'function' ? { type: 'function', fn: value } : value),
  z.lazy(() => sutKindSchemas().objects) as unknown as z.ZodType<z.output<ObjectSutSchema>, z.input<ObjectSutSchema>>,
);

/** A question file (`questions/ID.yaml` or `.json`). */
export const questionSchema = z
  .object({
    id: z
      .string()
      .regex(QUESTION_ID, 'use letters, digits, ".", "_" and "-" only')
      // "." and ".." are folders already (the runs folder, the project): a run would be written there.
      .refine((id) => !/^\.+$/.test(id), 'an id of dots only names a folder that exists: use a name')
      .refine((id) => id.length <= MAX_ID_LENGTH, `at most ${MAX_ID_LENGTH} characters (it names the run's folder)`),
    question: z.string().trim().min(1),
    rubric: z
      .object({
        path: z.string().min(1),
        /** The rubric's declared version: marks carry it, and comparisons warn when it differs. */
        version: z.union([z.string().min(1), z.number()]).transform(String),
      })
      .strict(),
    /** The pass rate each fixture must reach: pass / (pass + fail) >= target. */
    target: z.number().gt(0, 'must be above 0').lte(1, 'must be at most 1'),
    reps: z.number().int().min(1, 'at least 1 rep').max(MAX_REPS, TOO_MANY_REPS),
    fixtures: z.array(fixtureEntry).min(1, 'name at least one fixture'),
    sut: sutSchema,
    /** The case-file template: a Markdown file with placeholders (see the README). */
    caseFile: z.string().min(1),
    /** Deterministic checks, read by `turnkit judge --checks`. */
    checks: checksSchema.optional(),
    /** An errored rep: left out of every rate (`exclude`, the default) or counted as a failed task (`fail`). */
    errors: z.enum(['exclude', 'fail'], { error: 'expected "exclude" or "fail"' }).optional(),
    /** Known records with the result each screen must give (inline, or a YAML/JSON file beside the question). */
    knownRecords: z.union([z.string().min(1), z.array(knownRecordSchema)]).optional(),
    /** Tool checks beside `checks` (allowed, required, forbidden, order, effects), read by `judge --checks`. */
    tools: toolsSchema.optional(),
    /** Rows the player must not learn: their values may appear in no response and no tool call's arguments. */
    hidden: hiddenSchema.optional(),
    /**
     * Named facts of the campaign: read-only SQL (`$1` the root key) whose first column is the fact, read around each
     * SUT call; `alternatives`: SQL giving the values it could have held.
     */
    facts: z
      .record(
        z.string().regex(/^[A-Za-z][\w-]*$/, 'a fact name is letters, digits, "_" and "-", starting with a letter'),
        z.union([
          z.string().trim().min(1),
          z.object({ sql: z.string().trim().min(1), alternatives: z.string().trim().min(1).optional() }).strict(),
        ]),
      )
      .optional(),
    /** Rollouts (several turns per rep): turns, players, stopOn, transcriptChecks (see rollout-format.ts). */
    ...rolloutFields,
  })
  .strict();

/** A question given as an object (to the library): a file's, whose SUT may be a function of the caller's. */
export const questionObjectSchema = questionSchema.extend({ sut: sutObjectSchema });

/** A question, read from its file or given as an object. */
export type Question = z.output<typeof questionObjectSchema>;
/** A SUT as a library caller writes it: a file's kinds, a function, or `{ type: 'function', fn, timeout? }`. */
export type SutInput =
  | z.input<typeof sutSchema>
  | SutFunction
  | { type: 'function'; fn: SutFunction; timeout?: number | undefined };

/** A question as a library caller writes it (defaults may be left out). */
export type QuestionInput = Omit<z.input<typeof questionSchema>, 'sut'> & { sut: SutInput };
/** The SUT part of a question. */
export type SutConfig = Question['sut'];
