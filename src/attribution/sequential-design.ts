import { TurnkitError } from '../errors.js';
import { type ArmCounts, type RankedVariant, rankVariants } from './rank-variants.js';

/** How many reps per arm each look adds, how many looks at most, and the familywise error rate to keep. */
export interface SequentialDesign {
  repsPerLook: number;
  maxLooks: number;
  alpha: number;
}

/**
 * Runs look `look` (1, 2, ...): `reps` more reps of every arm at once, and returns each arm's passes and fails, the
 * base first and then the variants in the order labelled. Reps that errored or were marked n/a count in neither.
 */
export type DrawLook = (look: number, reps: number) => Promise<ArmCounts[]>;

/** The outcome of a sequential attribution: the ranking at the last look, and what it cost. */
export interface SequentialOutcome {
  /** The base fixture's counts at the last look. */
  base: ArmCounts;
  ranking: RankedVariant[];
  looks: number;
  /** Reps run over every arm, base included. */
  repsSpent: number;
  /** The per-look level a Holm-adjusted p must reach: alpha split evenly over the looks. */
  levelPerLook: number;
  /** Labels of the variants significant at the look the design stopped at (empty when none). */
  significant: string[];
}

/**
 * A simple group-sequential design: after each look every variant is tested against the base, Holm over the
 * variants, at alpha / maxLooks (Bonferroni over the looks). Stopping at the first look with a significant variant
 * therefore keeps the familywise error rate at alpha whatever the data; it is conservative next to O'Brien-Fleming,
 * but needs no boundary tables and is exact for any number of looks.
 */
export async function sequentialAttribution(
  labels: readonly string[],
  draw: DrawLook,
  design: SequentialDesign,
): Promise<SequentialOutcome> {
  if (!(design.alpha > 0 && design.alpha < 1))
    throw new TurnkitError('BAD_INPUT', `alpha: ${design.alpha} is not between 0 and 1`);
  if (!Number.isInteger(design.repsPerLook) || design.repsPerLook < 1)
    throw new TurnkitError('BAD_INPUT', `reps per look: ${design.repsPerLook} is not a whole number of at least 1`);
  if (!Number.isInteger(design.maxLooks) || design.maxLooks < 1)
    throw new TurnkitError('BAD_INPUT', `looks: ${design.maxLooks} is not a whole number of at least 1`);
  if (labels.length === 0) throw new TurnkitError('BAD_INPUT', 'variants: none to attribute');
  const levelPerLook = design.alpha / design.maxLooks;
  const base: ArmCounts = { pass: 0, fail: 0 };
  const arms: ArmCounts[] = labels.map(() => ({ pass: 0, fail: 0 }));
  let ranking: RankedVariant[] = [];
  let significant: string[] = [];
  let looks = 0;
  let repsSpent = 0;
  while (looks < design.maxLooks) {
    looks++;
    const got = await draw(looks, design.repsPerLook);
    if (got.length !== labels.length + 1)
      throw new Error(`look ${looks}: ${got.length} arms counted, ${labels.length + 1} expected`);
    got.forEach((counts, arm) => {
      const into = arm === 0 ? base : arms[arm - 1]!;
      into.pass += counts.pass;
      into.fail += counts.fail;
    });
    repsSpent += design.repsPerLook * got.length;
    ranking = rankVariants(
      base,
      arms.map((a, i) => ({ ...a, label: labels[i]! })),
    );
    significant = ranking.filter((r) => r.holmP <= levelPerLook).map((r) => r.label);
    if (significant.length > 0) break;
  }
  return { base, ranking, looks, repsSpent, levelPerLook, significant };
}
