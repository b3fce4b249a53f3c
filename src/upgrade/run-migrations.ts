import { spawn } from 'node:child_process';
import type { LoadedConfig } from '../config/load.js';
import type { Db } from '../db/connect.js';
import { migrate, migrationsFolder } from '../db/migrate.js';
import { scrubSecret } from '../db/url.js';
import { TurnkitError } from '../errors.js';

// What a migration command may print before turnkit stops keeping it (its last lines say why it failed).
const OUTPUT_CAP = 64 * 1024;

/**
 * Runs the game's own migrations against a database: the command the config names (`game.migrate.command`, with
 * DATABASE_URL set to that database and the project folder as its working directory), or turnkit's `db migrate`
 * for kysely migrations.
 */
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
  const [program, ...args] = command as [string, ...string[]];
  const env = { ...db.env, DATABASE_URL: db.url };
  const output = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
    const child = spawn(program, args, {
      cwd: config.baseDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...(signal ? { signal } : {}),
    });
    let text = '';
    const keep = (chunk: Buffer) => {
      text = (text + chunk.toString('utf8')).slice(-OUTPUT_CAP);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new TurnkitError(
          'CONFIG',
          error.code === 'ENOENT'
            ? `game.migrate.command: ${program} not found`
            : `game.migrate.command: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => resolve({ code, text }));
  });
  if (output.code !== 0) {
    const last = output.text.trim().split('\n').filter(Boolean).at(-1) ?? '';
    throw new TurnkitError(
      'DATABASE',
      `game.migrate.command (${command.join(' ')}) exited with ${output.code ?? 'a signal'}: ${scrubSecret(last, db.url)}`,
    );
  }
}
