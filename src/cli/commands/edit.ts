import type { Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { TurnkitError } from '../../errors.js';
import { commonOptions, wholeNumber } from '../global-options.js';
import type { Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit edit FIXTURE [--editor --turn N]`. */
export function registerEdit(program: Command, output: Output): void {
  program
    .command('edit')
    .description('terminal editor: change one upstream turn and save a constructed fixture')
    .argument('<fixture>', 'fixture or constructed fixture')
    .option('--editor', "open the turn's rows as JSON in $VISUAL or $EDITOR instead (needs --turn)")
    .option(
      '--turn <n>',
      "open this turn (with --editor: the turn to edit; default a constructed fixture's own turn)",
      wholeNumber,
    )
    .option('--out <dir>', "output folder (default: the config's constructed folder)")
    .option('--force', 'overwrite an existing constructed fixture of the chosen name')
    .addHelpText(
      'after',
      examples(
        'turnkit edit fixtures/meridian-turn-23.json                     # the terminal editor',
        'turnkit edit constructed/meridian-turn-23-deck-fixed.json --turn 19 --editor   # as JSON in $EDITOR',
      ),
    )
    .action(async (fixture: string, options, command: Command) => {
      const { openEditSession } = await import('../../fixture/constructed/edit-session.js');
      const { editInExternalEditor } = await import('../../fixture/constructed/external-edit.js');
      const { loadTerminalApp } = await import('../../tui/load-terminal-app.js');
      const { session, outDir } = await openEditSession({
        ...commonOptions(command),
        cwd: process.cwd(),
        fixture,
        out: options.out,
      });
      const { warnHeldoutSource } = await import('../heldout-use.js');
      await warnHeldoutSource('edit', fixture, command, output);
      if (options.editor) {
        const turn: number | undefined = options.turn ?? session.opened.constructed?.document.turn;
        if (turn === undefined) throw new TurnkitError('USAGE', 'edit --editor: say which turn with --turn N');
        const result = await editInExternalEditor(session, {
          turn,
          dir: outDir,
          force: options.force,
          editor: process.env.VISUAL ?? process.env.EDITOR,
        });
        if (result.aborted) throw new TurnkitError('BAD_INPUT', `edit aborted: ${result.aborted}`);
        return report(output, result.saved!);
      }
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        throw new TurnkitError(
          'USAGE',
          'turnkit edit needs a terminal; use --editor, or turnkit construct --patch FILE',
        );
      }
      // ink and its layout engine load only when the editor runs, not on every turnkit command.
      const { runEditor } = await loadTerminalApp(() => import('../../tui/editor/run-editor.js'));
      const result = await runEditor(session, outDir, options.turn);
      // The editor stays open after a save: every file it wrote is named, in the order written.
      for (const saved of result.written ?? (result.saved ? [result.saved] : [])) report(output, saved);
      if (!result.saved) output.err('quit without saving');
    });
}

function report(output: Output, saved: { file: string; document: { turn: number }; paths: string[] }): void {
  output.out(`wrote ${shownPath(saved.file)}: turn ${saved.document.turn}, ${saved.paths.length} change(s)`);
  for (const path of saved.paths) output.out(`  ${path}`);
}
