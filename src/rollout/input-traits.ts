import type { RepRecord } from '../run-dir/rep-record.js';

/**
 * How the players' inputs of a rollout read, over every turn after the first (the fixture's own input is the same in
 * every run): how long they are, how often they ask, refuse, or ignore the narration before them. The last three are
 * plain text heuristics (documented in the rollouts guide), meant for comparing a simulated player with recorded ones.
 */
export interface InputTraits {
  /** Player inputs counted. */
  inputs: number;
  /** Mean length in characters; null with no input. */
  meanLength: number | null;
  /** Inputs holding a question mark. */
  questions: number;
  /** Inputs that refuse or decline (`no`, `I won't`, `refuse`, `I'd rather not`, `leave me alone`...). */
  refusals: number;
  /** Inputs sharing no word of four letters or more with the narration just before them (off the story's track). */
  derails: number;
}

const REFUSAL =
  /\b(no|nope|never|refuse[sd]?|won'?t|will not|don'?t want|do not want|not going to|rather not|leave me alone|stop|quit)\b/i;

/** The traits of the player inputs (turns 2..K) of a run's rollout reps. */
export function inputTraits(records: readonly RepRecord[]): InputTraits {
  let inputs = 0;
  let length = 0;
  let questions = 0;
  let refusals = 0;
  let derails = 0;
  for (const record of records) {
    const turns = record.turns ?? [];
    for (let i = 1; i < turns.length; i++) {
      const text = inputText(turns[i]!.input);
      inputs++;
      length += text.length;
      if (text.includes('?')) questions++;
      if (REFUSAL.test(text)) refusals++;
      if (!sharesAWord(text, turns[i - 1]!.response ?? '')) derails++;
    }
  }
  return { inputs, meanLength: inputs > 0 ? length / inputs : null, questions, refusals, derails };
}

// The input's text: its one value, or every string value of a column map, joined.
function inputText(input: Record<string, unknown>): string {
  return Object.values(input)
    .filter((value): value is string => typeof value === 'string')
    .join(' ');
}

function sharesAWord(text: string, narration: string): boolean {
  const words = (value: string) => new Set(value.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
  const before = words(narration);
  for (const word of words(text)) if (before.has(word)) return true;
  return false;
}
