import type { Command } from 'commander';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { describeTeardown } from './describe-teardown.js';

/** `turnkit teardown KEY`. */
export function registerTeardown(program: Command, output: Output): void {
  program
    .command('teardown')
    .description('remove one scratch campaign (by registry id or campaign key), with every row the game added under it')
    .argument('<key>', "registry id (scratch-...) or the scratch campaign's key")
    .option('--json', 'print the result as JSON')
    .action(async (key: string, options, command: Command) => {
      const { teardownCommand } = await import('../../app/scratch-commands.js');
      const report = await teardownCommand({ ...commonOptions(command), key });
      if (options.json) printJson(output, report);
      else output.out(describeTeardown(report));
    });
}
