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
