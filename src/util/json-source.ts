import { parse, printParseErrorCode, visit, type ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { TurnkitError } from '../errors.js';

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

/** Parses strict JSON; on a syntax error throws the first as `file:line:col: message` (later ones are its echoes). */
export function parseJsonText(text: string, file: string): unknown {
  let value: unknown;
  try {
    // JSON.parse is several times faster than a parser written in JavaScript: it reads every valid file.
    value = JSON.parse(text);
  } catch {
    // jsonc-parser reports every error with its offset; JSON.parse on Node 20 often gives no position at all.
    const errors: ParseError[] = [];
    value = parse(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    // jsonc-parser, strict as set here, refuses what JSON.parse refuses; were it ever to accept one, its value stands.
    if (errors.length > 0) {
      const { line, column } = positionAt(text, errors[0]!.offset);
      throw new TurnkitError('BAD_INPUT', `${file}:${line}:${column}: invalid JSON: ${describeParseError(errors[0]!)}`);
    }
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate) {
    const { line, column } = positionAt(text, duplicate.offset);
    throw new TurnkitError('BAD_INPUT', `${file}:${line}:${column}: invalid JSON: duplicate key ${JSON.stringify(duplicate.key)}`);
  }
  return value;
}

/**
 * The first key an object of the text repeats. JSON.parse and jsonc-parser keep the last value silently, so a file
 * read in review would say one thing and do another.
 */
function firstDuplicateKey(text: string): { key: string; offset: number } | undefined {
  const open: Set<string>[] = [];
  let found: { key: string; offset: number } | undefined;
  visit(text, {
    onObjectBegin: () => {
      open.push(new Set());
    },
    onObjectEnd: () => {
      open.pop();
    },
    onObjectProperty: (key, offset) => {
      const keys = open.at(-1)!;
      if (keys.has(key)) found ??= { key, offset };
      keys.add(key);
    },
  });
  return found;
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
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
export function formatZodIssues(file: string, issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${file}: ${formatJsonPath(issue.path)}: ${issue.message}`);
}

/** Parses with a zod schema, throwing every issue as `file: $.path: message`. */
export function parseWithSchema<T extends z.ZodType>(schema: T, value: unknown, file: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const problems = formatZodIssues(file, result.error.issues);
    throw new TurnkitError('BAD_INPUT', problems[0]!, problems);
  }
  return result.data;
}
