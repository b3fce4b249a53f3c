/**
 * One draw of Beta(a, b) from a seeded uniform stream, as two gamma draws: X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
 * Constant time whatever a and b are (a calibration of a million marks costs what ten do).
 */
export function betaDraw(a: number, b: number, random: () => number): number {
  const x = gammaDraw(a, random);
  const y = gammaDraw(b, random);
  return x / (x + y);
}

/**
 * One draw of Gamma(shape, 1): Marsaglia and Tsang's method (2000) for shape >= 1, and for a smaller shape a draw of
 * Gamma(shape + 1) scaled by U^(1/shape).
 */
function gammaDraw(shape: number, random: () => number): number {
  if (shape < 1) return gammaDraw(shape + 1, random) * random() ** (1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalDraw(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** One standard normal draw (Box-Muller); the uniform never gives 0 to the logarithm. */
function normalDraw(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
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
