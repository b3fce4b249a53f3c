import { z } from 'zod';

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
          })
          .strict(),
        shared: z.array(tableName).default([]),
        exclude: z.array(tableName).default([]),
      })
      .strict(),
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
