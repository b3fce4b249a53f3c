import type { Catalog, TableInfo } from '../db/catalog-types.js';
import { quoteIdent } from '../db/quote.js';
import { TurnkitError } from '../errors.js';
import { outputColumn, textColumns } from './candidates.js';
import { linksOf, pathUp, tablesBelow } from './game-shape.js';
import { type ChosenGame, type GameChoices, GameChooser } from './game-questions.js';
import { hintOf } from './chooser-state.js';
import { NO_FACTS, type InitFacts } from './read-facts.js';
import type { StarterAnswers } from './starter-files.js';

export type { GameChoices } from './game-questions.js';

/** The game from the choices (flags), proposals for the rest, checked in prompt order: an error names its flag. */
export function chooseGame(
  catalog: Catalog,
  choices: GameChoices,
  facts: InitFacts = NO_FACTS,
): Omit<StarterAnswers, 'scrub'> {
  const chooser = new GameChooser(catalog, facts, choices);
  for (let question = chooser.next(); question; question = chooser.next()) {
    const text = hintOf(choices, question.id);
    if (text === undefined && question.fallback === undefined)
      throw new TurnkitError('USAGE', `init: ${question.missing}`);
    const problem = chooser.answer(text);
    if (problem === undefined) continue;
    const value = text ?? question.fallback!;
    // The reason starts with the name it is about; the flag's value says it once.
    const reason = problem.startsWith(`${value}: `) ? problem.slice(value.length + 2) : problem;
    throw new TurnkitError('USAGE', `init ${question.flag} ${value}: ${reason}`);
  }
  return starterAnswers(catalog, chooser.result(), choices);
}

/** The starter files' answers for a chosen game: its names, the stub's query and the case file's tables. */
export function starterAnswers(
  catalog: Catalog,
  game: ChosenGame,
  choices: Pick<GameChoices, 'sut'>,
): Omit<StarterAnswers, 'scrub'> {
  const root = catalog.tables.get(game.root.table)!;
  const turns = catalog.tables.get(game.turns.table)!;
  return {
    ...game,
    output: game.turns.role ? undefined : outputColumn(turns),
    caseTables: caseTables(catalog, root, turns, new Set(game.shared)),
    sut: choices.sut ?? 'node',
    ...stubQuery(catalog, game, turns),
  };
}

// The stub counts a campaign's turn rows: from the turns table joined up to the column holding the campaign's key.
function stubQuery(
  catalog: Catalog,
  game: ChosenGame,
  turns: TableInfo,
): { turnsSql: string; campaignColumnSql: string } {
  const links = linksOf(catalog);
  const path = pathUp(turns.name, game.root.table, links, tablesBelow(game.root.table, links)) ?? [];
  const last = path.at(-1);
  if (path.length === 1 && last && last.columns.length === 1 && last.toColumns[0] === game.root.key)
    return { turnsSql: turns.sql, campaignColumnSql: quoteIdent(last.columns[0]!) };
  // The root's own row is not needed when the last link holds its key: join up to the table that holds it.
  const steps = last && last.columns.length === 1 && last.toColumns[0] === game.root.key ? path.slice(0, -1) : path;
  const joins = [`${turns.sql} AS t0`];
  steps.forEach((link, i) => {
    const on = link.columns.map(
      (column, j) => `t${i + 1}.${quoteIdent(link.toColumns[j]!)} = t${i}.${quoteIdent(column)}`,
    );
    joins.push(`JOIN ${catalog.tables.get(link.to)!.sql} AS t${i + 1} ON ${on.join(' AND ')}`);
  });
  const campaignColumn = steps.length < path.length ? last!.columns[0]! : game.root.key;
  return { turnsSql: joins.join(' '), campaignColumnSql: `t${steps.length}.${quoteIdent(campaignColumn)}` };
}

/** Up to two tables of a campaign besides its turns, with a few text columns each, for the case file. */
function caseTables(
  catalog: Catalog,
  root: TableInfo,
  turns: TableInfo,
  shared: ReadonlySet<string>,
): StarterAnswers['caseTables'] {
  return [...catalog.tables.values()]
    .filter(
      (table) =>
        table.name !== turns.name &&
        !shared.has(table.name) &&
        table.foreignKeys.some((foreignKey) => foreignKey.references.table === root.name),
    )
    .slice(0, 2)
    .map((table) => ({ table: table.name, columns: textColumns(table).slice(0, 3) }));
}
