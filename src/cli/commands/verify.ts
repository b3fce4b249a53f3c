import type { Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit verify [PATH...]`. */
export function registerVerify(program: Command, output: Output): void {
  program
    .command('verify')
    .description(
      'validate fixtures, constructed fixtures and questions (default: their folders); exit 1 on any problem',
    )
    .argument('[paths...]', 'files or folders')
    .option('--database', "also check the fixtures' and the config's tables and columns against the connected database")
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit verify                          # fixtures/, constructed/ and questions/',
        'turnkit verify fixtures/meridian-turn-23.json questions/places.yaml',
        'turnkit verify --database               # also against the connected database',
      ),
    )
    .action(async (paths: string[], options, command: Command) => {
      const { verify } = await import('../../pipeline/verify.js');
      const { commandContext, commandEnv } = await import('../../app/command-context.js');
      const input = { ...commonOptions(command), paths, database: options.database };
      const result = await verify(await commandContext(input), { ...input, env: commandEnv(input) });
      if (options.json) printJson(output, result);
      else
        for (const file of result.files.filter((entry) => entry.ok))
          output.out(`ok ${file.file}${file.note ? ` (${file.note})` : ''}`);
      if (result.problems.length > 0) throw new TurnkitError('BAD_INPUT', result.problems[0]!, result.problems);
      if (!options.json) output.out(`${result.files.length} file(s) verified`);
    });
}
