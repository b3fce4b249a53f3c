import type { Catalog, ColumnInfo, TableInfo } from '../db/catalog-types.js';

/** What `init` proposes for the game config, read from the catalog; every field can be overridden by a flag. */
export interface GameGuess {
  root: { table: string; key: string };
  turns: { table: string; order: string; input: string[] };
  /** Tables of players and accounts: captured when referenced, never owned by a campaign. */
  shared: string[];
}

/** Other candidates, best first, for a person choosing at the prompts. */
export interface GameCandidates {
  turns: { table: string; root: string; order: string; score: number }[];
}

const TURNS_NAME = /turn|message|move|event|round|entr(y|ies)|post|action|log/i;
const ROOT_NAME = /campaign|game|session|adventure|story|conversation|chat|thread|world|run/i;
const ORDER_NAME = /turn|number|num|seq|order|index|idx|position|step|created|sent|at$/i;
const INPUT_NAME = /input|player|prompt|content|message|text|command|action|said|body/i;
const OUTPUT_NAME = /narrat|response|output|reply|answer|assistant|summary|gm|master/i;
// Text a person or a model writes (not uuids, enums or arrays, which the catalog also decodes as text).
const TEXT_TYPE = /^(text|character varying|varchar|citext|character)\b(?!.*\[\])/;
const SHARED_NAME = /^(users?|players?|accounts?|profiles?|members?)$/i;

/** The candidates for the turns table: a table with a foreign key to another table and an order column. */
export function turnCandidates(catalog: Catalog): GameCandidates['turns'] {
  const candidates: GameCandidates['turns'] = [];
  for (const table of catalog.tables.values()) {
    for (const foreignKey of table.foreignKeys) {
      const root = catalog.tables.get(foreignKey.references.table);
      if (!root || root.name === table.name || root.primaryKey.length !== 1) continue;
      for (const column of table.columns) {
        if (
          !isOrderColumn(column) ||
          foreignKey.columns.includes(column.name) ||
          table.primaryKey.includes(column.name)
        )
          continue;
        let score = 0;
        if (TURNS_NAME.test(table.table)) score += 4;
        if (ROOT_NAME.test(root.table)) score += 3;
        if (ORDER_NAME.test(column.name)) score += 2;
        if (/^(turn|turn_number|seq|position|number)$/i.test(column.name)) score += 2;
        if (textColumns(table).length > 0) score += 1;
        // A root that itself points at another root-like table is less likely the campaign (characters -> users).
        if (root.foreignKeys.length === 0) score += 1;
        candidates.push({ table: table.name, root: root.name, order: column.name, score });
      }
    }
  }
  return candidates.sort(
    (a, b) => b.score - a.score || a.table.localeCompare(b.table) || a.order.localeCompare(b.order),
  );
}

/** The best guess for the game config, or undefined when no table looks like turns of a campaign. */
export function guessGame(catalog: Catalog): GameGuess | undefined {
  const best = turnCandidates(catalog)[0];
  if (!best) return undefined;
  const turns = catalog.tables.get(best.table)!;
  const root = catalog.tables.get(best.root)!;
  return {
    root: { table: root.name, key: root.primaryKey[0]! },
    turns: { table: turns.name, order: best.order, input: guessInput(turns) },
    shared: [...catalog.tables.values()]
      .filter((table) => SHARED_NAME.test(table.table) && table.name !== root.name)
      .map((table) => table.name),
  };
}

/** The turns table's input columns: text columns named like what a player types, never like the SUT's answer. */
export function guessInput(turns: TableInfo): string[] {
  const texts = textColumns(turns);
  const named = texts.filter((column) => INPUT_NAME.test(column) && !OUTPUT_NAME.test(column));
  if (named.length > 0) return named.slice(0, 1);
  const notOutput = texts.filter((column) => !OUTPUT_NAME.test(column));
  return (notOutput.length > 0 ? notOutput : texts).slice(0, 1);
}

/** The turns table's columns the SUT's answer likely goes in (for the starter SUT and case file). */
export function guessOutput(turns: TableInfo): string | undefined {
  return textColumns(turns).find((column) => OUTPUT_NAME.test(column));
}

function textColumns(table: TableInfo): string[] {
  const keys = new Set([...table.primaryKey, ...table.foreignKeys.flatMap((foreignKey) => foreignKey.columns)]);
  return table.columns
    .filter((column) => TEXT_TYPE.test(column.type) && !keys.has(column.name) && !column.generated)
    .map((column) => column.name);
}

function isOrderColumn(column: ColumnInfo): boolean {
  return ['int', 'bigint', 'numeric', 'timestamp', 'timestamptz'].includes(column.codec.kind) && !column.generated;
}
