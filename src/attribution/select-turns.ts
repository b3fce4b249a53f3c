import { TurnkitError } from '../errors.js';

/** The upstream turns one variant neutralises together, and the label the ranking shows for them. */
export interface TurnSelection {
  label: string;
  turns: number[];
}

/**
 * The variants to try over a fixture's upstream turns `kept` (their numbers, ascending: 1..N, or a game's own numbers
 * with a prologue 0 or gaps). `spec` chooses the turns: "each" (every kept turn) or a list of turns and ranges
 * ("3,7,10-12": the kept turns they name). `window` groups the chosen turns, in order, into variants of that many
 * turns each (the last one shorter); 1, the default, is one variant per turn. `place` names where the spec came from,
 * for the one-line error.
 */
export function selectTurns(spec: string, kept: readonly number[], place: string, window = 1): TurnSelection[] {
  const bad = (why: string): TurnkitError => new TurnkitError('BAD_INPUT', `${place}: "${spec}" ${why}`);
  if (kept.length === 0) throw bad('has no upstream turn to neutralise');
  if (!Number.isInteger(window) || window < 1)
    throw new TurnkitError('BAD_INPUT', `--window: ${window} is not a whole number of at least 1`);
  const chosen = spec.trim() === 'each' ? [...kept] : listedTurns(spec, kept, bad);
  const out: TurnSelection[] = [];
  for (let from = 0; from < chosen.length; from += window) out.push(selection(chosen.slice(from, from + window)));
  return out;
}

// The kept turns a list of turns and ranges names, ascending; a turn named twice, or one not kept, is refused.
function listedTurns(spec: string, kept: readonly number[], bad: (why: string) => TurnkitError): number[] {
  const span = `${kept[0]}-${kept[kept.length - 1]}`;
  const chosen = new Set<number>();
  for (const item of spec.split(',').map((s) => s.trim())) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(item);
    if (!match) throw bad(`is not "each" or a list of turns and ranges like "15-22" or "3,19" (at "${item}")`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from > to) throw bad(`starts after it ends at "${item}" (write ${to}-${from})`);
    const turns = kept.filter((t) => t >= from && t <= to);
    const outside = from > to || from < kept[0]! || to > kept[kept.length - 1]!;
    if (outside || turns.length === 0 || (from === to && turns[0] !== from))
      throw bad(`names turns outside ${span} (the fixture's upstream turns) at "${item}"`);
    for (const turn of turns) {
      // A turn named twice would be a second arm testing the same thing and would only cost Holm power.
      if (chosen.has(turn)) throw bad(`names turn ${turn} twice`);
      chosen.add(turn);
    }
  }
  return [...chosen].sort((a, b) => a - b);
}

function selection(turns: number[]): TurnSelection {
  const first = turns[0]!;
  const last = turns[turns.length - 1]!;
  if (first === last) return { label: `turn ${first}`, turns };
  // A window over turns with gaps between them names each, so that the label never claims a turn it left out.
  const consecutive = last - first === turns.length - 1;
  return { label: consecutive ? `turns ${first}-${last}` : `turns ${turns.join(', ')}`, turns };
}
