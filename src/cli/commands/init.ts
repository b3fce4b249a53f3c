import type { Command } from 'commander';
import type { Output } from '../output.js';

/** `turnkit init`. */
export function registerInit(program: Command, output: Output): void {
  program
    .command('init')
    .description('scaffold turnkit.config.ts, fixtures/, constructed/ and questions/')
    .option('--force', 'overwrite an existing config file')
    .action(async (options) => {
      const { init } = await import('../../config/init.js');
      const result = await init({ force: options.force });
      for (const item of result.created) output.out(`created ${item}`);
    });
}
