import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { killTagged, newProcessTag, PROCESS_TAG_VARIABLE } from './process-tag.js';

/** One run of a program with bounds: what to run, what it is given, and how far it may go. */
export interface BoundedRun {
  /** The program, then its arguments: each one word as given, never split again and never seen by a shell. */
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Written to its stdin, which is closed at once. */
  stdin: string;
  /** Milliseconds before the process and everything it started is stopped. */
  timeoutMs: number;
  /** Bytes of stdout kept. */
  maxStdout: number;
  /** Past `maxStdout`: `stop` kills it (an error), `cut` keeps the first bytes and lets it finish. */
  stdoutOverflow: 'stop' | 'cut';
  /** Characters of stderr kept: its end (a log, never an error for its length). */
  maxStderr: number;
  /** Between SIGTERM and SIGKILL when stopped for a timeout or its output (0: SIGKILL at once). */
  killGraceMs: number;
  /** Aborted: the process and everything it started are killed at once. */
  signal?: AbortSignal | undefined;
}

/** Starts `program` with `args` in a process group of its own, `stdin` written to it and closed, stdout and stderr piped. */
function spawnInGroup(
  program: string,
  args: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string | undefined>>; stdin: string },
): ChildProcessWithoutNullStreams {
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdin.on('error', () => {
    // A program that does not read its stdin closes the pipe early: not an error of the run.
  });
  child.stdin.end(options.stdin);
  return child;
}

/** How a bounded run ended: its output (bounded), its exit, and why it was stopped if it was. */
export interface BoundedResult {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why turnkit stopped it (the first reason only); absent when it ended by itself. */
  stopped?: 'timeout' | 'output-too-large' | 'aborted';
  /** The program could not be started (ENOENT: not found). */
  spawnError?: NodeJS.ErrnoException;
}

/** Process groups of the bounded runs running now (each leads a group of its own: see `detached`), with their tags. */
const runningGroups = new Map<number, string>();

/**
 * Kills every bounded run still running, with all it started (SIGKILL to each process group), and says how many.
 * For a process that is about to exit: a child in a group of its own would otherwise outlive it.
 */
export function killRunningProcesses(): number {
  let killed = 0;
  for (const [group, tag] of runningGroups) {
    try {
      process.kill(-group, 'SIGKILL');
      killed++;
    } catch {
      // Already gone.
    }
    killTagged(tag);
  }
  runningGroups.clear();
  return killed;
}

/**
 * The words of a command written as one string, as a shell would split them but without running one: spaces
 * separate words except inside single or double quotes or after a backslash, so `node "my player.js"` is two words.
 * Nothing is expanded ($VAR, globs, ~ stay as they are).
 */
export function commandWords(command: string | readonly string[]): string[] {
  if (typeof command !== 'string') return [...command];
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let at = 0; at < command.length; at++) {
    const char = command[at]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && /["\\]/.test(command[at + 1] ?? '')) word += command[++at]!;
      else word += char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '\\' && at + 1 < command.length) word = (word ?? '') + command[++at]!;
    else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Runs a program once in a process group of its own, so that a timeout, too much output or an abort ends it with
 * everything it started; stdout and stderr are bounded; the group is killed when the run settles, and so is every
 * process carrying the run's tag (process-tag.ts: one that left the group with setsid), so that nothing it left
 * behind outlives it. Never throws: a program that cannot start is `spawnError`.
 */
export function runBounded(run: BoundedRun): Promise<BoundedResult> {
  const [program, ...args] = run.argv;
  return new Promise((resolve) => {
    // Everything it starts inherits the tag, so what leaves the group (setsid, a daemon) is found and ended too.
    const tag = newProcessTag();
    const env = { ...run.env, [PROCESS_TAG_VARIABLE]: tag };
    const child = spawnInGroup(program!, args, { cwd: run.cwd, env, stdin: run.stdin });
    // The group is the child's pid; undefined when the spawn failed (then there is nothing to kill).
    const group = child.pid;
    if (group !== undefined) runningGroups.set(group, tag);
    let stdout = '';
    let stderr = '';
    let stdoutBytes = 0;
    let stopped: BoundedResult['stopped'];
    let settled = false;
    const killGroup = (signal: NodeJS.Signals): void => {
      if (group === undefined) return;
      try {
        process.kill(-group, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = (why: NonNullable<BoundedResult['stopped']>): void => {
      stopped ??= why;
      if (run.killGraceMs <= 0) killGroup('SIGKILL');
      else {
        killGroup('SIGTERM');
        setTimeout(() => killGroup('SIGKILL'), run.killGraceMs).unref();
      }
      // A grandchild that left the group can hold the pipes open: the bound is hard, so stop waiting for them.
      setTimeout(() => settleFromPipes(child.exitCode, child.signalCode), run.killGraceMs + 1_000).unref();
    };
    // Aborting kills the group at once, not after the timeout.
    const onAbort = (): void => {
      stopped ??= 'aborted';
      killGroup('SIGKILL');
    };
    const timer = setTimeout(() => stop('timeout'), run.timeoutMs);
    if (run.signal?.aborted) onAbort();
    else run.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const bytes = Buffer.byteLength(chunk);
      if (stdoutBytes + bytes > run.maxStdout) {
        if (run.stdoutOverflow === 'stop') {
          stdoutBytes += bytes;
          return stop('output-too-large');
        }
        stdout += Buffer.from(chunk)
          .subarray(0, Math.max(0, run.maxStdout - stdoutBytes))
          .toString('utf8');
        stdoutBytes = run.maxStdout;
        return;
      }
      stdoutBytes += bytes;
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-run.maxStderr);
    });
    const finish = (result: Omit<BoundedResult, 'stdout' | 'stderr' | 'stopped'>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      // What it started and left running (a grandchild in its group, or one that left it with setsid) goes with it.
      if (result.spawnError === undefined) {
        killGroup('SIGKILL');
        killTagged(tag);
      }
      if (group !== undefined) runningGroups.delete(group);
      resolve({ ...result, stdout, stderr, ...(stopped ? { stopped } : {}) });
    };
    child.on('error', (error: NodeJS.ErrnoException) => finish({ code: null, signal: null, spawnError: error }));
    const settleFromPipes = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      child.stdout.destroy();
      child.stderr.destroy();
      finish({ code, signal });
    };
    // It exited but something it started still holds stdout: read what arrived, shortly, and stop waiting.
    child.on('exit', (code, signal) => setTimeout(() => settleFromPipes(code, signal), 1_000).unref());
    child.on('close', (code, signal) => finish({ code, signal }));
  });
}
