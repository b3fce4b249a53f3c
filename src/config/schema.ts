import { z } from 'zod';
import { judgeSettingsSchema } from './judge-settings.js';
import { DEFAULT_SCRUB_KEY_ENV, envNameSchema, scrubSchema } from './scrub-schema.js';

const tableName = z.string().min(1, 'a table name is required');
const columnName = z.string().min(1, 'a column name is required');

/** The zod schema of `turnkit.config.ts` / `turnkit.config.json`. */
export const configSchema = z
  .object({
    database: z
      .object({
        /** A real Postgres server; when absent turnkit uses the embedded database. */
        url: z.string().min(1).optional(),
        embedded: z
          .object({
            /** Where PGlite keeps its files, relative to the config file. */
            dataDir: z.string().min(1).default('.turnkit/pgdata'),
            /** TCP port of the embedded server; 0 picks a free one. */
            port: z.number().int().min(0).max(65535).default(0),
          })
          .strict()
          .default({ dataDir: '.turnkit/pgdata', port: 0 }),
      })
      .strict()
      .default({ embedded: { dataDir: '.turnkit/pgdata', port: 0 } }),
    /** Folder of kysely migrations that create the game schema; the sample game's when absent. */
    migrations: z.string().min(1).optional(),
    game: z
      .object({
        root: z.object({ table: tableName, key: columnName }).strict(),
        turns: z
          .object({
            table: tableName,
            order: columnName,
            input: z.array(columnName).min(1, 'name at least one input column'),
            /**
             * Columns a response fills, for a SUT that only answers: in a rollout turnkit then writes each played turn's
             * row itself (order advanced, input and these columns set) when the SUT wrote none.
             */
            output: z.array(columnName).min(1, 'name at least one output column').optional(),
          })
          .strict(),
        shared: z.array(tableName).default([]),
        exclude: z.array(tableName).default([]),
      })
      .strict(),
    /** What capture scrubs: `table.column` (or `table.column:$.json.path`) to a transform, or `table` to a column map. */
    scrub: scrubSchema.default({}),
    /** The environment variable the CLI reads the scrub key from (the library is given the key). */
    scrubKeyEnv: envNameSchema.default(DEFAULT_SCRUB_KEY_ENV),
    /** The LLM judge `turnkit judge` and `turnkit demo` use when no --model or --judge is given. */
    judge: judgeSettingsSchema.partial().optional(),
    /** Case-file functions a question names as `caseFile: config:NAME` (a .ts or .js config only). */
    caseFiles: z
      .record(
        z.string(),
        z.custom<CaseFileFunction>((value) => typeof value === 'function', 'expected a function (context) => Markdown'),
      )
      .default({}),
    paths: z
      .object({
        fixtures: z.string().min(1).default('fixtures'),
        constructed: z.string().min(1).default('constructed'),
        questions: z.string().min(1).default('questions'),
        runs: z.string().min(1).default('runs'),
      })
      .strict()
      .default({ fixtures: 'fixtures', constructed: 'constructed', questions: 'questions', runs: 'runs' }),
  })
  .strict();

/** The parts of a fixture a case-file function reads (the whole fixture is passed; see the fixture format). */
export interface CaseFileFixture {
  name: string;
  input: { turn: number; values: Record<string, unknown> };
  tables: Record<
    string,
    { rows: readonly Record<string, unknown>[]; sharedRows?: readonly Record<string, unknown>[] | undefined }
  >;
}

/** What a case-file function is given: the fixture, its input turn and values, and the template renderer. */
export interface CaseFileContext {
  fixture: CaseFileFixture;
  turn: number;
  input: Record<string, unknown>;
  /** Renders a template with the placeholders of a case-file template file, for this fixture. */
  render(template: string): string;
}

/** A case file built in code: return the Markdown the SUT is given besides its database. */
export type CaseFileFunction = (context: CaseFileContext) => string | Promise<string>;

/** What a project writes in its config file (defaults may be left out). */
export type TurnkitConfigInput = z.input<typeof configSchema>;
/** A parsed config with every default filled in. */
export type TurnkitConfig = z.output<typeof configSchema>;
/** The game part of the config: root, turns, shared and excluded tables. */
export type GameConfig = TurnkitConfig['game'];

/** Declares a turnkit config with type checking; returns it unchanged. */
export function defineConfig(config: TurnkitConfigInput): TurnkitConfigInput {
  return config;
}
