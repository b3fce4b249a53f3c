import type { Command } from 'commander';
import type { RebaseResult } from '../../construct/rebase-command.js';
import { printJson, type Output } from '../output.js';

/** `turnkit rebase CONSTRUCTED [--onto FIXTURE]`. */
export function registerRebase(program: Command, output: Output): void {
  program
    .command('rebase')
    .description('re-apply a constructed fixture\'s diff to its recaptured base; lists conflicts and writes nothing when old values moved')
    .argument('<constructed>', 'constructed fixture file')
    .option('--onto <fixture>', 'a new base (default: the recorded base path)')
    .option('--json', 'print the result as JSON')
    .action(async (constructed: string, options) => {
      const { rebase, RebaseConflictError } = await import('../../construct/rebase-command.js');
      let result: RebaseResult;
      try {
        result = await rebase({ constructed, onto: options.onto });
      } catch (error) {
        // --json callers get the conflicts as data as well as the one-line errors.
        if (options.json && error instanceof RebaseConflictError) printJson(output, { rewritten: false, conflicts: error.conflicts });
        throw error;
      }
      if (options.json) return printJson(output, result);
      if (!result.rewritten) output.out(`${result.file}: base ${result.base} is unchanged (sha256 ${result.toSha256}); nothing to do`);
      else output.out(`${result.file}: rebased onto ${result.base} (sha256 ${result.fromSha256.slice(0, 12)} -> ${result.toSha256.slice(0, 12)}), ${result.changes} change(s) re-applied`);
    });
}
