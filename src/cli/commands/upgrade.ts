import { relative } from 'node:path';
import type { Command } from 'commander';
import { commonOptions } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';
import { TurnkitError } from '../../errors.js';

// How the state of a fixture that recorded none was found, as the upgrade line says it.
const CAPTURED_AFTER = {
  snapshot: 'from the schema snapshot with its fingerprint',
  named: 'as --from named',
  inferred: 'found by its schema fingerprint',
} as const;

/** `turnkit upgrade [FIXTURE...]`. */
export function registerUpgrade(program: Command, output: Output): void {
  program
    .command('upgrade')
    .description("bring fixtures captured under an older schema up to date through the game's own migrations")
    .argument(
      '[fixtures...]',
      "fixture files (default: every fixture in the config's fixtures folder); constructed fixtures on an upgraded base follow it, and a named constructed one brings its base",
    )
    .option('--out <dir>', 'write the upgraded fixtures here instead of over the files')
    .option(
      '--allow-sensitive',
      'capture new columns that look personal or secret without a scrub rule (recorded in the fixture)',
    )
    .option(
      '--from <migration>',
      'for fixtures captured before turnkit recorded migration states: the last migration applied when they were captured (default: found from their schema fingerprint)',
    )
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit upgrade                                        # every stale fixture in fixtures/',
        'turnkit upgrade fixtures/meridian-turn-23.json --out fixtures/upgraded',
        'turnkit upgrade constructed/meridian-turn-23-deck-fixed.json  # it and its base',
        'turnkit upgrade fixtures/meridian-turn-23.json --from 20261201000000_sample_user_accounts  # recorded no state',
      ),
    )
    .action(async (fixtures: string[], options, command: Command) => {
      const [{ upgrade }, { commandContext }] = await Promise.all([
        import('../../upgrade/upgrade-fixtures.js'),
        import('../../app/command-context.js'),
      ]);
      // Ctrl-C (or SIGTERM) ends the migration's process group, drops the scratch database and writes nothing.
      const stop = new AbortController();
      const onSignal = (): void =>
        stop.abort(new TurnkitError('DATABASE', 'upgrade: stopped by a signal; no fixture was written'));
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const common = commonOptions(command);
      const result = await upgrade(await commandContext(common), {
        files: fixtures,
        out: options.out,
        from: options.from,
        allowSensitive: options.allowSensitive,
        // The key comes from the environment variable the config names (TURNKIT_SCRUB_KEY by default).
        scrubKey: (name: string) => process.env[name],
        signal: stop.signal,
      }).finally(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      });
      if (options.json) printJson(output, result);
      else {
        const shown = (file: string): string => relative(process.cwd(), file) || file;
        const { database } = result;
        output.err(
          `upgrade against ${database.url} (${database.tool}: ${database.applied} applied, last ${database.latest ?? 'none'})`,
        );
        for (const entry of result.fixtures) {
          if (entry.status === 'upgraded')
            output.out(
              `upgraded ${shown(entry.file)}${entry.written !== entry.file ? ` -> ${shown(entry.written!)}` : ''} (${entry.migrations!.length} migration(s)${entry.schemaChanged === false ? ', none of which changed its tables' : ''}${entry.capturedAfter ? `; captured after ${entry.capturedAfter.migration ?? 'none'}, ${CAPTURED_AFTER[entry.capturedAfter.how]}` : ''})`,
            );
          else if (entry.status === 'current') output.out(`${shown(entry.file)}: up to date`);
          else output.err(`${entry.status === 'skipped' ? 'skipped' : 'error'}: ${shown(entry.file)}: ${entry.why}`);
          for (const problem of entry.status === 'failed' ? (entry.problems ?? []).slice(1) : [])
            output.err(`  ${problem}`);
        }
      }
      for (const warning of result.warnings) output.err(`warning: ${warning}`);
      // Anything not brought up to date fails the command (`turnkit upgrade && git commit` must not go green with
      // nothing written); thrown, so that the entry point's exit code is this one.
      const missed = result.fixtures.filter((entry) => entry.status !== 'upgraded' && entry.status !== 'current');
      if (missed.length > 0) {
        const written = result.fixtures.some((entry) => entry.status === 'upgraded');
        throw new TurnkitError(
          'DATABASE',
          `upgrade: ${missed.length} of ${result.fixtures.length} fixture(s) not brought up to date${written ? '' : '; no file was written'}`,
        );
      }
    });
}
