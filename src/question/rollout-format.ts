import { z } from 'zod';
import { checksSchema } from './checks-format.js';

/** The most turns a rollout may play per rep: each is a SUT call in one scratch campaign. */
const MAX_TURNS = 200;

/** One turn's player input as a question writes it: the text (the game's one input column) or a column map. */
const scriptedInput = z.union([z.string(), z.record(z.string(), z.unknown())], {
  error: 'expected the input text, or a map of input column to value',
});

const recordedPlayers = z.object({ type: z.literal('recorded') }).strict();

const scriptPlayers = z
  .object({
    type: z.literal('script'),
    /** Inputs for turns N+1, N+2, ... of every fixture (turn N plays the fixture's own input). */
    inputs: z.array(scriptedInput).optional(),
    /** The same per fixture name; a fixture listed here uses its own list instead of `inputs`. */
    byFixture: z.record(z.string(), z.array(scriptedInput)).optional(),
  })
  .strict()
  .refine((players) => players.inputs !== undefined || players.byFixture !== undefined, {
    message: 'give inputs (for every fixture) or byFixture',
  });

const simulatedPlayers = z
  .object({
    type: z.literal('simulated'),
    /** An OpenAI-compatible base URL, as the http SUT's. */
    baseUrl: z.string().url(),
    model: z.string().min(1),
    /** The environment variable holding the API key (never the key itself). */
    apiKeyEnv: z.string().min(1).optional(),
    /** Who the player is: the system prompt; the transcript so far follows as the user message. */
    persona: z.string().trim().min(1),
    temperature: z.number().min(0).max(2).optional(),
    timeout: z.number().positive().default(60),
  })
  .strict();

const commandPlayers = z
  .object({
    type: z.literal('command'),
    /** Run without a shell with the transcript on stdin as JSON; prints the next input (text or a JSON column map). */
    command: z.union([z.string().trim().min(1, 'name the program to run'), z.array(z.string().min(1)).min(1)]),
    cwd: z.string().min(1).optional(),
    timeout: z.number().positive().default(60),
  })
  .strict();

/** Where a rollout's inputs after its first turn come from: recorded (`capture --ahead`), script, model or command. */
const playersSchema = z.discriminatedUnion('type', [recordedPlayers, scriptPlayers, simulatedPlayers, commandPlayers]);

/** The rollout part of a question: absent (or `turns: 1`) keeps a rep to one turn. */
export const rolloutFields = {
  /** Turns per rep: the SUT plays turns N..N+K-1 in one scratch campaign. */
  turns: z.number().int().min(1, 'at least 1 turn').max(MAX_TURNS, `at most ${MAX_TURNS} turns`).optional(),
  /** Where the inputs of turns N+1.. come from (default: recorded). */
  players: playersSchema.optional(),
  /** `fail`: a rollout ends at the first turn whose checks fail. */
  stopOn: z.literal('fail', { error: 'the one value is "fail"' }).optional(),
  /** Checks of the whole transcript (every response joined), besides `checks` applied to each turn. */
  transcriptChecks: checksSchema.optional(),
  /** State tracking: at chosen turns, whether the response agrees with a fact as read before the SUT's call. */
  probes: z
    .array(
      z
        .object({
          fact: z.string().min(1),
          turns: z.array(z.number().int().min(1)).min(1).optional(),
          mustState: z.boolean().default(false),
          mustNotContradict: z.boolean().default(true),
        })
        .strict()
        .refine((probe) => probe.mustState || probe.mustNotContradict, 'give mustState or mustNotContradict'),
    )
    .optional(),
};

/** A probe of a rollout's state tracking (see rolloutFields.probes). */
export type ProbeRule = NonNullable<z.output<(typeof rolloutFields)['probes']>>[number];

/** Where a rollout's inputs come from. */
export type PlayersConfig = z.output<typeof playersSchema>;
/** One scripted input as written. */
export type ScriptedInput = z.output<typeof scriptedInput>;
