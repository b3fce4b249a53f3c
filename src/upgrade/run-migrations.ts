import type { LoadedConfig } from '../config/load.js';
import type { Db } from '../db/connect.js';
import { migrate, migrationsFolder } from '../db/migrate.js';
import { scrubSecret } from '../db/url.js';
import { TurnkitError } from '../errors.js';
import { runBounded } from '../util/process/bounded-process.js';
import { passwordForms, withoutSecrets } from '../util/redact-password.js';
import { visibleControls } from '../util/visible-controls.js';
import { inheritedEnv, secretValues } from '../sut/secret-names.js';
import { expandEnv } from '../sut/sut-command.js';

// What a migration command may print before turnkit stops keeping it (its last lines say why it failed).
const OUTPUT_CAP = 64 * 1024;

/** Runs the game's own migrations against a database: `game.migrate.command`, or turnkit's kysely migrations. */
export async function runGameMigrations(
  db: Db,
  config: Pick<LoadedConfig, 'game' | 'baseDir' | 'migrations'> & { database: LoadedConfig['database'] },
  signal?: AbortSignal,
): Promise<void> {
  const command = config.game.migrate?.command;
  if (!command) {
    await migrate(db, migrationsFolder(config));
    return;
  }
  await runMigrationCommand(db, config, command, 'game.migrate.command', signal);
}

/**
 * Runs one migration command of the game's (argv, never split on spaces) against a database, with DATABASE_URL set
 * to it and the project folder as its working directory; `place` names the config entry in its errors.
 */
export async function runMigrationCommand(
  db: Db,
  config: Pick<LoadedConfig, 'baseDir'> & { game?: Pick<LoadedConfig['game'], 'migrate'> },
  command: readonly string[],
  place: string,
  signal?: AbortSignal,
): Promise<void> {
  const [program] = command;
  // A migration may be long: a day. The environment a command SUT gets: no secret-named and no PG* variable (a
  // `psql` step would reach the database they name), unless game.migrate.env passes one by name.
  const parent = db.env ?? {};
  const run = await runBounded({
    argv: [...command],
    cwd: config.baseDir,
    env: { ...inheritedEnv(parent), ...expandEnv(config.game?.migrate?.env ?? {}, parent), DATABASE_URL: db.url },
    stdin: '',
    timeoutMs: 24 * 60 * 60 * 1000,
    maxStdout: OUTPUT_CAP,
    stdoutOverflow: 'cut',
    maxStderr: OUTPUT_CAP,
    killGraceMs: 2000,
    signal,
  });
  if (run.spawnError) {
    throw new TurnkitError(
      'CONFIG',
      run.spawnError.code === 'ENOENT' ? `${place}: ${program} not found` : `${place}: ${run.spawnError.message}`,
    );
  }
  // Stopped by its caller (Ctrl-C): the caller's reason, as any other aborted step gives it.
  if (run.stopped === 'aborted') throw signal?.reason ?? new TurnkitError('DATABASE', `${place}: stopped`);
  const output = { code: run.code, text: `${run.stdout}\n${run.stderr}` };
  if (output.code !== 0) {
    // Masked of every secret turnkit holds (the database's password, secret-named variables' values) and shown
    // inert: a migration's output is not turnkit's to trust.
    const last = withoutSecrets(lastErrorLine(output.text), [...passwordForms(db.url), ...secretValues(parent)]);
    throw new TurnkitError(
      'DATABASE',
      `${place} (${command.join(' ')}) exited with ${output.code ?? `signal ${run.signal ?? 'unknown'}`}: ${visibleControls(scrubSecret(last, db.url))}`,
    );
  }
}

// The line that says why a command failed: its last one, unless it printed a stack (Node's uncaught error: the
// message, its frames, the error's fields, a `Node.js v20` banner last): then the message above the first frame.
function lastErrorLine(text: string): string {
  const lines = text.split('\n').map((line) => line.trim());
  const frame = lines.findIndex((line) => /^at\s\S/.test(line));
  const before = frame > 0 ? lines.slice(0, frame).filter(Boolean).at(-1) : undefined;
  return before ?? lines.filter(Boolean).at(-1) ?? '';
}
