import { z } from 'zod';
import { checksSchema } from '../question/checks-format.js';
import { hiddenSchema } from '../question/hidden-format.js';
import { toolsSchema } from '../question/tools-format.js';
import { spendSchema } from './spend-schema.js';

import { RUN_FORMAT } from './run-format.js';

export { RUN_FORMAT } from './run-format.js';

const fileHash = z.object({ path: z.string(), sha256: z.string() }).strict();
const machineSchema = z.object({ os: z.string(), arch: z.string(), cpu: z.string(), cpus: z.number().int() }).strict();

/** The manifest of a run: written first, before any rep, and updated when the run stops. */
export const manifestSchema = z
  .object({
    format: z.literal(RUN_FORMAT),
    status: z.enum(['running', 'complete', 'interrupted']),
    startedAt: z.string(),
    finishedAt: z.string().optional(),
    turnkit: z.string(),
    node: z.string(),
    /** The project's git commit, and whether the working tree had changes (absent outside git or without it). */
    git: z.object({ commit: z.string(), dirty: z.boolean() }).strict().optional(),
    /** The machine the run started on: OS and its release, architecture, CPU model and count. */
    machine: machineSchema.optional(),
    /** The files the SUT's settings name (a script, a prompt file), as they were when the run started. */
    sutFiles: z.array(fileHash).optional(),
    /**
     * The model ids the responses reported (their `model` field), each once in the order first seen: an http SUT's
     * over the run's reps, and each LLM judge's by its grader name, added when it judges.
     */
    models: z
      .object({
        sut: z.array(z.string()).optional(),
        judges: z.record(z.string(), z.array(z.string())).optional(),
      })
      .strict()
      .optional(),
    question: z
      .object({
        id: z.string(),
        text: z.string(),
        file: fileHash,
        target: z.number(),
        reps: z.number(),
        /** `errors: fail` in the question: an errored rep counts as a failed task (absent: left out of rates). */
        errors: z.enum(['exclude', 'fail']).optional(),
      })
      .strict(),
    rubric: z.object({ path: z.string(), version: z.string(), sha256: z.string() }).strict(),
    caseFileTemplate: fileHash,
    /** The question's deterministic checks as they were when the run started (what `judge --checks` applies). */
    checks: checksSchema.optional(),
    /** The question's tool checks and hidden rows as they were when the run started (`judge --checks` applies them). */
    tools: toolsSchema.optional(),
    hidden: hiddenSchema.optional(),
    /** A rollout question's turns per rep, who played, and its checks of the whole transcript (absent for one turn). */
    rollout: z
      .object({
        turns: z.number().int(),
        players: z.string(),
        /** Who played, pinned (src/rollout/player-identity.ts): runs of different players never compare as like. */
        player: z
          .object({
            type: z.string(),
            model: z.string().optional(),
            baseUrl: z.string().optional(),
            promptSha256: z.string().optional(),
            temperature: z.number().optional(),
            command: z.string().optional(),
            scriptSha256: z.string().optional(),
          })
          .strict()
          .optional(),
        stopOn: z.literal('fail').optional(),
        transcriptChecks: checksSchema.optional(),
      })
      .strict()
      .optional(),
    /** This run is one slice of a run split across machines (`--shard I/N`). */
    shard: z.object({ index: z.number().int(), count: z.number().int() }).strict().optional(),
    fixtures: z.array(
      z
        .object({
          name: z.string(),
          file: fileHash,
          tag: z.enum(['dev', 'heldout']).optional(),
          /** Screens the question skips for this fixture: unscored on its reps. */
          skip: z.array(z.string()).optional(),
          /** A constructed fixture's base, and its base's, down to the captured fixture. */
          bases: z.array(fileHash).optional(),
          /** `run --upgrade`: the upgraded copy the reps seeded (the file being behind the schema) and its migrations. */
          upgraded: z
            .object({ path: z.string(), sha256: z.string(), migrations: z.array(z.string()) })
            .strict()
            .optional(),
        })
        .strict(),
    ),
    /** The SUT as configured, with env values that are not ${NAME} references removed. */
    sut: z.record(z.string(), z.unknown()),
    database: z
      .object({ backend: z.enum(['embedded', 'postgres']), serverVersion: z.string(), strategy: z.string() })
      .strict(),
    concurrency: z.number(),
    /** Every rep in the order it was started (round by round, each round the other way round), per attempt. */
    order: z.array(z.object({ fixture: z.string(), rep: z.number(), attempt: z.number() }).strict()),
    /** Earlier attempts that --resume continued. */
    resumed: z
      .array(
        z
          .object({
            at: z.string(),
            reps: z.number(),
            concurrency: z.number(),
            strategy: z.string(),
            /** Where these reps ran, when it is not where the run started. */
            database: z
              .object({ backend: z.enum(['embedded', 'postgres']), serverVersion: z.string() })
              .strict()
              .optional(),
            /** The machine these reps ran on, when it is not the one the run started on. */
            machine: machineSchema.optional(),
            /** The SUT's files had changed and no rep had completed: `sutFiles` holds them as this resume found them. */
            sutFiles: z.literal('changed').optional(),
          })
          .strict(),
      )
      .optional(),
    /** What the SUT's calls spent over the run's reps (their latest attempts), when any reported usage or cost. */
    spend: z.object({ sut: spendSchema }).strict().optional(),
    /** The shard directories `turnkit merge` combined into this run, each with where and when it ran. */
    merged: z
      .array(
        z
          .object({
            dir: z.string(),
            shard: z.object({ index: z.number().int(), count: z.number().int() }).strict(),
            startedAt: z.string(),
            finishedAt: z.string().optional(),
            database: z
              .object({ backend: z.enum(['embedded', 'postgres']), serverVersion: z.string(), strategy: z.string() })
              .strict(),
            /** The machine the shard ran on. */
            machine: machineSchema.optional(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

/** A run's manifest. */
export type Manifest = z.output<typeof manifestSchema>;
