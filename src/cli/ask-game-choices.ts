import { createInterface } from 'node:readline/promises';
import type { Catalog } from '../db/catalog-types.js';
import type { GameChoices } from '../init/choose-game.js';
import { guessGame } from '../init/guess-game.js';

/** Asks for each of the game's names at the terminal, the guess (or the flag's value) as the default. */
export async function askGameChoices(catalog: Catalog, given: GameChoices): Promise<GameChoices> {
  const guess = guessGame(catalog);
  const prompts = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const ask = async (question: string, fallback: string | undefined): Promise<string | undefined> => {
      const answer = (await prompts.question(`${question}${fallback ? ` [${fallback}]` : ''}: `)).trim();
      return answer || fallback;
    };
    const root = await ask('campaign table (one row = one campaign)', given.root ?? guess?.root.table);
    const turns = await ask('turns table', given.turns ?? guess?.turns.table);
    const order = await ask('turn order column (integer or timestamp)', given.order ?? guess?.turns.order);
    const input = await ask('player input columns (comma-separated)', (given.input ?? guess?.turns.input)?.join(','));
    return {
      ...given,
      root,
      turns,
      order,
      input: input
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    };
  } finally {
    prompts.close();
  }
}
