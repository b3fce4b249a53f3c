/** The number formats of `turnkit report`'s text tables, as the page script shows them. */

/** Counts and rate of a fixture or a tag's total. */
export interface RateLike {
  rate: number | null;
  pass: number;
  fail: number;
  /** The denominator under the run's errors policy, when the report gives it. */
  n?: number | undefined;
  wilson?: { low: number; high: number } | null | undefined;
}

/** "0.50 (2/4)": the rate and the pass/fail counts it is of. */
export function rateText(m: RateLike): string {
  return m.rate === null ? '-' : `${m.rate.toFixed(2)} (${m.pass}/${m.n ?? m.pass + m.fail})`;
}

/** "[0.15, 0.85]": the Wilson interval. */
export function intervalText(m: RateLike): string {
  return m.wilson ? `[${m.wilson.low.toFixed(2)}, ${m.wilson.high.toFixed(2)}]` : '-';
}

/** A fixture's verdict as the text report words it: "met (uncertain)", "no verdict". */
export function verdictText(f: { verdict: string; uncertain: boolean }): string {
  return (f.verdict === 'none' ? 'no verdict' : f.verdict) + (f.uncertain ? ' (uncertain)' : '');
}

/** A delta with its sign (± for none). */
export function signedText(d: number | null): string {
  return d === null ? '-' : (d > 0 ? '+' : d < 0 ? '-' : '\u00b1') + Math.abs(d).toFixed(2);
}

/** A p-value, "<0.001" below that. */
export function pText(p: number | null): string {
  return p === null ? '-' : p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** The SUT's median/p95 latency in ms. */
export function latencyText(f: { latency: { median: number | null; p95: number | null } }): string {
  return f.latency.median === null ? '-' : `${Math.round(f.latency.median)}/${Math.round(f.latency.p95 ?? 0)}`;
}
