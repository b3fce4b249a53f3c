import { passwordForms, withoutSecrets } from '../util/redact-password.js';
import type { SutContext } from './sut-request.js';

/** How much of a stderr line goes into an error message: a line, not a log. */
const LIMIT = 200;

/**
 * The line of a failed program's stderr that says why, secrets removed, at most about 200 characters: the last line
 * that reads as a message. Stack frames and the details after a crash are indented (Node's `    at ...` and
 * `  code: '...'`, Python's `  File ...`) and Node ends with `Node.js vNN`: the line before them names the error
 * (`Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pg' ...`). Undefined when stderr holds no text.
 */
export function stderrLastLine(
  stderr: string,
  context: Pick<SutContext, 'databaseUrl' | 'secrets'>,
): string | undefined {
  const clean = withoutSecrets(stderr, [...passwordForms(context.databaseUrl), ...(context.secrets ?? [])]);
  // Terminal colour codes are not part of the message.
  const lines = clean
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split(/\r?\n/)
    .map((line) => line.trimEnd());
  const texts = lines.filter((line) => line.trim() !== '');
  const message = texts.findLast((line) => !/^\s/.test(line) && !/^[}\])]+$/.test(line) && !/^Node\.js v\d/.test(line));
  const line = (message ?? texts.at(-1))?.trim();
  if (line === undefined) return undefined;
  return line.length <= LIMIT ? line : `${line.slice(0, LIMIT - 1)}…`;
}

/** The message of a command that exited non-zero: the code, and the last line of its stderr when it printed one. */
export function exitMessage(
  code: number | null,
  stderr: string,
  context: Pick<SutContext, 'databaseUrl' | 'secrets'>,
): string {
  const line = stderrLastLine(stderr, context);
  return line === undefined ? `exited with ${code}` : `exited with ${code}: ${line}`;
}
