import { relative } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { TurnSelection } from '../../fixture/capture/capture.js';
import { commonOptions, positiveInt } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit capture --campaign KEY (--turn N | --turns A..B | --latest)`. */
export function registerCapture(program: Command, output: Output): void {
  program
    .command('capture')
    .description("capture a campaign at a turn into a fixture: state up to turn N-1 plus turn N's input")
    .requiredOption('--campaign <key>', 'key of the campaign (root row)')
    .addOption(
      new Option('--turn <n>', 'the turn whose input the fixture holds')
        .argParser(positiveInt)
        .conflicts(['turns', 'latest']),
    )
    .addOption(
      new Option('--turns <a..b>', 'one fixture per turn in an inclusive range')
        .argParser(parseRange)
        .conflicts('latest'),
    )
    .option('--latest', "the campaign's last turn")
    .option('--name <name>', 'fixture name (default campaign-KEY-turn-N)')
    .option('--out <dir>', "output folder (default: the config's fixtures folder)")
    .addOption(
      new Option(
        '--ahead <k>',
        "record the input columns of turns N+1..N+K-1 too (a rollout's recorded inputs)",
      ).argParser(positiveInt),
    )
    .option('--force', 'overwrite existing fixture files')
    .option(
      '--allow-sensitive',
      'capture columns that look personal or secret without a scrub rule (recorded in the fixture)',
    )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit capture --campaign 1 --turn 23                 # fixtures/campaign-1-turn-23.json',
        'turnkit capture --campaign 1 --turns 21..23 --out fixtures/range',
        'turnkit capture --campaign 1 --latest --name campaign-1-latest --json',
      ),
    )
    .action(async (options, command: Command) => {
      const { capture, checkCaptureName } = await import('../../fixture/capture/capture-fixtures.js');
      const { commandContext } = await import('../../app/command-context.js');
      const turns: TurnSelection | undefined = options.turn
        ? { turn: options.turn }
        : (options.turns ?? (options.latest ? { latest: true } : undefined));
      if (!turns) command.error('error: give one of --turn N, --turns A..B or --latest', { exitCode: 2 });
      const input = {
        ...commonOptions(command),
        campaign: options.campaign,
        turns: turns!,
        name: options.name,
        out: options.out,
        force: options.force,
        ahead: options.ahead,
        // The key comes from the environment variable the config names (TURNKIT_SCRUB_KEY by default).
        scrubKey: (name: string) => process.env[name],
        allowSensitive: options.allowSensitive,
      };
      // A bad name is said before the config is read: a typo costs no database start.
      checkCaptureName(input.name);
      const result = await capture(await commandContext(input), input);
      if (options.json) printJson(output, result);
      else {
        result.files.forEach((file, i) => {
          const fixture = result.fixtures[i]!;
          output.out(
            `wrote ${relative(process.cwd(), file) || file} (turn ${fixture.turn}, ${fixture.tables} tables, ${fixture.rows} rows)`,
          );
        });
      }
      for (const warning of result.warnings) output.err(`warning: ${warning}`);
    });
}

function parseRange(value: string): TurnSelection {
  const match = /^(\d+)\.\.(\d+)$/.exec(value);
  if (!match) throw new InvalidArgumentError(`expected A..B (for example 20..23), got "${value}"`);
  return { from: Number(match[1]), to: Number(match[2]) };
}
