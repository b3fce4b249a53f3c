/**
 * Holm's step-down adjustment (Holm 1979) of p-values shown together: sort ascending, multiply the i-th smallest
 * (0-based) by (m - i), carry the running maximum so the order is kept, cap at 1. Returned in the input's order;
 * null stays null and does not count towards m.
 */
export function holmAdjust(ps: readonly (number | null)[]): (number | null)[] {
  const present = ps.flatMap((p, index) => (p === null ? [] : [{ p, index }])).sort((a, b) => a.p - b.p);
  const m = present.length;
  const adjusted: (number | null)[] = ps.map(() => null);
  let running = 0;
  for (const [rank, { p, index }] of present.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  }
  return adjusted;
}
