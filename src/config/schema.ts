import { z } from 'zod';
import { judgeSettingsSchema } from './judge-settings.js';
import { DEFAULT_SCRUB_KEY_ENV, envNameSchema, scrubSchema } from './scrub-schema.js';

const tableName = z.string().min(1, 'a table name is required');
const columnName = z.string().min(1, 'a column name is required');

/** Which rows of a turn are the player's input: a role column and the values that mark input rows. */
const turnRoleSchema = z
  .object({
    column: columnName.describe("The row's role column (text or enum): ACTION, NARRATION, user, assistant..."),
    input: z
      .array(z.string().min(1))
      .min(1, 'name at least one input role value')
      .describe("Values of the role column that mark the player's input rows."),
    output: z
      .string()
      .min(1)
      .optional()
      .describe('The value turnkit writes on the output row it inserts for a SUT that only answers.'),
    labels: z
      .record(z.string(), z.string())
      .optional()
      .describe('Speaker labels for {{recent_turns:K}} by role value; default the value, input rows "Player".'),
    endsTurn: z
      .array(z.string().min(1))
      .min(1, 'name at least one role value')
      .optional()
      .describe(
        "Values of the role column whose row ends a turn (the narration): every input row since the last such row is one turn's input, for games that take every player's move and then narrate once. Absent: a turn starts at each input row.",
      ),
  })
  .strict()
  .refine((role) => !role.endsTurn || !role.output || role.endsTurn.includes(role.output), {
    message: 'with endsTurn, the output row turnkit writes must end the turn: add role.output to endsTurn',
    path: ['endsTurn'],
  });

/** The zod schema of `turnkit.config.ts` / `turnkit.config.json`. */
export const configSchema = z
  .object({
    database: z
      .object({
        url: z.string().min(1).optional().describe('A real Postgres server; the embedded database when absent.'),
        embedded: z
          .object({
            dataDir: z
              .string()
              .min(1)
              .default('.turnkit/postgres')
              .describe("The embedded server's folder (data, password), relative to the config."),
            port: z.number().int().min(0).max(65535).default(0).describe('Embedded server port; 0: any free one.'),
          })
          .strict()
          .default({ dataDir: '.turnkit/postgres', port: 0 })
          .describe('The embedded database (a PostgreSQL server on 127.0.0.1), used when no URL is given.'),
      })
      .strict()
      .default({ embedded: { dataDir: '.turnkit/postgres', port: 0 } })
      .describe('Which database turnkit connects to (--database-url and DATABASE_URL come first).'),
    migrations: z.string().min(1).optional().describe("The game's kysely migrations; else the sample's."),
    game: z
      .object({
        root: z
          .object({
            table: tableName.describe('The campaign table: one row is one campaign.'),
            key: columnName.describe("Its key column; --campaign takes this column's value."),
          })
          .strict()
          .describe('The root row of a campaign: what it reaches through foreign keys is owned.'),
        turns: z
          .object({
            table: tableName.describe('The turns table (a foreign-key path leads from it to the root table).'),
            order: columnName.describe('Integer, numeric or timestamp: turn N is the N-th row.'),
            input: z.array(columnName).min(1, 'name at least one input column').describe('What the player typed.'),
            output: z
              .array(columnName)
              .min(1, 'name at least one output column')
              .optional()
              .describe('Columns a response fills: a rollout writes the turn rows of a SUT that only answers.'),
            turn: columnName
              .optional()
              .describe("The game's own integer turn column: rows sharing its value are one turn (needs role)."),
            role: turnRoleSchema.optional().describe("Which rows of a turn are the player's input (a role column)."),
            keepInputChildren: z
              .array(tableName)
              .optional()
              .describe(
                "Tables whose rows that reference turn N's input rows stay in fixture N. By default such rows (and rows referencing them) are left out: the turn's own handler wrote them (an analysis of the player's move), so they are the outcome, not the state before the turn.",
              ),
          })
          .strict()
          .refine((turns) => turns.turn === undefined || turns.role?.endsTurn === undefined, {
            message: 'role.endsTurn groups rows by role; with a turn column, rows sharing it are one turn already',
            path: ['role', 'endsTurn'],
          })
          .refine((turns) => turns.turn === undefined || turns.role !== undefined, {
            message: "needs role: say which rows of a turn are the player's input (role.column, role.input)",
            path: ['turn'],
          })
          .refine(
            (turns) => turns.output === undefined || turns.role === undefined || turns.role.output !== undefined,
            {
              message: 'with role, needs role.output: the role value of the output row turnkit writes',
              path: ['output'],
            },
          )
          .describe('The turns table, its order and its input columns: what turn slicing cuts by.'),
        shared: z.array(tableName).default([]).describe('Captured for self-containment, never owned, never deleted.'),
        exclude: z.array(tableName).default([]).describe('Tables never captured (an audit log, say).'),
        references: z
          .record(
            z.string().regex(/^.+\..+$/, "a reference is named 'table.column'"),
            z.string().min(1, 'name the table (or table.column) the column refers to'),
          )
          .optional()
          .describe(
            "Columns holding another row's key with no foreign key: 'table.column' to 'table' (its primary key) or 'table.column'; owned, sliced and remapped like foreign keys. A key inside a json or jsonb column: 'table.column->key->key' (sliced and remapped; it makes no row owned).",
          ),
        turnColumns: z
          .record(z.string().min(1), columnName)
          .optional()
          .describe(
            'Owned tables with no foreign-key path to the turns table, to their integer turn column: rows whose value is N or more are left out of a fixture for turn N.',
          ),
        migrate: z
          .object({
            command: z
              .array(z.string().min(1))
              .min(1, 'name the program to run')
              .optional()
              .describe(
                "The game's own migration command, run with DATABASE_URL set (argv, never split on spaces); absent: turnkit's db migrate.",
              ),
            env: z
              .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name'), z.string())
              .optional()
              .describe(
                'Variables the migration commands get beside the environment a command SUT gets (secret-named and PG* variables left out); ${NAME} takes a variable of turnkit\'s environment (DJANGO_SECRET_KEY: "${DJANGO_SECRET_KEY}").',
              ),
            step: z
              .array(z.string().min(1))
              .min(1, 'name the program to run')
              .optional()
              .describe(
                "The game's command that applies the next one migration (e.g. npx knex migrate:up), run like command: turnkit upgrade steps through the migrations with it to find where a fixture captured before turnkit recorded migration states stood; absent with command: such fixtures need a schema snapshot.",
              ),
            table: z
              .string()
              .min(1)
              .optional()
              .describe("A migration table turnkit does not know ('schema.table'), read at capture."),
            column: columnName.optional().describe('The column of that table naming a migration (needs table).'),
          })
          .strict()
          .refine((migrate) => (migrate.table === undefined) === (migrate.column === undefined), {
            message: 'give table and column together',
            path: ['column'],
          })
          .optional()
          .describe('How the game migrates its schema: what turnkit upgrade runs, and where capture reads the state.'),
        unique: z
          .record(z.string().min(1), z.enum(['fresh', 'keep']))
          .optional()
          .describe(
            "Unique columns of owned tables ('table.column'): 'fresh' (the default) gives each scratch copy a new value of the same shape, 'keep' keeps the captured one (copies may collide).",
          ),
      })
      .strict()
      .describe('Your game: its campaign table, its turns, and which tables are shared or left out.'),
    scrub: scrubSchema.default({}).describe("What capture scrubs: 'table.column' (or a table) to a transform."),
    scrubKeyEnv: envNameSchema.default(DEFAULT_SCRUB_KEY_ENV).describe('Where the CLI reads the scrub key.'),
    judge: judgeSettingsSchema.partial().optional().describe('The judge of turnkit judge and demo without --model.'),
    prices: z
      .record(
        z.string().min(1),
        z
          .object({
            input: z.number().nonnegative().describe('Price of a million input (prompt) tokens.'),
            output: z.number().nonnegative().describe('Price of a million output (completion) tokens.'),
          })
          .strict()
          .describe("One model's price, by the model's name."),
      )
      .default({})
      .describe('Model prices (SUT and judges), per million tokens: the cost in reps, manifests, reports, --max-cost.'),
    caseFiles: z
      .record(
        z.string(),
        z.custom<CaseFileFunction>((value) => typeof value === 'function', 'expected a function (context) => Markdown'),
      )
      .default({})
      .describe('Case-file functions a question names as caseFile: config:NAME (.ts or .js config only).'),
    paths: z
      .object({
        fixtures: z.string().min(1).default('fixtures').describe('Where capture writes fixtures.'),
        constructed: z.string().min(1).default('constructed').describe('Where constructed fixtures are saved.'),
        questions: z.string().min(1).default('questions').describe('Where questions are kept.'),
        runs: z.string().min(1).default('runs').describe('Where turnkit run writes run directories.'),
      })
      .strict()
      .default({ fixtures: 'fixtures', constructed: 'constructed', questions: 'questions', runs: 'runs' })
      .describe("The project's folders, relative to the config file."),
  })
  .strict();

/** The parts of a fixture a case-file function reads (the whole fixture is passed; see the fixture format). */
interface CaseFileFixture {
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
