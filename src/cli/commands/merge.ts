import type { Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit merge RUN_DIR... [--out DIR]`. */
export function registerMerge(program: Command, output: Output): void {
  program
    .command('merge')
    .description('combine the shard directories of one run (turnkit run --shard I/N) into one run directory')
    .argument('<run-dirs...>', 'every shard directory of the run')
    .option('--out <dir>', 'the merged run directory (default: beside the first shard, STAMP-merged)')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('turnkit merge runs/places/STAMP-1 runs/places/STAMP-2   # the shards of one run'))
    .action(async (dirs: string[], options) => {
      const { merge } = await import('../../shard/merge-runs.js');
      const { filesContext } = await import('../../app/files-context.js');
      const result = await merge(filesContext(), { dirs, out: options.out });
      if (options.json) return printJson(output, { ...result, dir: shownPath(result.dir) });
      output.out(
        `${shownPath(result.dir)}: ${result.shards} shard(s), ${result.reps} rep(s); merged ${[...result.marksFiles, ...result.judgeFiles].join(', ')}`,
      );
      if (result.skipped.length > 0) output.err(`left out (not in every shard): ${result.skipped.join(', ')}`);
    });
}
