/**
 * A seeded pseudo-random stream (mulberry32): the bootstrap draws the same numbers on every machine and every run,
 * so a report read twice is byte-identical. Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One draw of Binomial(n, p) as n Bernoulli trials: exact, and n is a count of reps (hundreds, not millions). */
export function binomialDraw(n: number, p: number, random: () => number): number {
  let successes = 0;
  for (let i = 0; i < n; i++) if (random() < p) successes++;
  return successes;
}

/** A 32-bit seed from text (FNV-1a), so each estimate has its own stream whatever order they are computed in. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
