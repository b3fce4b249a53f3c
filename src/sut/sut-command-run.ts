import { passwordForms, withoutSecrets } from '../util/redact-password.js';
import { type BoundedResult, commandWords, runBounded } from '../util/process/bounded-process.js';
import { type CommandSut, expandEnv } from './sut-command.js';
import { parseSutOutput, recordedTail, type SutContext, type SutOutcome } from './sut-request.js';
import { inheritedEnv } from './secret-names.js';

// A command SUT's run, loaded only when a command SUT is opened.

/**
 * Runs a command SUT for one rep: a process of its own (and process group, so that a timeout also ends what it
 * started) with the scratch campaign in its environment and the request on stdin, which is closed at once. stdout
 * and stderr are each bounded; a nonzero exit, a signal, a timeout, too much output or an unreadable answer is an
 * error outcome with its cause and the tails of both streams, never a thrown exception.
 */
export async function runCommandSut(sut: CommandSut, context: SutContext): Promise<SutOutcome> {
  const argv = commandWords(sut.command);
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

/** How much of a stderr line goes into an error message: a line, not a log. */
const LIMIT = 200;

/**
 * The line of a failed program's stderr that says why, secrets removed, at most about 200 characters: the last line
 * that reads as a message. Stack frames and the details after a crash are indented (Node's `    at ...` and
 * `  code: '...'`, Python's `  File ...`) and Node ends with `Node.js vNN`: the line before them names the error
 * (`Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'pg' ...`). Undefined when stderr holds no text.
 */
function stderrLastLine(stderr: string, context: Pick<SutContext, 'databaseUrl' | 'secrets'>): string | undefined {
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
function exitMessage(
  code: number | null,
  stderr: string,
  context: Pick<SutContext, 'databaseUrl' | 'secrets'>,
): string {
  const line = stderrLastLine(stderr, context);
  return line === undefined ? `exited with ${code}` : `exited with ${code}: ${line}`;
}
