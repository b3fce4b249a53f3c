import type { ReadMark } from '../run-dir/marks/read-marks.js';

/** One rep the two graders marked differently (both pass or fail). */
interface Disagreement {
  fixture: string;
  rep: number;
  a: 'pass' | 'fail';
  b: 'pass' | 'fail';
  noteA: string;
  noteB: string;
}

/**
 * How far two sets of marks agree on the reps both marked pass or fail: the matched count, the agreement ratio,
 * Cohen's kappa (null, not 0, when nothing matches), the confusion matrix and the disagreements.
 */
export interface Agreement {
  /** Reps marked pass or fail by both. */
  matched: number;
  agreed: number;
  /** agreed / matched; null when nothing matched. */
  ratio: number | null;
  /** Cohen's kappa; null when nothing matched or when chance agreement is certain (both gave one mark only). */
  kappa: number | null;
  /** Rows are A's mark, columns B's. */
  confusion: { passPass: number; passFail: number; failPass: number; failFail: number };
  /** Each grader's pass rate over the matched reps (the matrix's marginals). */
  passRateA: number | null;
  passRateB: number | null;
  /** Reps one graded pass/fail and the other did not (na, error, blank or missing): outside the numbers. */
  unmatched: number;
  disagreements: Disagreement[];
}

/** Compares two sets of marks rep by rep: agreement ratio, Cohen's kappa, confusion matrix, disagreements. */
export function agreement(a: ReadonlyMap<string, ReadMark>, b: ReadonlyMap<string, ReadMark>): Agreement {
  const confusion = { passPass: 0, passFail: 0, failPass: 0, failFail: 0 };
  const disagreements: Disagreement[] = [];
  let unmatched = 0;
  const graded = (mark: ReadMark | undefined): mark is ReadMark & { mark: 'pass' | 'fail' } =>
    mark?.mark === 'pass' || mark?.mark === 'fail';
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const markA = a.get(id);
    const markB = b.get(id);
    if (!graded(markA) || !graded(markB)) {
      if (graded(markA) || graded(markB)) unmatched++;
      continue;
    }
    if (markA.mark === 'pass') confusion[markB.mark === 'pass' ? 'passPass' : 'passFail']++;
    else confusion[markB.mark === 'pass' ? 'failPass' : 'failFail']++;
    if (markA.mark !== markB.mark)
      disagreements.push({
        fixture: markA.fixture,
        rep: markA.rep,
        a: markA.mark,
        b: markB.mark,
        noteA: markA.note,
        noteB: markB.note,
      });
  }
  const matched = confusion.passPass + confusion.passFail + confusion.failPass + confusion.failFail;
  const agreed = confusion.passPass + confusion.failFail;
  const passA = matched > 0 ? (confusion.passPass + confusion.passFail) / matched : null;
  const passB = matched > 0 ? (confusion.passPass + confusion.failPass) / matched : null;
  disagreements.sort((x, y) => (x.fixture < y.fixture ? -1 : x.fixture > y.fixture ? 1 : x.rep - y.rep));
  return {
    matched,
    agreed,
    ratio: matched > 0 ? agreed / matched : null,
    kappa: cohensKappa(matched, agreed, passA, passB),
    confusion,
    passRateA: passA,
    passRateB: passB,
    unmatched,
    disagreements,
  };
}

/**
 * Cohen's kappa, (observed - chance) / (1 - chance). Null, never 0, when it is undefined: nothing matched, or both
 * graders gave every matched rep the same single mark (chance agreement is then 1 and the ratio 0/0).
 */
export function cohensKappa(
  matched: number,
  agreed: number,
  passA: number | null,
  passB: number | null,
): number | null {
  if (matched === 0 || passA === null || passB === null) return null;
  const observed = agreed / matched;
  const chance = passA * passB + (1 - passA) * (1 - passB);
  if (Math.abs(1 - chance) < 1e-12) return null;
  return (observed - chance) / (1 - chance);
}
