import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
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
    /** The program and its arguments; run without a shell. A string is split on spaces. */
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

/** The program and arguments of a command SUT: an array as given, a string split on spaces. */
export function commandLine(sut: Pick<CommandSut, 'command'>): string[] {
  return Array.isArray(sut.command) ? sut.command : sut.command.split(/\s+/).filter((part) => part !== '');
}

/** Process groups of the command SUTs running now (each SUT leads a group of its own: see `detached`). */
const runningGroups = new Set<number>();

/**
 * Kills every command SUT still running, with all it started (SIGKILL to each process group), and says how many.
 * For a process that is about to exit: a SUT in a group of its own would otherwise outlive it.
 */
export function killRunningSuts(): number {
  let killed = 0;
  for (const group of runningGroups) {
    try {
      process.kill(-group, 'SIGKILL');
      killed++;
    } catch {
      // Already gone.
    }
  }
  runningGroups.clear();
  return killed;
}

/**
 * Runs a command SUT for one rep: a process of its own (and process group, so that a timeout also ends what it
 * started) with the scratch campaign in its environment and the request on stdin, which is closed at once. stdout
 * and stderr are each bounded; a nonzero exit, a signal, a timeout, too much output or an unreadable answer is an
 * error outcome with its cause and the tails of both streams, never a thrown exception.
 */
export function runCommandSut(sut: CommandSut, context: SutContext): Promise<SutOutcome> {
  const [program, ...args] = commandLine(sut);
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
  return new Promise((resolve) => {
    const child = spawn(program!, args, { cwd: sut.cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const group = child.pid;
    if (group !== undefined) runningGroups.add(group);
    // Quitting kills the group at once, not after the timeout: nothing the SUT started may outlive the run.
    const onQuit = (): void => {
      failure ??= { cause: 'signal', message: 'killed: turnkit quit' };
      killGroup('SIGKILL');
    };
    let stdout = '';
    let stderr = '';
    let stdoutBytes = 0;
    let failure: SutOutcome['error'];
    let settled = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = (error: NonNullable<SutOutcome['error']>): void => {
      failure ??= error;
      killGroup('SIGTERM');
      setTimeout(() => killGroup('SIGKILL'), 2_000).unref();
      // A grandchild that left the group can hold the pipes open: the bound is hard, so stop waiting for them.
      setTimeout(() => settleFromPipes(child.exitCode, child.signalCode), 3_000).unref();
    };
    const timer = setTimeout(
      () => stop({ cause: 'timeout', message: `no answer within ${sut.timeout} s` }),
      sut.timeout * 1_000,
    );
    if (context.quit?.aborted) onQuit();
    else context.quit?.addEventListener('abort', onQuit, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutBytes += Buffer.byteLength(chunk);
      if (stdoutBytes > sut.maxOutput)
        return stop({ cause: 'output-too-large', message: `stdout passed ${sut.maxOutput} bytes` });
      stdout += chunk;
    });
    // stderr is a log: keep its end, bounded, and never fail the rep for its length.
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-sut.maxOutput);
    });
    child.stdin.on('error', () => {
      // A SUT that does not read its stdin closes the pipe early: not an error of the rep.
    });
    child.stdin.end(`${JSON.stringify(context.request)}\n`);
    const finish = (outcome: Omit<SutOutcome, 'ms' | 'stdoutTail' | 'stderrTail'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      context.quit?.removeEventListener('abort', onQuit);
      if (group !== undefined) runningGroups.delete(group);
      resolve({
        ...outcome,
        stdoutTail: recordedTail(stdout, context),
        stderrTail: recordedTail(stderr, context),
        ms: performance.now() - started,
      });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        error: {
          cause: 'spawn',
          message: error.code === 'ENOENT' ? `${program}: command not found` : `${program}: ${error.message}`,
        },
      });
    });
    const settleFromPipes = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      child.stdout.destroy();
      child.stderr.destroy();
      decide(code, signal);
    };
    // The SUT exited but something it started still holds stdout: read what arrived, shortly, and stop waiting.
    child.on('exit', (code, signal) => setTimeout(() => settleFromPipes(code, signal), 1_000).unref());
    child.on('close', (code, signal) => decide(code, signal));
    const decide = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (failure) {
        finish({ error: failure, exitCode: code, signal });
        return;
      }
      if (signal) {
        finish({ error: { cause: 'signal', message: `killed by ${signal}` }, exitCode: code, signal });
        return;
      }
      if (code !== 0) {
        finish({ error: { cause: 'exit', message: exitMessage(code, stderr, context) }, exitCode: code, signal });
        return;
      }
      const parsed = parseSutOutput(stdout);
      finish(
        'response' in parsed
          ? { ...parsed, exitCode: 0, signal: null }
          : { error: parsed.error, exitCode: 0, signal: null },
      );
    };
  });
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
