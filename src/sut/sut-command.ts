import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { type BoundedResult, commandWords, killRunningProcesses, runBounded } from '../util/process/bounded-process.js';
import { findProgram } from './find-program.js';
import type { SutAdapter } from './sut-adapter.js';
import { sutMaxOutput, sutTimeout } from './sut-fields.js';
import { exitMessage } from './stderr-last-line.js';
import { parseSutOutput, recordedTail, type SutContext, type SutOutcome } from './sut-request.js';
import { inheritedEnv } from './secret-names.js';

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
    const program = commandLine(sut)[0]!;
    if (!findProgram(program, cwd, place.env.PATH))
      throw new TurnkitError('BAD_INPUT', `${place.at(['sut', 'command'])}: ${program}: command not found`);
  },
  prepare(sut, place) {
    const resolved = { ...sut, cwd: resolve(place.projectDir, sut.cwd ?? '.') };
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
 * The program and arguments of a command SUT: an array as given, a string split into words as a shell would (quotes
 * keep spaces) without running one.
 */
export function commandLine(sut: Pick<CommandSut, 'command'>): string[] {
  return commandWords(sut.command);
}

/**
 * Kills every command SUT (and command player) still running, with all it started, and says how many. For a process
 * that is about to exit: a SUT in a group of its own would otherwise outlive it.
 */
export function killRunningSuts(): number {
  return killRunningProcesses();
}

/**
 * Runs a command SUT for one rep: a process of its own (and process group, so that a timeout also ends what it
 * started) with the scratch campaign in its environment and the request on stdin, which is closed at once. stdout
 * and stderr are each bounded; a nonzero exit, a signal, a timeout, too much output or an unreadable answer is an
 * error outcome with its cause and the tails of both streams, never a thrown exception.
 */
export async function runCommandSut(sut: CommandSut, context: SutContext): Promise<SutOutcome> {
  const argv = commandLine(sut);
  const started = performance.now();
  const env = {
    // Not turnkit's secrets (scrub key, judges' keys): only what sut.env names of them.
    ...inheritedEnv(context.env),
    ...expandEnv(sut.env ?? {}, context.env),
    DATABASE_URL: context.databaseUrl,
    TURNKIT_CAMPAIGN: context.request.campaign,
    TURNKIT_TURN: String(context.request.turn),
    TURNKIT_FIXTURE: context.request.fixture,
    TURNKIT_REP: String(context.request.rep),
  };
  const run = await runBounded({
    argv,
    cwd: sut.cwd,
    env,
    stdin: `${JSON.stringify(context.request)}\n`,
    timeoutMs: sut.timeout * 1_000,
    maxStdout: sut.maxOutput,
    stdoutOverflow: 'stop',
    maxStderr: sut.maxOutput,
    killGraceMs: 2_000,
    signal: context.quit,
  });
  const outcome = (result: Omit<SutOutcome, 'ms' | 'stdoutTail' | 'stderrTail'>): SutOutcome => ({
    ...result,
    stdoutTail: recordedTail(run.stdout, context),
    stderrTail: recordedTail(run.stderr, context),
    ms: performance.now() - started,
  });
  const program = argv[0];
  if (run.spawnError)
    return outcome({
      error: {
        cause: 'spawn',
        message:
          run.spawnError.code === 'ENOENT' ? `${program}: command not found` : `${program}: ${run.spawnError.message}`,
      },
    });
  const exit = { exitCode: run.code, signal: run.signal };
  if (run.stopped) return outcome({ error: STOPPED[run.stopped](sut), ...exit });
  if (run.signal) return outcome({ error: { cause: 'signal', message: `killed by ${run.signal}` }, ...exit });
  if (run.code !== 0)
    return outcome({ error: { cause: 'exit', message: exitMessage(run.code, run.stderr, context) }, ...exit });
  const parsed = parseSutOutput(run.stdout);
  return outcome('response' in parsed ? { ...parsed, ...exit } : { error: parsed.error, ...exit });
}

// The error of a command SUT turnkit stopped, by why it stopped it.
const STOPPED: Record<NonNullable<BoundedResult['stopped']>, (sut: CommandSut) => NonNullable<SutOutcome['error']>> = {
  timeout: (sut) => ({ cause: 'timeout', message: `no answer within ${sut.timeout} s` }),
  'output-too-large': (sut) => ({ cause: 'output-too-large', message: `stdout passed ${sut.maxOutput} bytes` }),
  aborted: () => ({ cause: 'signal', message: 'killed: turnkit quit' }),
};

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
