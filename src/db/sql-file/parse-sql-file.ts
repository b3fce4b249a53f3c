import { TurnkitError } from '../../errors.js';

/** One step of a SQL file: a statement to run as it is (two on one line go together), or a COPY FROM stdin and its data. */
export type SqlFileStep =
  | { kind: 'sql'; text: string; line: number; statements: number }
  | { kind: 'copy'; statement: string; data: string; line: number };

// psql meta-commands a schema file may hold that change nothing turnkit's loader needs: pg_dump's \restrict and
// \unrestrict (a guard against a server injecting meta-commands), and settings of psql's own output.
const HARMLESS = new Set(['restrict', 'unrestrict', 'set', 'unset', 'echo', 'pset', 'encoding', 'timing', 'qecho']);

/**
 * Splits a SQL file (a pg_dump output, a structure.sql) into what a connection can run without psql, one statement
 * at a time with the line it starts on (so that an error names its line), each COPY FROM stdin with its data lines up
 * to `\.`. Strings, quoted identifiers, dollar-quoted bodies and comments are followed, so a backslash line or a COPY
 * inside a function body is never misread. A psql meta-command other than the harmless ones is refused, naming its
 * line.
 */
export function parseSqlFile(text: string): SqlFileStep[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const steps: SqlFileStep[] = [];
  const scanner = new SqlScanner();
  let statementText = '';
  let statementStart = 1;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const number = index + 1;
    const between = withoutComments(statementText).trim() === '';
    if (between && scanner.atTop() && line.startsWith('\\')) {
      const command = /^\\([A-Za-z]+)/.exec(line)?.[1] ?? line.slice(1, 2);
      if (!HARMLESS.has(command)) {
        throw new TurnkitError(
          'BAD_INPUT',
          `line ${number}: psql meta-command \\${command} is not supported by turnkit db load (run the file with psql)`,
        );
      }
      continue;
    }
    if (between) {
      statementStart = number;
      statementText = '';
    }
    const ends = scanner.feed(`${line}\n`);
    if (ends === 0) {
      statementText += `${line}\n`;
      continue;
    }
    // What follows the line's last `;` begins the next statement (`CREATE TABLE a (x int); CREATE TABLE b (`).
    const rest = line.slice(scanner.lastEnd);
    statementText += `${line.slice(0, scanner.lastEnd)}\n`;
    if (/^\s*COPY\b[\s\S]*\bFROM\s+stdin\s*;\s*$/i.test(withoutComments(statementText))) {
      const data: string[] = [];
      let end = index + 1;
      for (; end < lines.length && lines[end] !== '\\.'; end++) data.push(`${lines[end]!}\n`);
      if (end >= lines.length) {
        throw new TurnkitError('BAD_INPUT', `line ${statementStart}: COPY ... FROM stdin has no closing \\. line`);
      }
      steps.push({ kind: 'copy', statement: statementText.trim(), data: data.join(''), line: statementStart });
      index = end;
    } else {
      steps.push({ kind: 'sql', text: statementText, line: statementStart, statements: ends });
    }
    statementText = withoutComments(rest).trim() === '' ? '' : `${rest}\n`;
    statementStart = number;
  }
  // A last statement without its semicolon runs too; comments and blank lines alone do not.
  if (withoutComments(statementText).trim() !== '')
    steps.push({ kind: 'sql', text: statementText, line: statementStart, statements: 1 });
  return steps;
}

function withoutComments(text: string): string {
  return text.replace(/--[^\n]*/g, '').replace(/\/\*[\s\S]*?\*\//g, '');
}

/** Follows SQL's lexical states across lines, counting the statements that end (`;` at the top level). */
class SqlScanner {
  statements = 0;
  /** Where, in the line last fed, its last top-level `;` ended (0 when none did). */
  lastEnd = 0;
  private state: 'top' | 'single' | 'double' | 'dollar' | 'block' = 'top';
  private tag = '';
  private depth = 0;
  private escapes = false;

  /** True outside any string, identifier, dollar quote or block comment. */
  atTop(): boolean {
    return this.state === 'top';
  }

  /** Reads a line (with its newline); returns how many statements ended in it. */
  feed(line: string): number {
    let ended = 0;
    this.lastEnd = 0;
    for (let at = 0; at < line.length; at++) {
      const char = line[at]!;
      const next = line[at + 1];
      switch (this.state) {
        case 'top':
          if (char === '-' && next === '-') return ended;
          if (char === '/' && next === '*') {
            this.state = 'block';
            this.depth = 1;
            at++;
          } else if (char === "'") {
            const prefix = line[at - 1];
            this.escapes = (prefix === 'E' || prefix === 'e') && !/[\w$]/.test(line[at - 2] ?? '');
            this.state = 'single';
          } else if (char === '"') this.state = 'double';
          else if (char === '$') {
            const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(line.slice(at));
            if (match && !/[\w$]/.test(line[at - 1] ?? '')) {
              this.tag = match[0];
              this.state = 'dollar';
              at += match[0].length - 1;
            }
          } else if (char === ';') {
            ended++;
            this.statements++;
            this.lastEnd = at + 1;
          }
          break;
        case 'single':
          if (this.escapes && char === '\\') at++;
          else if (char === "'") {
            if (next === "'") at++;
            else this.state = 'top';
          }
          break;
        case 'double':
          if (char === '"') {
            if (next === '"') at++;
            else this.state = 'top';
          }
          break;
        case 'dollar':
          if (char === '$' && line.startsWith(this.tag, at)) {
            at += this.tag.length - 1;
            this.state = 'top';
          }
          break;
        case 'block':
          if (char === '/' && next === '*') {
            this.depth++;
            at++;
          } else if (char === '*' && next === '/') {
            at++;
            if (--this.depth === 0) this.state = 'top';
          }
          break;
      }
    }
    return ended;
  }
}
