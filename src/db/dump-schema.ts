import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { TurnkitError } from '../errors.js';
import { redactUrl, scrubSecret } from './url.js';

const run = promisify(execFile);

/**
 * The DDL of a database as `pg_dump --schema-only` prints it, minus turnkit's own schema and psql meta-commands
 * (`\restrict`, added by recent pg_dump releases), ready to run through a plain connection. The password travels
 * in the environment, never on the command line where `ps` shows it.
 */
export async function dumpSchema(
  url: string,
  environment: Readonly<Record<string, string | undefined>> = {},
): Promise<string> {
  const parsed = new URL(url);
  // The password may sit in the authority or in ?password=: either way it leaves the URL for the environment.
  const password = decodeURIComponent(parsed.password) || parsed.searchParams.get('password') || '';
  parsed.password = '';
  parsed.searchParams.delete('password');
  // The opener's environment (PATH to find pg_dump, libpq's PG* settings); db/ reads none of its own.
  const env = { ...environment, ...(password ? { PGPASSWORD: password } : {}) };
  try {
    const { stdout } = await run(
      'pg_dump',
      [
        '--schema-only',
        '--no-owner',
        '--no-privileges',
        '--no-comments',
        '--exclude-schema=turnkit',
        `--dbname=${parsed.toString()}`,
      ],
      { env, maxBuffer: 256 * 1024 * 1024 },
    );
    return stdout
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
  } catch (error) {
    const err = error as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') {
      throw new TurnkitError(
        'CONFIG',
        'strategy "database" copies the game schema with pg_dump, which is not on PATH: install the PostgreSQL client tools (the same major version as the server or newer)',
      );
    }
    const why = (err.stderr ?? err.message).trim().split('\n')[0] ?? '';
    throw new TurnkitError('DATABASE', `pg_dump of ${redactUrl(url)} failed: ${scrubSecret(why, url)}`);
  }
}

/** The same server URL pointing at another database. */
export function urlForDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}
