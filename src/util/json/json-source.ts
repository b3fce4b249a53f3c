import { createRequire } from 'node:module';
import type { ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { TurnkitError } from '../../errors.js';
import { MAX_JSON_DEPTH, scanJson, type JsonScan } from './json-scan.js';
import { safeParseInWords } from '../zod-messages.js';

/** A 1-based line and column in a text file. */
export interface Position {
  line: number;
  column: number;
}

/** Converts a character offset to a 1-based line and column. */
export function positionAt(text: string, offset: number): Position {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Parses strict JSON; on a syntax error throws the first as `file:line:col: message` (later ones are its echoes).
 * `firstLine` is the line of the file the text starts on (a line of a JSON-lines file), so that messages name it.
 */
export function parseJsonText(text: string, file: string, firstLine = 1): unknown {
  // A byte order mark (editors on Windows add one) is accepted, as in marks.csv: as a space, so positions stay right.
  if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`;
  const place = (offset: number): string => {
    const { line, column } = positionAt(text, offset);
    return `${file}:${line + firstLine - 1}:${column}`;
  };
  let value: unknown;
  try {
    // JSON.parse is several times faster than a parser written in JavaScript: it reads every valid file.
    value = JSON.parse(text);
  } catch {
    // Too deep to say where the syntax error is (jsonc-parser recurses): the depth is the problem to name first.
    tooDeep(text, place);
    // jsonc-parser reports every error with its offset; JSON.parse on Node 20 often gives no position at all.
    const errors: ParseError[] = [];
    value = jsonc().parse(text, errors, {
      allowTrailingComma: false,
      disallowComments: true,
      allowEmptyContent: false,
    });
    // jsonc-parser, strict as set here, refuses what JSON.parse refuses; were it ever to accept one, its value stands.
    if (errors.length > 0)
      throw new TurnkitError(
        'BAD_INPUT',
        `${place(errors[0]!.offset)}: invalid JSON: ${describeParseError(errors[0]!)}`,
      );
  }
  const scan = scanJson(text);
  if (scan.duplicate)
    throw new TurnkitError(
      'BAD_INPUT',
      `${place(scan.duplicate.offset)}: invalid JSON: duplicate key ${JSON.stringify(scan.duplicate.key)}`,
    );
  if (scan.tooDeep) throwTooDeep(place, scan.tooDeep);
  return value;
}

/**
 * The value parseJsonText reads from a text, or undefined where it refuses the text (its message is not wanted): for
 * files whose readers take one they cannot read (torn by a crash, still being written) as absent rather than refuse it.
 */
export function lenientJson(text: string): unknown {
  try {
    return parseJsonText(text, '');
  } catch {
    return undefined;
  }
}

// jsonc-parser only for a file JSON.parse refuses, loaded then (synchronously: its main file is CommonJS): every
// command reads JSON through here, and loading it (a CommonJS module of seven files) cost each one its start-up.
const require = createRequire(import.meta.url);
const jsonc = (): typeof import('jsonc-parser') => require('jsonc-parser') as typeof import('jsonc-parser');

function tooDeep(text: string, place: (offset: number) => string): void {
  const found = scanJson(text).tooDeep;
  if (found) throwTooDeep(place, found);
}

function throwTooDeep(place: (offset: number) => string, found: NonNullable<JsonScan['tooDeep']>): never {
  // The path to where the limit is passed, cut after a few levels: the place is the value it starts in.
  const path = found.path.length > 8 ? `${formatJsonPath(found.path.slice(0, 8))}...` : formatJsonPath(found.path);
  throw new TurnkitError(
    'BAD_INPUT',
    `${place(found.offset)}: ${path}: nested more than ${MAX_JSON_DEPTH} levels deep (turnkit reads JSON up to ${MAX_JSON_DEPTH} levels)`,
  );
}

function describeParseError(error: ParseError): string {
  const code = jsonc().printParseErrorCode(error.error);
  // "CommaExpected" reads better as "comma expected".
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Formats a path into a JSON document as `$.tables["Odd Name"].rows[3]`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][\w$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** Turns zod issues into `file: $.path: message` lines. */
function formatZodIssues(file: string, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${file}: ${formatJsonPath(issue.path)}: ${issue.message}`);
}

/** Parses with a zod schema, throwing every issue as `file: $.path: message`. */
export function parseWithSchema<T extends z.ZodType>(schema: T, value: unknown, file: string): z.output<T> {
  const result = safeParseInWords(schema, value);
  if (!result.success) {
    const problems = formatZodIssues(file, result.error.issues);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  return result.data;
}
