import { leanChecks, leanHidden, leanTools } from '../question/lean-formats.js';
import {
  array,
  boolean,
  nullable,
  number,
  object,
  oneOf,
  optional,
  record,
  string,
  unknown,
  type Shape,
} from '../util/lean-shape.js';
import { RUN_FORMAT } from './run-format.js';

// The lean shapes (util/lean-shape.ts) of what `turnkit report` reads from a run directory on every start: the
// manifest (manifest.ts's manifestSchema), a spend (spend-schema.ts) and a line of the screens file (screens-file.ts),
// rule for rule, without zod. test/unit/lean-shapes.test.ts holds each to its schema.

const count = number({ int: true, min: 0 });

/** spendSchema's lean shape: accepts exactly what the schema accepts. */
export const leanSpend: Shape = object({
  calls: count,
  inputTokens: count,
  outputTokens: count,
  cost: nullable(number({ min: 0 })),
  unpriced: count,
});

/** callSpendSchema's lean shape: accepts exactly what the schema accepts. */
export const leanCallSpend: Shape = object({
  inputTokens: count,
  outputTokens: count,
  cost: nullable(number({ min: 0 })),
});

const text = string();
const int = number({ int: true });
const fileHash = object({ path: text, sha256: text });
const machine = object({ os: text, arch: text, cpu: text, cpus: int });
const shard = object({ index: int, count: int });
const backend = oneOf('embedded', 'postgres');

/** manifestSchema's lean shape: what it accepts, the schema accepts and returns unchanged. */
export const leanManifest: Shape = object({
  format: oneOf(RUN_FORMAT),
  status: oneOf('running', 'complete', 'interrupted'),
  startedAt: text,
  finishedAt: optional(text),
  turnkit: text,
  node: text,
  git: optional(object({ commit: text, dirty: boolean })),
  machine: optional(machine),
  sutFiles: optional(array(fileHash)),
  models: optional(object({ sut: optional(array(text)), judges: optional(record(array(text))) })),
  question: object({
    id: text,
    text,
    file: fileHash,
    target: number(),
    reps: number(),
    errors: optional(oneOf('exclude', 'fail')),
  }),
  rubric: object({ path: text, version: text, sha256: text }),
  caseFileTemplate: fileHash,
  checks: optional(leanChecks),
  tools: optional(leanTools),
  hidden: optional(leanHidden),
  rollout: optional(
    object({
      turns: int,
      players: text,
      player: optional(
        object({
          type: text,
          model: optional(text),
          baseUrl: optional(text),
          promptSha256: optional(text),
          temperature: optional(number()),
          command: optional(text),
          scriptSha256: optional(text),
        }),
      ),
      stopOn: optional(oneOf('fail')),
      transcriptChecks: optional(leanChecks),
    }),
  ),
  shard: optional(shard),
  fixtures: array(
    object({
      name: text,
      file: fileHash,
      tag: optional(oneOf('dev', 'heldout')),
      skip: optional(array(text)),
      bases: optional(array(fileHash)),
      upgraded: optional(object({ path: text, sha256: text, migrations: array(text) })),
    }),
  ),
  sut: record(unknown),
  database: object({ backend, serverVersion: text, strategy: text }),
  concurrency: number(),
  order: array(object({ fixture: text, rep: number(), attempt: number() })),
  resumed: optional(
    array(
      object({
        at: text,
        reps: number(),
        concurrency: number(),
        strategy: text,
        database: optional(object({ backend, serverVersion: text })),
        machine: optional(machine),
        sutFiles: optional(oneOf('changed')),
      }),
    ),
  ),
  spend: optional(object({ sut: leanSpend })),
  merged: optional(
    array(
      object({
        dir: text,
        shard,
        startedAt: text,
        finishedAt: optional(text),
        database: object({ backend, serverVersion: text, strategy: text }),
        machine: optional(machine),
      }),
    ),
  ),
});

/** The screens file's line (screens-file.ts's rowSchema): accepts exactly what the schema accepts. */
export const leanScreenRow: Shape = object({
  fixture: text,
  rep: number({ int: true, min: 1 }),
  mark: oneOf('pass', 'fail', 'na', 'error'),
  screens: array(object({ screen: text, mark: oneOf('pass', 'fail', 'unscored', 'error'), reason: text })),
});
