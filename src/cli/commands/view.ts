import { InvalidArgumentError, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import type { Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit view [RUN_DIR...] [--blind [--seed N]] [--grader NAME] [--port N]`. */
export function registerView(program: Command, output: Output): void {
  program
    .command('view')
    .description(
      'local web viewer and browser marker on 127.0.0.1: the report, every rep, runs side by side; marks saved as turnkit mark saves them',
    )
    .argument('[run-dir...]', 'run directories (default: every run under runs/)')
    .option('--grader <name>', 'write marks.NAME.csv instead of marks.csv')
    .option(
      '--marks <files>',
      "the report's marks files, a,b: each rep's mark from the first that marks it, with the marks by source shown",
    )
    .option(
      '--blind',
      're-mark for self-agreement: shuffled order, other marks hidden, its own file (marks[.NAME].blind.csv)',
    )
    .option(
      '--seed <n>',
      "the blind order's seed (default: the one recorded for the file, else a new one)",
      wholeNumber,
    )
    .option('--port <n>', 'the port to listen on (default: a free one)', (value) => {
      const port = wholeNumber(value);
      if (port < 1 || port > 65535) throw new InvalidArgumentError(`expected a port from 1 to 65535, got "${value}"`);
      return port;
    })
    .addHelpText(
      'after',
      examples(
        'turnkit view                             # every run under runs/, in the browser',
        'turnkit view runs/places/STAMP --blind',
      ),
    )
    .action(async (dirs: string[], options) => {
      if (options.seed !== undefined && !options.blind)
        throw new TurnkitError('USAGE', '--seed orders a blind re-mark: use it with --blind');
      const { view } = await import('../../view/server/start-viewer.js');
      const server = await view({
        dirs,
        grader: options.grader,
        reportMarks: options.marks,
        blind: options.blind,
        seed: options.seed,
        port: options.port,
      });
      output.out(`turnkit view: ${server.url}`);
      const { recordRunLook } = await import('../heldout-use.js');
      const { resolve } = await import('node:path');
      // One line for the whole session, naming every held-out fixture among the runs it serves.
      const looks = await recordRunLook(
        'view',
        server.runs.map((run) => resolve(run.dir)),
      );
      for (const run of server.runs) run.showHeldoutLooks(looks);
      output.err(
        `serving ${server.runs.length} run(s) on 127.0.0.1 only; open the URL above (its token is the key); Ctrl-C stops`,
      );
      // The edge owns the signals: the viewer stops, every mark given is on disk, the locks are let go.
      await new Promise<void>((done) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          done();
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await server.close();
    });
}

function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
  return Number(value);
}
