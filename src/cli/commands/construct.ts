import type { Command } from 'commander';
import { shownPath } from '../../util/shown-path.js';
import { commonOptions, wholeNumber } from '../global-options.js';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';
import { warnHeldoutSource } from '../heldout-use.js';

/** `turnkit construct FIXTURE --turn N (--patch FILE | --from EDITED.json) --name NAME --why TEXT`. */
export function registerConstruct(program: Command, output: Output): void {
  program
    .command('construct')
    .description('record a change to one upstream turn of a fixture as a constructed fixture')
    .argument('<fixture>', 'base fixture (captured or constructed)')
    .requiredOption('--turn <n>', 'the upstream turn whose rows change', wholeNumber)
    .option('--patch <file>', 'JSON of new values: {"TABLE": [{"KEY": value, "COLUMN": new value}]}')
    .option('--from <file>', 'a whole edited copy of the fixture; its difference is recorded')
    .requiredOption('--name <name>', 'name of the constructed fixture (its file name)')
    .requiredOption('--why <text>', 'what the change tests, for the reviewer')
    .option('--out <dir>', "output folder (default: the config's constructed folder)")
    .option('--force', 'overwrite an existing constructed fixture of that name')
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      examples(
        'echo \'{"turns": [{"id": "19", "narration": "The mess hall is on deck 2."}]}\' > patch.json',
        "turnkit construct fixtures/meridian-turn-23.json --turn 19 --patch patch.json --name deck-2 --why 'is the route right when turn 19 is?'",
      ),
    )
    .action(async (fixture: string, options, command: Command) => {
      const { checkConstructSource, construct } = await import('../../fixture/constructed/construct-fixture.js');
      const { commandContext } = await import('../../app/command-context.js');
      if ((options.patch === undefined) === (options.from === undefined))
        command.error('error: give exactly one of --patch FILE or --from EDITED.json', { exitCode: 2 });
      const input = { ...commonOptions(command), fixture, ...options };
      // Said before the config is read: a mistake on the command line costs no config load.
      checkConstructSource(input);
      const saved = await construct(await commandContext(input), input);
      await warnHeldoutSource('construct', fixture, command, output);
      if (options.json) return printJson(output, { file: shownPath(saved.file), ...saved.document });
      output.out(`wrote ${shownPath(saved.file)}: turn ${saved.document.turn}, ${saved.changes.length} change(s)`);
      for (const path of saved.paths) output.out(`  ${path}`);
    });
}
