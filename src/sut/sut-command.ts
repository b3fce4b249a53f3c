import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { commandWords, killRunningProcesses } from '../util/process/bounded-process.js';
import { findProgram } from './find-program.js';
import type { SutAdapter } from './sut-adapter.js';
import { sutMaxOutput, sutTimeout } from './sut-fields.js';
/** A command SUT in a question: a program run per rep, the request on its stdin, the answer on its stdout. */
export const commandSutSchema = z
  .object({
    type: z.literal('command'),
    /** The program and its arguments; run without a shell. A string is split into words as a shell would (quotes keep spaces). */
    command: z.union([z.string().trim().min(1, 'name the program to run'), z.array(z.string().min(1)).min(1)]),
    /** Working folder of the process, relative to the project folder. */
    cwd: z.string().min(1).optional(),
    /** Extra environment variables (values may name others as ${NAME}; secrets stay out of the manifest). */
    env: z
      .record(
        z.string(),
        z.string().refine((value) => !value.includes('\0'), 'cannot hold a NUL byte'),
      )
      .optional(),
    /** Seconds before the process is killed and the rep recorded as an error. */
    timeout: sutTimeout,
    /** Bytes kept of stdout and of stderr each; more is an error (stdout) or cut (stderr). */
    maxOutput: sutMaxOutput,
  })
  .strict();

/** A command SUT's settings as a question holds them. */
export type CommandSutConfig = z.output<typeof commandSutSchema>;

/** A command SUT's settings with its paths resolved. */
export type CommandSut = CommandSutConfig & { cwd: string };

/** The command kind: `{ type: 'command', command, cwd?, env?, timeout, maxOutput }`. */
export const commandSutAdapter: SutAdapter<CommandSutConfig> = {
  type: 'command',
  schema: commandSutSchema,
  inFiles: true,
  // Every word of the command, and the value of an `--option=value` word (`--prompt=prompts/gm.md`).
  namedFiles: (sut) => ({
    cwd: sut.cwd ?? '.',
    words: commandWords(sut.command).flatMap((word) => {
      const value = /^-[^=]*=(.+)$/.exec(word)?.[1];
      return value === undefined ? [word] : [word, value];
    }),
  }),
  check(sut, place) {
    const cwd = resolve(place.projectDir, sut.cwd ?? '.');
    if (!existsSync(cwd))
      throw new TurnkitError('NOT_FOUND', `${place.at(['sut', 'cwd'])}: ${sut.cwd}: no such folder`);
    // `${NAME}` of a variable that is not set would become an empty string: a SUT without its key, silently.
    for (const [name, value] of Object.entries(sut.env ?? {})) {
      const unset = [...value.matchAll(/\$\{(\w+)\}/g)]
        .map((match) => match[1]!)
        .find((v) => place.env[v] === undefined);
      if (unset !== undefined)
        throw new TurnkitError(
          'BAD_INPUT',
          `${place.at(['sut', 'env', name])}: \${${unset}} is not set in turnkit's environment; set it, or write the value itself`,
        );
    }
    const program = commandWords(sut.command)[0]!;
    if (!findProgram(program, cwd, place.env.PATH))
      throw new TurnkitError('BAD_INPUT', `${place.at(['sut', 'command'])}: ${program}: command not found`);
  },
  async prepare(sut, place) {
    const resolved = { ...sut, cwd: resolve(place.projectDir, sut.cwd ?? '.') };
    const { runCommandSut } = await import('./sut-command-run.js');
    return (context) => runCommandSut(resolved, context);
  },
  // The variables it is given are judged by their names, as turnkit's own are.
  secrets: (sut, env) => ({ variables: expandEnv(sut.env ?? {}, env) }),
  describe(sut) {
    if (!sut.env) return { ...sut };
    // Literal values may be secrets: the manifest keeps references (`${NAME}`) and says a literal was set.
    const env = Object.fromEntries(
      Object.entries(sut.env).map(([name, value]) => [name, /^\$\{\w+\}$/.test(value) ? value : '<set>']),
    );
    return { ...sut, env };
  },
  label: (sut) => `command SUT "${(Array.isArray(sut.command) ? sut.command.join(' ') : sut.command).slice(0, 80)}"`,
};

/**
 * Kills every command SUT (and command player) still running, with all it started, and says how many. For a process
 * that is about to exit: a SUT in a group of its own would otherwise outlive it.
 */
export function killRunningSuts(): number {
  return killRunningProcesses();
}

/** Expands `${NAME}` in env values from turnkit's own environment, `from` (an unset name becomes empty). */
export function expandEnv(
  env: Record<string, string>,
  from: Readonly<Record<string, string | undefined>> = {},
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [
      name,
      value.replace(/\$\{(\w+)\}/g, (_all, variable: string) => from[variable] ?? ''),
    ]),
  );
}
