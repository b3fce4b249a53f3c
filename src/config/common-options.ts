/** Options every command takes: where the config is and which database to use. */
export interface CommonOptions {
  /** `--config FILE`. */
  configPath?: string | undefined;
  /** `--database-url URL`: a real Postgres server instead of the embedded one. */
  databaseUrl?: string | undefined;
  /** Always the embedded database, ignoring `databaseUrl`, DATABASE_URL and the config (`turnkit demo`). */
  embedded?: boolean | undefined;
  /** Working directory (default: the process's). */
  cwd?: string | undefined;
  /** The environment (DATABASE_URL, a SUT's variables and API keys): the command line's is the process's. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}
