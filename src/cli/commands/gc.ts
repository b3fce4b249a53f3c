import { InvalidArgumentError, type Command } from 'commander';
import { TurnkitError } from '../../errors.js';
import { commonOptions } from '../global-options.js';
import { shownPath } from '../../util/shown-path.js';
import { printJson, type Output } from '../output.js';
import { describeTeardown } from '../describe-teardown.js';
import { examples } from '../help-examples.js';

/** `turnkit gc [--ttl HOURS] [--all]`. */
export function registerGc(program: Command, output: Output): void {
  program
    .command('gc')
    .description(
      'remove orphaned scratch campaigns: their process is gone, or (other hosts) they are older than the TTL',
    )
    .option('--ttl <hours>', 'age after which a campaign seeded on another host counts as orphaned', parseHours, 24)
    .option('--all', 'remove every scratch campaign, including those seeded by hand and those of running processes')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit gc                               # every orphaned scratch campaign',
        'turnkit gc --ttl 1 --json',
      ),
    )
    .action(async (options, command: Command) => {
      const { gc } = await import('../../scratch/scratch-operations.js');
      const { commandContext } = await import('../../app/command-context.js');
      const input = {
        ...commonOptions(command),
        ttlMs: options.ttl * 3_600_000,
        all: options.all,
        // What it waits for is said, not a silent hang.
        onLockWait: (message: string) => output.err(message),
      };
      const report = await gc(await commandContext(input), input);
      if (options.json) printJson(output, report);
      else {
        for (const removed of report.removed) output.out(`${describeTeardown(removed)} [${removed.reason}]`);
        for (const kept of report.kept) output.out(`kept ${kept.id} (${kept.fixture}): ${kept.reason}`);
        for (const refused of report.refused) output.out(`kept ${refused.id} (${refused.fixture}): ${refused.reason}`);
        for (const temp of report.temps) output.out(`removed ${shownPath(temp)} (left by a killed merge)`);
        for (const database of report.databases)
          output.out(`dropped database ${database.name} (${database.purpose}) [${database.reason}]`);
        output.out(
          `gc: removed ${report.removed.length + report.databases.length}, kept ${report.kept.length + report.refused.length}${report.failed.length ? `, failed ${report.failed.length}` : ''}`,
        );
      }
      if (report.failed.length > 0) {
        const problems = report.failed.map((failed) => `gc: could not remove ${failed.id}: ${failed.error}`);
        throw new TurnkitError('DATABASE', problems[0]!, problems);
      }
    });
}

function parseHours(value: string): number {
  const hours = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || hours <= 0)
    throw new InvalidArgumentError(`expected a positive number of hours, got "${value}"`);
  return hours;
}
