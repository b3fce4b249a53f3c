import type { Command } from 'commander';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit show FIXTURE`. */
export function registerShow(program: Command, output: Output): void {
  program
    .command('show')
    .description('print what a fixture holds: tables, row counts, turns, input')
    .argument('<fixture>', 'fixture file')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit show fixtures/meridian-turn-23.json',
        'turnkit show constructed/meridian-turn-23-deck-fixed.json --json',
      ),
    )
    .action(async (fixture: string, options) => {
      const { show } = await import('../../fixture/show-fixture.js');
      const { formatTable } = await import('../../util/text-table.js');
      const { visibleControls } = await import('../../util/visible-controls.js');
      const { filesContext } = await import('../../app/files-context.js');
      const summary = await show(filesContext(), { fixture });
      if (options.json) return printJson(output, summary);
      // A fixture's texts are the game's and the players': their control characters show as escapes, as in the marker.
      const out = (line: string): void => output.out(visibleControls(line));
      out(
        `${summary.name}: ${summary.root.table} ${summary.root.key}=${summary.root.value}, turn ${summary.turn} of ${summary.latestTurn}`,
      );
      out(
        `captured ${summary.capturedAt} from ${summary.database}; ${summary.turnsKept} turns kept (1..${summary.turn - 1})`,
      );
      out('');
      out(`input of turn ${summary.turn}:`);
      for (const [column, value] of Object.entries(summary.input)) out(`  ${column}: ${JSON.stringify(value)}`);
      if (summary.ahead.length > 0) {
        out(`recorded inputs ahead (turns ${summary.ahead[0]!.turn}..${summary.ahead.at(-1)!.turn}):`);
        for (const entry of summary.ahead)
          out(
            `  ${entry.turn}: ${Object.values(entry.values)
              .map((value) => JSON.stringify(value))
              .join(' / ')}`,
          );
      }
      if (summary.turns) {
        out('');
        out('kept turns (the player, then the other rows of the turn):');
        for (const entry of summary.turns) {
          const said = (text: string): string => (text.split('\n')[0] ?? '').slice(0, 100);
          out(`  turn ${entry.turn}:${entry.input.length === 0 ? ' (no input row)' : ''}`);
          for (const text of entry.input) out(`    Player: ${said(text)}`);
          for (const other of entry.others) out(`    ${other.speaker}: ${said(other.text)}`);
        }
      }
      out('');
      const rows = summary.tables.map((table) => [
        table.name,
        table.role,
        String(table.rows),
        table.sharedRows ? `+${table.sharedRows} shared` : '',
      ]);
      for (const line of formatTable([['table', 'role', 'rows', ''], ...rows])) out(line);
      if (summary.scrub) {
        const { rules, key, demoKey, allowSensitive, everywhere } = summary.scrub;
        out('');
        out(`scrubbed at capture${key ? ` with key ${key}${demoKey ? " (the demo's public key)" : ''}` : ''}:`);
        for (const line of formatTable([['column', 'transform'], ...Object.entries(rules)])) out(`  ${line}`);
        for (const line of allowSensitive) out(`  captured without a rule (--allow-sensitive): ${line}`);
        // Where else a scrubbed value (a username in the narration) was replaced by its fake.
        if (everywhere === undefined)
          out('  scrubbed values elsewhere in the text: not looked for (captured before that pass; capture again)');
        else
          out(
            `  scrubbed values also replaced in: ${everywhere.length > 0 ? everywhere.join(', ') : 'no other column'}`,
          );
      }
      if (summary.constructed) {
        out('');
        out(
          `constructed from ${summary.constructed.base}, turn ${summary.constructed.turn}: ${summary.constructed.why}`,
        );
        for (const path of summary.constructed.changes) out(`  changed ${path}`);
      }
      if (summary.reflectsPresent.length > 0) {
        out('');
        out(
          `rows of ${summary.reflectsPresent.join(', ')} show the database after turn ${summary.latestTurn}, not before turn ${summary.turn}`,
        );
      }
    });
}
