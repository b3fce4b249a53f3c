import { createInterface } from 'node:readline/promises';
import type { Catalog } from '../db/catalog-types.js';
import { TurnkitError } from '../errors.js';
import { type ChosenGame, type GameChoices, GameChooser } from '../init/game-questions.js';
import type { InitFacts } from '../init/read-facts.js';
import type { Output } from './output.js';

// More would scroll the question off a small terminal; a name not listed can still be typed.
const SHOWN = 9;

/**
 * Asks each of the game's questions at the terminal with numbered candidates, the flag's value or the best
 * candidate as the default; a wrong answer is re-asked with the reason.
 */
export async function askGameChoices(
  catalog: Catalog,
  facts: InitFacts,
  given: GameChoices,
  output: Output,
): Promise<ChosenGame> {
  const chooser = new GameChooser(catalog, facts, given);
  const prompts = createInterface({ input: process.stdin, output: process.stdout });
  // Ctrl-C, Ctrl-D or a closed stdin end init instead of leaving it waiting for an answer that never comes.
  const closed = new Promise<never>((_, reject) =>
    prompts.once('close', () =>
      reject(
        new TurnkitError(
          'USAGE',
          'init: stopped before every question was answered (Ctrl-C or end of input); nothing written',
        ),
      ),
    ),
  );
  closed.catch(() => {});
  try {
    for (let question = chooser.next(); question; question = chooser.next()) {
      // A question not asked (the key of a one-column primary key) is asked after all when its answer is wrong.
      const unasked = question.ask ? undefined : chooser.answer(undefined);
      if (!question.ask && unasked === undefined) continue;
      // Nothing to offer and nothing given (no table has turns below it): asking again and again would not help.
      if (question.candidates.length === 0 && question.fallback === undefined)
        throw new TurnkitError('USAGE', `init: ${question.missing}`);
      if (question.candidates.length > 0) {
        output.out(`${question.prompt}:`);
        question.candidates.slice(0, SHOWN).forEach((candidate, i) => {
          output.out(`  ${i + 1}) ${candidate.value}  ${candidate.why}`);
        });
      }
      if (unasked !== undefined) output.out(`  ${unasked}; answer again`);
      for (;;) {
        const reply = await Promise.race([
          prompts.question(`${question.prompt}${question.fallback ? ` [${question.fallback}]` : ''}: `),
          closed,
        ]);
        const problem = chooser.answer(reply);
        if (problem === undefined) break;
        output.out(`  ${problem}; answer again`);
      }
    }
    return chooser.result();
  } finally {
    prompts.close();
  }
}
