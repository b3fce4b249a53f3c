import { InvalidArgumentError, type Command } from 'commander';
import type { RebaseConflictError, RebaseResult } from '../../fixture/constructed/rebase.js';
import type { KeepChoice } from '../../fixture/constructed/resolve-conflicts.js';
import { TurnkitError } from '../../errors.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit rebase CONSTRUCTED [--onto FIXTURE]`. */
export function registerRebase(program: Command, output: Output): void {
  program
    .command('rebase')
    .description(
      "re-apply a constructed fixture's diff to its recaptured base; lists conflicts and writes nothing when old values moved",
    )
    .argument('<constructed>', 'constructed fixture file')
    .option('--onto <fixture>', 'a new base (default: the recorded base path)')
    .option(
      '--keep <choice>',
      "resolve a conflict: PATH=base keeps the new base's value (drops the change), PATH=change keeps the change; base or change alone: every conflict (repeatable)",
      collectKeep,
      [],
    )
    .option(
      '-i, --interactive',
      "on conflicts, open a terminal screen that shows each path's old base, new base and change values and keeps one side per path",
    )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit rebase constructed/meridian-turn-23-deck-fixed.json               # after a recapture of its base',
        'turnkit rebase constructed/meridian-turn-23-deck-fixed.json --interactive # choose per conflicting path',
        'turnkit rebase constructed/meridian-turn-23-deck-fixed.json --keep change --json',
      ),
    )
    .action(async (constructed: string, options) => {
      const { rebase, RebaseConflictError } = await import('../../fixture/constructed/rebase.js');
      if (options.interactive && options.json)
        throw new TurnkitError(
          'USAGE',
          '--interactive and --json: choose one (--json with --keep resolves without a terminal)',
        );
      if (options.interactive && (!process.stdin.isTTY || !process.stdout.isTTY))
        throw new TurnkitError('USAGE', 'rebase --interactive needs a terminal; resolve with --keep PATH=base|change');
      const { filesContext } = await import('../../app/files-context.js');
      const project = filesContext();
      let result: RebaseResult;
      try {
        result = await rebase(project, { constructed, onto: options.onto, keep: options.keep });
      } catch (error) {
        // --json callers get the conflicts as data as well as the one-line errors.
        if (options.json && error instanceof RebaseConflictError)
          printJson(output, { rewritten: false, conflicts: error.conflicts });
        if (!options.interactive || !(error instanceof RebaseConflictError) || error.unresolvable.length > 0)
          throw error;
        const resolved = await resolveInTerminal(error, (keep) =>
          rebase(project, { constructed, onto: options.onto, keep: [...options.keep, ...keep] }),
        );
        if (!resolved) {
          output.err(`${error.conflicts.length} conflicting path(s) left as they were; nothing written`);
          return;
        }
        result = resolved;
      }
      if (options.json) return printJson(output, result);
      if (!result.rewritten)
        output.out(`${result.file}: base ${result.base} is unchanged (sha256 ${result.toSha256}); nothing to do`);
      else
        output.out(
          `${result.file}: rebased onto ${result.base} (sha256 ${result.fromSha256.slice(0, 12)} -> ${result.toSha256.slice(0, 12)}), ${result.changes} change(s) re-applied`,
        );
      for (const kept of result.kept ?? [])
        output.out(
          `  ${kept.path}: kept ${kept.keep === 'base' ? "the new base's value (change dropped)" : 'the change'}`,
        );
    });
}

/** The conflicts on the terminal; the save re-runs the rebase with the choices, which writes the file atomically. */
async function resolveInTerminal(
  error: RebaseConflictError,
  save: (keep: KeepChoice[]) => Promise<RebaseResult>,
): Promise<RebaseResult | undefined> {
  const { loadTerminalApp } = await import('../../tui/load-terminal-app.js');
  // ink and its layout engine load only when the resolver runs.
  const { runResolver } = await loadTerminalApp(() => import('../../tui/rebase/run-resolver.js'));
  return runResolver({ ...error.files, conflicts: error.conflicts, save });
}

// `PATH=base`, `PATH=change`, or `base` / `change` for every conflict; a path may itself hold "=" (`turns[id=19]`).
function collectKeep(value: string, previous: KeepChoice[]): KeepChoice[] {
  const match = /^(?:(.+)=)?(base|change)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`expected PATH=base, PATH=change, base or change, got "${value}"`);
  return [...previous, { ...(match[1] !== undefined ? { path: match[1] } : {}), keep: match[2] as KeepChoice['keep'] }];
}
