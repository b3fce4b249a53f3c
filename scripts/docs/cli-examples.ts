// Checks the `npx turnkit ...` command lines written in the documentation's code blocks against the commander
// program: each must name a command turnkit has, and every `--option` it passes must be one that command (or the
// program) takes. A renamed flag or command then fails test/unit/docs-examples.test.ts instead of a reader.
import type { Command, Option } from 'commander';
import { buildProgram } from '../../src/cli/program.js';

/** A command line of a page that does not match the CLI. */
export interface WrongExample {
  line: number;
  example: string;
  reason: string;
}

/** The `turnkit` command lines in a page's shell code blocks (`$ ` prompts and trailing comments removed). */
export function exampleLines(text: string): { line: number; args: string[] }[] {
  const found: { line: number; args: string[] }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const marker = /^\s*(`{3,})(\w*)/.exec(raw);
    if (marker) {
      fence = fence === undefined ? (marker[2] ?? '') : undefined;
      return;
    }
    if (fence === undefined || !['sh', 'bash', 'shell', ''].includes(fence)) return;
    const line = raw.replace(/^\s*\$\s+/, '').replace(/\s+#\s.*$/, '');
    for (const match of line.matchAll(/\bnpx turnkit((?:\s+[^\s|;&()]+)*)/g)) {
      // Quoted words are values (a --why text, a file name with spaces): drop them before splitting.
      const words = match[1]!
        .replace(/"[^"]*"|'[^']*'/g, 'VALUE')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      found.push({ line: index + 1, args: words });
    }
  });
  return found;
}

/** Checks every example of a page against the program; returns those that do not match. */
export async function wrongExamples(text: string): Promise<WrongExample[]> {
  const program = await buildProgram({ out: () => {}, err: () => {} }, ['node', 'turnkit']);
  const wrong: WrongExample[] = [];
  for (const { line, args } of exampleLines(text)) {
    const example = `npx turnkit ${args.join(' ')}`;
    let command: Command = program;
    let rest = args;
    // Global options may come before the command.
    while (rest[0]?.startsWith('-')) rest = rest.slice(takesValue(program, rest[0]) ? 2 : 1);
    for (;;) {
      const sub = command.commands.find((candidate) => candidate.name() === rest[0]);
      if (!sub) break;
      command = sub;
      rest = rest.slice(1);
    }
    if (command === program) {
      if (rest.length > 0 && !['--help', '--version', '-h', '-V'].includes(rest[0]!))
        wrong.push({ line, example, reason: `turnkit has no command ${JSON.stringify(rest[0])}` });
      continue;
    }
    if (command.commands.length > 0) {
      wrong.push({ line, example, reason: `turnkit ${command.name()} needs a subcommand` });
      continue;
    }
    for (const word of rest) {
      if (!word.startsWith('--')) continue;
      const flag = word.split('=')[0]!;
      if (flag === '--help') continue;
      const known = [...(command.options as Option[]), ...(program.options as Option[])].some(
        (option) => option.long === flag || option.long === flag.replace(/^--no-/, '--'),
      );
      if (!known) wrong.push({ line, example, reason: `turnkit ${command.name()} has no option ${flag}` });
    }
  }
  return wrong;
}

function takesValue(program: Command, flag: string): boolean {
  const option = (program.options as Option[]).find((candidate) => candidate.long === flag);
  return option ? option.required || option.optional : false;
}
