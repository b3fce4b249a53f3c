import { InvalidArgumentError, type Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { TurnkitError } from '../../errors.js';
import type { Output } from '../output.js';
import { finishBeforeQuit, quitWhenGone } from '../streams-gone.js';
import { examples } from '../help-examples.js';

/** `turnkit mark RUN_DIR [--grader NAME] [--blind [--seed N]]`. */
export function registerMark(program: Command, output: Output): void {
  program
    .command('mark')
    .description('terminal marker: one rep at a time with its case file and the rubric; every mark saved at once')
    .argument('<run-dir>', 'a run directory (runs/QUESTION/STAMP)')
    .option('--grader <name>', 'write marks.NAME.csv instead of marks.csv')
    .option(
      '--blind',
      're-mark for self-agreement: shuffled order, earlier marks hidden, its own file (marks[.NAME].blind.csv)',
    )
    .option(
      '--seed <n>',
      "the blind order's seed (default: the one recorded for the file, else a new one)",
      (value) => {
        if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number, got "${value}"`);
        return Number(value);
      },
    )
    .addHelpText(
      'after',
      examples(
        'turnkit mark runs/places/STAMP',
        'turnkit mark runs/places/STAMP --blind                  # a blind re-mark for self-agreement',
      ),
    )
    .action(async (dir: string, options) => {
      const { MarkingSession } = await import('../../marking/marking-session.js');
      const { loadTerminalApp } = await import('../../tui/load-terminal-app.js');
      if (options.seed !== undefined && !options.blind)
        throw new TurnkitError('USAGE', '--seed orders a blind re-mark: use it with --blind');
      if (!process.stdin.isTTY || !process.stdout.isTTY)
        throw new TurnkitError(
          'USAGE',
          'turnkit mark needs a terminal; or mark the reps in marks.csv with a spreadsheet or an editor',
        );
      const { acquireMarksLock } = await import('../../marking/marks-lock.js');
      const { recordRunLook } = await import('../heldout-use.js');
      const session = await MarkingSession.open({
        dir,
        user: process.env.USER,
        grader: options.grader,
        blind: options.blind,
        seed: options.seed,
      });
      await recordRunLook('mark', [dir]);
      // A browser marker (turnkit view) or another terminal on the same file is refused, not overwritten.
      await using _lock = await acquireMarksLock(session.file, 'turnkit mark');
      // ink and its layout engine load only when the marker runs.
      const { runMarker } = await loadTerminalApp(() => import('../../tui/marker/run-marker.js'));
      // A terminal that goes away mid-session (EIO) ends it quietly, once the last mark given is on disk.
      process.stdin.on('error', quitWhenGone);
      const release = finishBeforeQuit(() => session.flush());
      const result = await runMarker(session).finally(release);
      output.out(
        `${shownPath(session.file)}: ${result.marked} of ${result.total} rep(s) marked${session.blind ? ` (blind, seed ${session.blind.seed})` : ''}`,
      );
    });
}
