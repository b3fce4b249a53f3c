import type { RepRecord } from '../run-dir/rep-record.js';

/** The most characters of the state a judge is shown: the changes of a rep, not a dump of its campaign. */
const JUDGE_STATE_LIMIT = 4_000;

/**
 * What a state-grounded judge sees beside the response: what the SUT changed in its campaign (rows inserted, columns
 * updated before and after, rows deleted, by key in the fixture's terms) and the question's facts as the rep read
 * them before its turn. Only what the rep recorded: scrubbed columns hold their fakes, never the originals; tables
 * the question hides from the player (`hidden:`) are left out, values and all.
 */
export function stateForJudge(record: RepRecord, hiddenTables: ReadonlySet<string>): string {
  const lines: string[] = [];
  const effects = record.effects;
  if (!effects) lines.push('What the game master changed: not recorded for this rep.');
  else {
    const tables = [
      ...new Set([...Object.keys(effects.inserted), ...Object.keys(effects.updated), ...Object.keys(effects.deleted)]),
    ]
      .filter((table) => !hiddenTables.has(table))
      .sort();
    lines.push(tables.length === 0 ? 'What the game master changed: nothing.' : 'What the game master changed:');
    for (const table of tables) {
      // Rows counted beyond the ones the rep recorded whole.
      const more = (count: number | undefined, shown: number, what: string): void => {
        if ((count ?? 0) > shown) lines.push(`- ${table}: ${(count ?? 0) - shown} ${what}`);
      };
      for (const row of effects.insertedRows[table] ?? []) lines.push(`- ${table}: inserted ${JSON.stringify(row)}`);
      more(effects.inserted[table], effects.insertedRows[table]?.length ?? 0, 'more row(s) inserted');
      for (const row of effects.updatedRows?.[table] ?? [])
        lines.push(
          `- ${table} ${keyText(row.key)}: ${Object.entries(row.changed)
            .map(([column, { before, after }]) => `${column} ${JSON.stringify(before)} -> ${JSON.stringify(after)}`)
            .join(', ')}`,
        );
      more(effects.updated[table], effects.updatedRows?.[table]?.length ?? 0, 'row(s) updated');
      const deletedKeys = effects.deletedRows?.[table] ?? [];
      for (const key of deletedKeys) lines.push(`- ${table} ${keyText(key)}: deleted`);
      more(effects.deleted[table], deletedKeys.length, 'row(s) deleted');
    }
  }
  const facts = Object.entries(record.facts ?? {});
  if (facts.length > 0) {
    lines.push('', "Facts of the campaign before the game master's turn:");
    for (const [name, { before }] of facts) {
      const others = (before.alternatives ?? []).filter((value) => value !== before.value);
      lines.push(
        `- ${name}: ${before.value ?? '(none)'}${others.length > 0 ? ` (the campaign's other values: ${others.join(', ')})` : ''}`,
      );
    }
  }
  const text = lines.join('\n');
  return text.length > JUDGE_STATE_LIMIT ? `${text.slice(0, JUDGE_STATE_LIMIT)}\n... (cut)` : text;
}

function keyText(key: Record<string, unknown>): string {
  return `[${Object.entries(key)
    .map(([column, value]) => `${column}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ')}]`;
}
