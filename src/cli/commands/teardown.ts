import type { Command } from 'commander';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { describeTeardown } from '../describe-teardown.js';
import { examples } from '../help-examples.js';

/** `turnkit teardown KEY`. */
export function registerTeardown(program: Command, output: Output): void {
  program
    .command('teardown')
    .description('remove one scratch campaign (by registry id or campaign key), with every row the game added under it')
    .argument('<key>', "registry id (scratch-...) or the scratch campaign's key")
    .option('--json', 'print the result as JSON')
    .addHelpText('after', examples('turnkit teardown KEY                     # the key turnkit seed printed'))
    .action(async (key: string, options, command: Command) => {
      const { teardown } = await import('../../scratch/scratch-operations.js');
      const { commandContext } = await import('../../app/command-context.js');
      const input = { ...commonOptions(command), key };
      const report = await teardown(await commandContext(input), input);
      if (options.json) printJson(output, report);
      else output.out(describeTeardown(report));
    });
}
