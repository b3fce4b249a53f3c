import { Option, type Command } from 'commander';
import type { RunProgress } from '../../pipeline/run-question.js';
import { shownPath } from '../../util/shown-path.js';
import { TurnkitError } from '../../errors.js';
import { commonOptions, positiveInt, shardSpec } from '../global-options.js';
import { printJson, type Output } from '../output.js';

/** `turnkit run QUESTION [--reps N] [--concurrency K] [--shard I/N] [--resume RUN_DIR]`. */
export function registerRun(program: Command, output: Output): void {
  program
    .command('run')
    .description('run a question: N reps per fixture, each in a fresh scratch campaign; writes runs/QUESTION/STAMP/')
    .argument('[question]', 'question file (questions/ID.yaml or .json); with --resume, the run\'s own by default')
    .option('--reps <n>', 'reps per fixture (default: the question\'s)', positiveInt)
    .option('--concurrency <k>', 'reps at a time (default 1 on the embedded database, 4 on a real server)', positiveInt)
    .option('--shard <i/n>', 'run one deterministic slice of the reps (1/3, 2/3, 3/3 on three machines; then turnkit merge)', shardSpec)
    .option('--resume <run-dir>', 'complete an interrupted run: only missing or errored reps run again')
    .addOption(new Option('--strategy <strategy>', 'how each rep\'s scratch campaign is made').choices(['remap', 'database', 'auto']))
    .option('--json', 'print the result as JSON')
    .action(async (question: string | undefined, options, command: Command) => {
      const { runQuestion } = await import('../../pipeline/run-question.js');
      const { killRunningSuts } = await import('../../pipeline/sut-command.js');
      const abort = new AbortController();
      const onSigint = (): void => {
        if (abort.signal.aborted) {
          // Quitting at once: the SUTs running now (each in a process group of its own) go too.
          killRunningSuts();
          process.exit(130);
        }
        abort.abort();
        output.err('stopping: no new reps; the running ones finish and tear down (Ctrl-C again to quit at once; turnkit gc cleans up)');
      };
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigint);
      const terminal = output.terminal;
      try {
        const result = await runQuestion({
          ...commonOptions(command),
          question,
          reps: options.reps,
          concurrency: options.concurrency,
          resume: options.resume,
          strategy: options.strategy,
          shard: options.shard,
          signal: abort.signal,
          onWarning: (message) => output.err(`warning: ${message}`),
          onProgress: (progress) => (terminal ? terminal(`\r\x1b[2K${progressLine(progress)}`) : output.err(progressLine(progress))),
        });
        terminal?.('\n');
        if (options.json) printJson(output, { ...result, dir: shownPath(result.dir) });
        else {
          output.out(`${shownPath(result.dir)}: ${result.status}, ${result.ran} rep(s) run, ${result.errors} error(s)`);
          if (result.seedErrors.count === 0) output.out(`mark the reps: turnkit mark ${shownPath(result.dir)} (or edit its marks.csv: pass, fail or na; errored reps are marked error)`);
        }
        // Not done is not success: a script must not go on to mark or report an incomplete run.
        if (result.failures.length > 0) throw new TurnkitError('FIXTURE', result.failures[0]!, result.failures);
        // A rep that could not be seeded never reached the SUT: the database needs fixing, then --resume.
        if (result.seedErrors.count > 0) {
          throw new TurnkitError('FIXTURE', `${shownPath(result.dir)}: ${result.seedErrors.count} rep(s) could not be seeded, so the SUT never ran on them (${result.seedErrors.first}); fix the database, then: ${resumeCommand(question, result.dir)}`);
        }
        if (result.pending > 0) throw new TurnkitError('FIXTURE', `${shownPath(result.dir)}: interrupted with ${result.pending} rep(s) not run; finish it with: ${resumeCommand(question, result.dir)}`);
      } finally {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
      }
    });
}

// The command that finishes a run, as the user would type it: their question argument, if they gave one.
function resumeCommand(question: string | undefined, dir: string): string {
  return `turnkit run ${question !== undefined ? `${question} ` : ''}--resume ${shownPath(dir)}`;
}

/** One line of progress: done/total, errors, elapsed, ETA and the last rep; never the SUT's response. */
export function progressLine(progress: RunProgress): string {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const last = `${progress.last.fixture} rep ${progress.last.rep} ${progress.last.error ? `error (${progress.last.error})` : 'ok'} in ${seconds(progress.last.ms)}`;
  return `[${progress.done}/${progress.total}] ${progress.errors} error(s), ${seconds(progress.elapsedMs)} elapsed${progress.etaMs ? `, about ${seconds(progress.etaMs)} left` : ''}; ${last}`;
}
