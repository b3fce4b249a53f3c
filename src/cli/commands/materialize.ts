import type { Command } from 'commander';
import type { Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit materialize CONSTRUCTED`. */
export function registerMaterialize(program: Command, output: Output): void {
  program
    .command('materialize')
    .description('print the fixture a constructed fixture stands for (base hash and old values checked)')
    .argument('<constructed>', 'constructed fixture file')
    .addHelpText(
      'after',
      examples('turnkit materialize constructed/meridian-turn-23-deck-fixed.json > /tmp/deck-fixed.json'),
    )
    .action(async (constructed: string) => {
      const { materialize } = await import('../../fixture/constructed/materialize.js');
      const { serializeDocument } = await import('../../fixture/format.js');
      const { filesContext } = await import('../../app/files-context.js');
      output.out(serializeDocument(await materialize(filesContext(), { constructed })).trimEnd());
    });
}
