import type { Command } from 'commander';
import { commonOptions, positiveInt } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit sample --turns N`. */
export function registerSample(program: Command, output: Output): void {
  program
    .command('sample')
    .description('create a sample campaign played for N turns (a live session stand-in) and print its key')
    .requiredOption('--turns <n>', 'number of turns played', positiveInt)
    .option('--seed <n>', 'seed of the session (same seed, same session)', positiveInt)
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit sample --turns 40               # a campaign of 40 turns; prints its key',
        'turnkit sample --turns 12 --seed 7',
      ),
    )
    .action(async (options, command: Command) => {
      const { sample } = await import('../../sample/sample-command.js');
      // The library reads no environment: DATABASE_URL is the command line's to pass.
      const result = await sample({
        ...commonOptions(command),
        env: process.env,
        turns: options.turns,
        seed: options.seed,
      });
      if (options.json) return printJson(output, result);
      output.out(result.campaign);
    });
}
