import type { Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';

/** `turnkit verify [PATH...]`. */
export function registerVerify(program: Command, output: Output): void {
  program
    .command('verify')
    .description(
      'validate fixtures, constructed fixtures and questions (default: their folders); exit 1 on any problem',
    )
    .argument('[paths...]', 'files or folders')
    .option('--database', 'also check tables and columns against the connected database')
    .option('--json', 'print the result as JSON')
    .action(async (paths: string[], options, command: Command) => {
      const { verifyProject } = await import('../../app/verify-project.js');
      const result = await verifyProject({ ...commonOptions(command), paths, database: options.database });
      if (options.json) printJson(output, result);
      else
        for (const file of result.files.filter((entry) => entry.ok))
          output.out(`ok ${file.file}${file.note ? ` (${file.note})` : ''}`);
      if (result.problems.length > 0) throw new TurnkitError('BAD_INPUT', result.problems[0]!, result.problems);
      if (!options.json) output.out(`${result.files.length} file(s) verified`);
    });
}
