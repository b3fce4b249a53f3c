import { TurnkitError } from '../errors.js';

/** The upstream turns one variant neutralises together, and the label the ranking shows for them. */
export interface TurnSelection {
  label: string;
  turns: number[];
}

/**
 * The variants to try over upstream turns `1..upstream`: `spec` is "each" (one variant per turn), "window:N" (runs of
 * N consecutive turns, not overlapping, the last one shorter), or a list of turns and ranges ("3,7,10-12"), each
 * listed item a variant of its own. `place` names where the spec came from, for the one-line error.
 */
export function selectTurns(spec: string, upstream: number, place: string): TurnSelection[] {
  const bad = (why: string): TurnkitError => new TurnkitError('BAD_INPUT', `${place}: "${spec}" ${why}`);
  if (!Number.isInteger(upstream) || upstream < 1) throw bad('has no upstream turn to neutralise');
  const trimmed = spec.trim();
  if (trimmed === 'each') return range(1, upstream).map((t) => ({ label: `turn ${t}`, turns: [t] }));
  const window = /^window:(\d+)$/.exec(trimmed);
  if (window) {
    const size = Number(window[1]);
    if (size < 1) throw bad('needs a window of at least 1 turn');
    const out: TurnSelection[] = [];
    for (let from = 1; from <= upstream; from += size) {
      const to = Math.min(upstream, from + size - 1);
      out.push({ label: from === to ? `turn ${from}` : `turns ${from}-${to}`, turns: range(from, to) });
    }
    return out;
  }
  const out: TurnSelection[] = [];
  const seen = new Set<string>();
  for (const item of trimmed.split(',').map((s) => s.trim())) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(item);
    if (!match) throw bad(`is not "each", "window:N" or a list of turns and ranges (at "${item}")`);
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > upstream || from > to)
      throw bad(`names turns outside 1-${upstream} (the fixture's upstream turns) at "${item}"`);
    const label = from === to ? `turn ${from}` : `turns ${from}-${to}`;
    // A turn listed twice would be a second arm testing the same thing and would only cost Holm power.
    if (seen.has(label)) throw bad(`lists ${label} twice`);
    seen.add(label);
    out.push({ label, turns: range(from, to) });
  }
  return out;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
