import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { TurnkitError } from '../../errors.js';
import { describeConnectError } from '../connect.js';
import { scrubSecret } from '../url.js';
import { parseSqlFile } from './parse-sql-file.js';

/** What a SQL file's load did. */
export interface SqlFileLoad {
  /** Statements run (COPYs included). */
  statements: number;
  /** Rows the file's COPY blocks loaded. */
  copied: number;
}

/**
 * Runs a SQL file's text in the database at `url`, in one transaction, on a connection of its own: a dump's
 * `SET search_path = ''` or `set_config(...)` ends with that session and never reaches another connection, and a
 * file that fails part-way leaves nothing behind. An error names the file and the line of the failing statement.
 */
export async function runSqlFile(url: string, text: string, file: string): Promise<SqlFileLoad> {
  let steps: ReturnType<typeof parseSqlFile>;
  try {
    steps = parseSqlFile(text);
  } catch (error) {
    if (error instanceof TurnkitError) throw new TurnkitError(error.code, `${file}: ${error.message}`);
    throw error;
  }
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new TurnkitError('DATABASE', `${file}: cannot connect: ${describeConnectError(error, url)}`);
  }
  let line = 1;
  try {
    await client.query('BEGIN');
    let statements = 0;
    let copied = 0;
    for (const step of steps) {
      line = step.line;
      if (step.kind === 'sql') {
        try {
          await client.query(step.text);
        } catch (error) {
          line = step.line + linesBefore(step.text, (error as { position?: string }).position);
          throw error;
        }
        statements += step.statements;
      } else {
        const stream = client.query(copyFrom(step.statement));
        await pipeline(Readable.from([step.data]), stream);
        copied += Number(stream.rowCount ?? 0);
        statements++;
      }
    }
    await client.query('COMMIT');
    return { statements, copied };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    const message = ((error as Error)?.message ?? String(error)).split('\n')[0] ?? '';
    throw new TurnkitError('DATABASE', `${file}:${line}: ${scrubSecret(message, url)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

// PostgreSQL's error position is a 1-based character offset into the text sent: the line it falls on, from 0;
// without one (an error of execution, not of parsing), the statement's first line that is not a comment.
function linesBefore(text: string, position: string | undefined): number {
  const at = Number(position);
  if (Number.isInteger(at) && at >= 1) return (text.slice(0, at - 1).match(/\n/g) ?? []).length;
  const index = text.split('\n').findIndex((line) => line.trim() !== '' && !line.trim().startsWith('--'));
  return Math.max(index, 0);
}
