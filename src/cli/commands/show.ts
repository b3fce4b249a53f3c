import type { Command } from 'commander';
import { printJson, type Output } from '../output.js';
import { examples } from '../help-examples.js';

/** `turnkit show FIXTURE`. */
export function registerShow(program: Command, output: Output): void {
  program
    .command('show')
    .description('print what a fixture holds: tables, row counts, turns, input')
    .argument('<fixtures...>', 'fixture files (several: each under a line naming it)')
    .option('--json', 'print the summary as JSON')
    .addHelpText(
      'after',
      examples(
        'turnkit show fixtures/meridian-turn-23.json',
        'turnkit show constructed/meridian-turn-23-deck-fixed.json --json',
        'turnkit show fixtures/meridian-turn-23.json constructed/meridian-turn-23-deck-fixed.json',
      ),
    )
    .action(async (fixtures: string[], options) => {
      const { show } = await import('../../fixture/show-fixture.js');
      const { filesContext } = await import('../../app/files-context.js');
      // Every file read before anything is printed: a bad one is its one-line error, not half a listing.
      const summaries = [];
      for (const fixture of fixtures) summaries.push(await show(filesContext(), { fixture }));
      if (options.json) return printJson(output, fixtures.length === 1 ? summaries[0] : summaries);
      for (const [i, summary] of summaries.entries()) {
        if (fixtures.length > 1) {
          if (i > 0) output.out('');
          output.out(`== ${fixtures[i]}`);
        }
        await printSummary(output, summary);
      }
    });
}

// A summary as `show` prints it; a fixture's texts are the game's and the players': their control characters show
// as escapes, as in the marker.
async function printSummary(
  output: Output,
  summary: Awaited<ReturnType<typeof import('../../fixture/show-fixture.js').show>>,
): Promise<void> {
  const { formatTable } = await import('../../util/text-table.js');
  const { visibleControls } = await import('../../util/visible-controls.js');
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
      out(`  turn ${entry.turn}:${entry.input.length === 0 ? ' (no input row)' : ''}`);
      for (const text of entry.input) for (const line of said('Player', text)) out(line);
      for (const other of entry.others) for (const line of said(other.speaker, other.text)) out(line);
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
      out(`  scrubbed values also replaced in: ${everywhere.length > 0 ? everywhere.join(', ') : 'no other column'}`);
  }
  if (summary.constructed) {
    out('');
    out(`constructed from ${summary.constructed.base}, turn ${summary.constructed.turn}: ${summary.constructed.why}`);
    for (const path of summary.constructed.changes) out(`  changed ${path}`);
  }
  if (summary.reflectsPresent.length > 0) {
    out('');
    out(
      `rows of ${summary.reflectsPresent.join(', ')} show the database after turn ${summary.latestTurn}, not before turn ${summary.turn}`,
    );
  }
}

// The lines of a row's text, the speaker on the first and the rest indented under it, up to 12 lines of 200
// characters (an NPC's moves are several lines: the first alone read `ai: NPC moves:`).
function said(speaker: string, text: string): string[] {
  const lines = text.split('\n').map((line) => (line.length > 200 ? `${line.slice(0, 200)}…` : line));
  const shown = lines.slice(0, 12);
  const more = lines.length - shown.length;
  return [
    `    ${speaker}: ${shown[0] ?? ''}`,
    ...shown.slice(1).map((line) => `      ${line}`),
    ...(more > 0 ? [`      … (${more} more line(s))`] : []),
  ];
}
