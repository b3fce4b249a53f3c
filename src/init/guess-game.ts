import type { Catalog } from '../db/catalog-types.js';
import { GameChooser } from './game-questions.js';
import { NO_FACTS, type InitFacts } from './read-facts.js';

/** What `init` proposes for the game config, read from the catalog; every field can be overridden by a flag. */
export interface GameGuess {
  root: { table: string; key: string };
  turns: {
    table: string;
    order: string;
    input: string[];
    turn?: string | undefined;
    role?: { column: string; input: string[]; output?: string | undefined } | undefined;
  };
  /** Tables of players and accounts: captured when referenced, never owned by a campaign. */
  shared: string[];
}

/** The best guess for the game config (every question's proposal), or undefined when no table looks like turns. */
export function guessGame(catalog: Catalog, facts: InitFacts = NO_FACTS): GameGuess | undefined {
  const chooser = new GameChooser(catalog, facts);
  for (let question = chooser.next(); question; question = chooser.next()) {
    if (chooser.answer(undefined) !== undefined) return undefined;
  }
  const { root, turns, shared } = chooser.result();
  return { root, turns, shared };
}
