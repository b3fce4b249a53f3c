import type { Catalog, TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { didYouMean } from '../config/config-place.js';
import { TurnkitError } from '../errors.js';
import { guessGame, guessInput, guessOutput, type GameGuess } from './guess-game.js';
import type { SutLanguage } from './starter-sut.js';
import type { StarterAnswers } from './starter-files.js';

/** What a person chose at the prompts or with flags; anything left out is guessed from the catalog. */
export interface GameChoices {
  root?: string | undefined;
  key?: string | undefined;
  turns?: string | undefined;
  order?: string | undefined;
  input?: string[] | undefined;
  shared?: string[] | undefined;
  sut?: SutLanguage | undefined;
}

/**
 * The game's names from the choices, the rest guessed from the catalog; each named table and column must exist
 * (an error names the flag). A catalog without a table of turns is an error saying what to pass.
 */
export function chooseGame(catalog: Catalog, choices: GameChoices): Omit<StarterAnswers, 'scrub'> {
  const guess: Partial<GameGuess> = guessGame(catalog) ?? {};
  const turnsName = choices.turns ?? guess.turns?.table;
  const rootName =
    choices.root ?? (choices.turns === undefined ? guess.root?.table : referencedRoot(catalog, choices.turns));
  if (!turnsName || !rootName) {
    throw new TurnkitError(
      'USAGE',
      'init: no table of the database looks like turns of a campaign; name them with --root TABLE --turns TABLE --order COLUMN --input COLUMN',
    );
  }
  const turns = tableNamed(catalog, turnsName, '--turns');
  const root = tableNamed(catalog, rootName, '--root');
  const key = choices.key ?? (root.name === guess.root?.table ? guess.root.key : root.primaryKey[0]);
  if (!key)
    throw new TurnkitError(
      'USAGE',
      `init: ${root.name} has no single-column primary key; name its key with --key COLUMN`,
    );
  columnNamed(root, key, '--key');
  const link = turns.foreignKeys.find(
    (foreignKey) => foreignKey.references.table === root.name && foreignKey.columns.length === 1,
  );
  if (!link)
    throw new TurnkitError(
      'USAGE',
      `init: ${turns.name} has no foreign key to ${root.name}; a turn must name its campaign`,
    );
  const order = choices.order ?? (turns.name === guess.turns?.table ? guess.turns.order : undefined);
  if (!order) throw new TurnkitError('USAGE', `init: name the order column of ${turns.name} with --order COLUMN`);
  columnNamed(turns, order, '--order');
  const input = choices.input ?? (turns.name === guess.turns?.table ? guess.turns.input : guessInput(turns));
  if (input.length === 0)
    throw new TurnkitError('USAGE', `init: name the player's input columns of ${turns.name} with --input COLUMN`);
  for (const column of input) columnNamed(turns, column, '--input');
  const shared = choices.shared ?? (guess.shared ?? []).filter((name) => name !== root.name && name !== turns.name);
  for (const name of shared) tableNamed(catalog, name, '--shared');
  return {
    root: { table: root.name, key },
    turns: { table: turns.name, order, input },
    shared,
    output: guessOutput(turns),
    caseTables: caseTables(catalog, root, turns),
    sut: choices.sut ?? 'node',
    turnsSql: turns.sql,
    campaignColumnSql: quoteIdent(link.columns[0]!),
  };
}

/** The table a turns table's foreign key points at (the campaign), when the person named only the turns. */
function referencedRoot(catalog: Catalog, turnsName: string): string | undefined {
  return tableNamed(catalog, turnsName, '--turns').foreignKeys[0]?.references.table;
}

/** Up to two tables of a campaign besides its turns, with a few text columns each, for the case file. */
function caseTables(catalog: Catalog, root: TableInfo, turns: TableInfo): StarterAnswers['caseTables'] {
  return [...catalog.tables.values()]
    .filter(
      (table) =>
        table.name !== turns.name && table.foreignKeys.some((foreignKey) => foreignKey.references.table === root.name),
    )
    .slice(0, 2)
    .map((table) => ({
      table: table.name,
      columns: table.columns
        .filter((column) => /^(text|character varying|varchar|citext)/.test(column.type))
        .slice(0, 3)
        .map((column) => column.name),
    }));
}

function tableNamed(catalog: Catalog, name: string, flag: string): TableInfo {
  const table = catalog.tables.get(name);
  if (!table)
    throw new TurnkitError(
      'USAGE',
      `init ${flag} ${name}: no such table in the database${didYouMean(name, [...catalog.tables.keys()])} (it has ${[...catalog.tables.keys()].join(', ') || 'no tables'})`,
    );
  return table;
}

function columnNamed(table: TableInfo, name: string, flag: string): void {
  if (!table.columns.some((column) => column.name === name)) {
    throw new TurnkitError(
      'USAGE',
      `init ${flag} ${name}: ${table.name} has no such column${didYouMean(
        name,
        table.columns.map((column) => column.name),
      )} (it has ${table.columns.map((column) => column.name).join(', ')})`,
    );
  }
}
