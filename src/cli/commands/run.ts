import { Option, type Command } from 'commander';
import type { RunProgress, RunResult } from '../../app/run-question.js';
import { shownPath } from '../../util/shown-path.js';
import { commonOptions, positiveAmount, positiveInt, shardSpec } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit run QUESTION [--reps N] [--concurrency K] [--shard I/N] [--resume RUN_DIR]`. */
export function registerRun(program: Command, output: Output): void {
  const command = program
    .command('run')
    .description('run a question: N reps per fixture, each in a fresh scratch campaign; writes runs/QUESTION/STAMP/')
    .argument('[question]', "question file (questions/ID.yaml or .json); with --resume, the run's own by default");
  addRunOptions(command)
    .addHelpText(
      'after',
      examples(
        'turnkit run questions/places.yaml --reps 2             # writes runs/places/STAMP',
        'turnkit run questions/places.yaml --reps 2 --shard 1/2  # then --shard 2/2, and turnkit merge',
        'turnkit run --resume runs/places/STAMP                  # finish an interrupted run',
      ),
    )
    .action((question: string | undefined, options: RunFlags, command: Command) =>
      runAction(question, options, command, output),
    );
}

/** Options of the run command as commander gives them. */
interface RunFlags {
  reps?: number;
  concurrency?: number;
  shard?: ReturnType<typeof shardSpec>;
  maxCost?: number;
  resume?: string;
  strategy?: 'remap' | 'database' | 'auto';
  upgrade?: boolean;
  players?: 'recorded';
  json?: boolean;
}

/** The run command's flags. */
function addRunOptions(command: Command): Command {
  return command
    .option('--reps <n>', "reps per fixture (default: the question's)", positiveInt)
    .option('--concurrency <k>', 'SUT calls at a time (default 4)', positiveInt)
    .option(
      '--shard <i/n>',
      'run one deterministic slice of the reps (1/3, 2/3, 3/3 on three machines; then turnkit merge); auto[/N]: from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or TURNKIT_SHARD=I/N',
      shardSpec,
    )
    .option(
      '--max-cost <amount>',
      "stop launching reps once this invocation's SUT calls cost this much (config prices), or at the first rep whose cost cannot be counted; an http SUT's model without a price is refused up front; resume later",
      positiveAmount,
    )
    .option('--resume <run-dir>', 'complete an interrupted run: only missing or errored reps run again')
    .addOption(
      new Option('--strategy <strategy>', "how each rep's scratch campaign is made").choices([
        'remap',
        'database',
        'auto',
      ]),
    )
    .option(
      '--upgrade',
      "seed fixtures behind the schema from copies upgraded through the game's migrations (cached in .turnkit/upgraded; files untouched; listed in the manifest)",
    )
    .addOption(
      new Option(
        '--players <who>',
        "recorded: a rollout's later turns play its fixtures' recorded inputs (capture --ahead) instead of the question's players; compare with report --compare",
      ).choices(['recorded']),
    )
    .option('--json', 'print the result as JSON');
}

/** Runs the question with the flags, Ctrl-C stopping it, progress on stderr; prints the result, then its outcome. */
async function runAction(
  question: string | undefined,
  options: RunFlags,
  command: Command,
  output: Output,
): Promise<void> {
  const { runQuestion } = await import('../../app/run-question.js');
  const { outcomeError } = await import('../../report/outcome.js');
  const { shardFromEnvironment, shardRunName } = await import('../../shard/shard-env.js');
  // The CI engine's variables are read here, at the edge; the library is given the shard and the run's name.
  const shard =
    options.shard && 'auto' in options.shard ? shardFromEnvironment(options.shard, process.env) : options.shard;
  const runName = shard ? shardRunName(process.env) : undefined;
  const { abort, quit, release } = stopOnSignals(output);
  const terminal = output.terminal;
  try {
    const result = await runQuestion({
      ...commonOptions(command),
      question,
      reps: options.reps,
      concurrency: options.concurrency,
      resume: options.resume,
      strategy: options.strategy,
      upgrade: options.upgrade,
      players: options.players,
      shard,
      runName,
      maxCost: options.maxCost,
      signal: abort.signal,
      quit: quit.signal,
      onWarning: (message) => output.err(`warning: ${message}`),
      onProgress: (progress) =>
        terminal ? terminal(`\r\x1b[2K${progressLine(progress)}`) : output.err(progressLine(progress)),
    });
    terminal?.('\n');
    if (quit.signal.aborted) process.exit(130);
    const { recordRunLook } = await import('../heldout-use.js');
    await recordRunLook('run', [result.dir]);
    printRunResult(output, result, options.json === true);
    const failure = outcomeError({ run: result, question });
    if (failure) throw failure;
  } finally {
    release();
  }
}

/** The run's result: as JSON, or its one line and what to do next. */
function printRunResult(output: Output, result: RunResult, json: boolean): void {
  if (json) {
    printJson(output, { ...result, dir: shownPath(result.dir) });
    return;
  }
  output.out(`${shownPath(result.dir)}: ${result.status}, ${result.ran} rep(s) run, ${result.errors} error(s)`);
  if (result.seedErrors.count === 0 && result.errors < result.total)
    output.out(
      `mark the reps: turnkit mark ${shownPath(result.dir)} (or edit its marks.csv: pass, fail or na; errored reps are marked error)`,
    );
}

/**
 * Ctrl-C (or SIGTERM) stops a run: the first says no new reps (`abort`), the second quits at once (`quit`), and a
 * database that does not answer then does not keep the process. `release` removes the handlers.
 */
export function stopOnSignals(output: Output): { abort: AbortController; quit: AbortController; release: () => void } {
  const abort = new AbortController();
  const quit = new AbortController();
  const onSigint = (): void => {
    if (abort.signal.aborted) {
      // Quitting: the run kills its SUTs, marks itself interrupted and tears down; gc removes what is left. A run
      // still not done after 5 s exits anyway, and a command SUT in a process group of its own would outlive it.
      quit.abort();
      setTimeout(() => {
        void import('../../sut/sut-command.js')
          .then(({ killRunningSuts }) => killRunningSuts())
          .finally(() => process.exit(130));
      }, 5_000).unref();
      return;
    }
    abort.abort();
    output.err(
      'stopping: no new reps; the running ones finish and tear down (Ctrl-C again to quit at once; turnkit gc cleans up)',
    );
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  return {
    abort,
    quit,
    release: () => {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    },
  };
}

// The command that finishes a run, as the user would type it: their question argument, if they gave one.
/** One line of progress: done/total, errors, elapsed, ETA and the last rep; never the SUT's response. */
export function progressLine(progress: RunProgress): string {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const last = `${progress.last.fixture} rep ${progress.last.rep} ${progress.last.error ? `error (${progress.last.error})` : 'ok'} in ${seconds(progress.last.ms)}`;
  return `[${progress.done}/${progress.total}] ${progress.errors} error(s), ${seconds(progress.elapsedMs)} elapsed${progress.etaMs ? `, about ${seconds(progress.etaMs)} left` : ''}; ${last}`;
}
