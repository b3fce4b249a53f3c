import { holmAdjust } from '../stats/holm.js';
import { fisherExact, type Interval, wilsonInterval } from '../stats/stats.js';

/** Pass and fail counts of one arm (the base fixture, or one neutralised variant of it). */
export interface ArmCounts {
  pass: number;
  fail: number;
}

/** One variant's place in the ranking: its rate, interval, and exact test against the base. */
export interface RankedVariant {
  /** The variant's label as given (e.g. "turn 19"). */
  label: string;
  pass: number;
  fail: number;
  rate: number | undefined;
  interval: Interval | undefined;
  /** Variant rate minus base rate: positive when neutralising the turn helped the SUT. */
  change: number | undefined;
  /** Two-sided Fisher exact p against the base. */
  p: number;
  /** Holm-adjusted over every variant shown together. */
  holmP: number;
}

const rateOf = (arm: ArmCounts): number | undefined =>
  arm.pass + arm.fail === 0 ? undefined : arm.pass / (arm.pass + arm.fail);

/**
 * Ranks variants by how much neutralising them raised the pass rate over the base (largest first; ties by the
 * smaller p, then by label order as given so the ranking is reproducible). Every variant is tested against the base
 * and the p-values are Holm-adjusted together, so "significant" keeps its familywise error rate over the variants.
 */
export function rankVariants(base: ArmCounts, variants: readonly (ArmCounts & { label: string })[]): RankedVariant[] {
  const baseRate = rateOf(base);
  const ps = variants.map((v) => fisherExact(v.pass, v.fail, base.pass, base.fail));
  const adjusted = holmAdjust(ps);
  const rows = variants.map((v, index) => {
    const rate = rateOf(v);
    return {
      index,
      row: {
        label: v.label,
        pass: v.pass,
        fail: v.fail,
        rate,
        interval: wilsonInterval(v.pass, v.pass + v.fail),
        change: rate === undefined || baseRate === undefined ? undefined : rate - baseRate,
        p: ps[index]!,
        holmP: adjusted[index]!,
      },
    };
  });
  rows.sort(
    (a, b) =>
      (b.row.change ?? Number.NEGATIVE_INFINITY) - (a.row.change ?? Number.NEGATIVE_INFINITY) ||
      a.row.p - b.row.p ||
      a.index - b.index,
  );
  return rows.map((r) => r.row);
}
