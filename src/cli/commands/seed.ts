import { Option, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit seed FIXTURE [--strategy remap|database] [--check]`. */
export function registerSeed(program: Command, output: Output): void {
  program
    .command('seed')
    .description('create a scratch campaign from a fixture; prints its key and DATABASE_URL')
    .argument('<fixture>', 'fixture file')
    .addOption(
      new Option(
        '--strategy <strategy>',
        'remap: new keys in the same database; database: a database of its own (real Postgres); auto: whichever is faster',
      )
        .choices(['remap', 'database', 'auto'])
        .default('remap'),
    )
    .option('--check', 're-capture the scratch campaign and compare it with the fixture (exit 1 when they differ)')
    .option('--json', 'print the result as JSON')
    .option(
      '--show-password',
      'print the database URL with its password: the DATABASE_URL a game started by hand connects with',
    )
    .addHelpText(
      'after',
      examples(
        'turnkit seed fixtures/meridian-turn-23.json                  # prints KEY and its DATABASE_URL',
        'turnkit seed constructed/meridian-turn-23-deck-fixed.json --strategy remap --json',
      ),
    )
    .action(async (fixture: string, options, command: Command) => {
      const { seed } = await import('../../scratch/scratch-operations.js');
      const { commandContext } = await import('../../app/command-context.js');
      const input = {
        ...commonOptions(command),
        fixture,
        strategy: options.strategy,
        check: options.check,
        showPassword: options.showPassword === true,
        onWarning: (message: string) => output.err(`warning: ${message}`),
      };
      const result = await seed(await commandContext(input), input);
      if (options.json) printJson(output, result);
      else {
        output.out(`key=${result.key}`);
        output.out(`DATABASE_URL=${result.databaseUrl}`);
        output.out(`id=${result.id}`);
        // A game needs the password to connect; it is printed only when asked for (the embedded server's changes
        // each time it starts and lives only in its data directory).
        if (result.passwordLeftOut)
          output.err(
            'the URL is shown without its password: seed --show-password (or turnkit db url --show-password) prints it',
          );
        output.err(
          `seeded ${result.fixture} as ${result.id} (${result.strategy}); remove it with: turnkit teardown ${result.id}`,
        );
        if (result.serverStopsOnExit) {
          output.err(
            'note: the embedded server stops when this command exits; run `turnkit db start` first to keep it running for your game',
          );
        }
      }
      if (result.check && !result.check.equal) {
        const problems = result.check.differences.map((difference) => `check: ${fixture}: ${difference}`);
        throw new TurnkitError('FIXTURE', problems[0]!, problems);
      }
      if (result.check && !options.json) output.err('check: the scratch campaign equals the fixture (modulo keys)');
    });
}
