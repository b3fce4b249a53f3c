import { z } from 'zod';
import { checksSchema } from './checks-format.js';
import { MAX_REPS, TOO_MANY_REPS } from './run-limits.js';
import { rolloutFields } from './rollout-format.js';
import type { SutFunction } from '../sut/sut-request.js';

/** A question id becomes a folder name under runs/: no separators or spaces. */
export const QUESTION_ID = /^[\w.-]+$/;

const fixtureEntry = z.union(
  [
    z.string().min(1),
    z
      .object({
        /** A fixture or constructed fixture file, or a glob (relative to the project folder). */
        path: z.string().min(1),
        /** dev: used while improving the SUT; heldout: kept for the final check. Reported apart, never averaged. */
        tag: z.enum(['dev', 'heldout'], { error: 'expected "dev" or "heldout"' }).optional(),
      })
      .strict(),
  ],
  { error: 'expected a path, or { path, tag } with tag "dev" or "heldout"' },
);

/** The longest question id: it names a folder, and file names have a limit (255 bytes with the stamp beside it). */
const MAX_ID_LENGTH = 100;

/** Node's timers hold at most 2^31 - 1 ms: a longer timeout would fire at once and fail every rep. */
const MAX_TIMEOUT_S = 2_147_483;

// A SUT's timeout in seconds: positive, within what a timer can wait.
const sutTimeout = z
  .number()
  .positive()
  .max(MAX_TIMEOUT_S, `at most ${MAX_TIMEOUT_S} s (about 24 days), the longest a timer can wait`)
  .default(130);

const commandSut = z
  .object({
    type: z.literal('command'),
    /** The program and its arguments; run without a shell. A string is split on spaces. */
    command: z.union([z.string().trim().min(1, 'name the program to run'), z.array(z.string().min(1)).min(1)]),
    /** Working folder of the process, relative to the project folder. */
    cwd: z.string().min(1).optional(),
    /** Extra environment variables (values may name others as ${NAME}; secrets stay out of the manifest). */
    env: z
      .record(
        z.string(),
        z.string().refine((value) => !value.includes('\0'), 'cannot hold a NUL byte'),
      )
      .optional(),
    /** Seconds before the process is killed and the rep recorded as an error. */
    timeout: sutTimeout,
    /** Bytes kept of stdout and of stderr each; more is an error (stdout) or cut (stderr). */
    maxOutput: z.number().int().positive().default(131_072),
  })
  .strict();

const moduleSut = z
  .object({
    type: z.literal('module'),
    /** A .js/.mjs/.ts file exporting `(request, { db, databaseUrl }) => response`. */
    path: z.string().min(1),
    /** The export to call (default: the default export). */
    export: z.string().min(1).default('default'),
    timeout: sutTimeout,
    /** Bytes of the response (and of what the module logs, kept as its output's end); a longer answer is an error. */
    maxOutput: z.number().int().positive().default(131_072),
  })
  .strict();

const httpSut = z
  .object({
    type: z.literal('http'),
    /** An OpenAI-compatible base URL, such as http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1. */
    baseUrl: z.string().url(),
    model: z.string().min(1),
    /** The environment variable holding the API key (never the key itself). */
    apiKeyEnv: z.string().min(1).optional(),
    /** The system prompt; the case file and the player's input follow as the user message. */
    system: z.string().optional(),
    temperature: z.number().min(0).max(2).optional(),
    /** Seconds per attempt. */
    timeout: sutTimeout,
    /** Attempts after the first on a 429, a 5xx, a timeout or a lost connection, with exponential backoff. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Bytes of the answer's content; a longer one is an error (the body is not read past what it could take). */
    maxOutput: z.number().int().positive().default(131_072),
  })
  .strict();

/** The system under test: a command per rep, a JS/TS function, or an OpenAI-compatible chat endpoint. */
export const sutSchema = z.discriminatedUnion('type', [commandSut, moduleSut, httpSut]);

// A function in this process: only a question given as an object can hold one (a file cannot).
const functionSut = z
  .object({
    type: z.literal('function'),
    fn: z.custom<SutFunction>((value) => typeof value === 'function', 'expected a function'),
    timeout: sutTimeout,
    /** Bytes of the response; a longer answer is an error. */
    maxOutput: z.number().int().positive().default(131_072),
  })
  .strict();

/** A SUT of a question given as an object: a file's kinds, or a function (bare, or as `{ type: 'function', fn }`). */
export const sutObjectSchema = z.preprocess(
  (value) => (typeof value === 'function' ? { type: 'function', fn: value } : value),
  z.discriminatedUnion('type', [commandSut, moduleSut, httpSut, functionSut]),
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
