import { wilsonInterval, type Interval } from './stats.js';

/** The judge a calibration belongs to: a calibration is only reused for the same model, prompt and rubric. */
export interface JudgeKey {
  model: string;
  /** sha256 of the judge's prompt template; "unknown" for marks files that did not record it. */
  promptSha256: string;
  rubricVersion: string;
}

/** The reps a person and a judge both marked pass or fail, the person taken as the truth. */
export interface CalibrationCounts {
  /** Person pass, judge pass. */
  truePass: number;
  /** Person pass, judge fail. */
  falseFail: number;
  /** Person fail, judge pass. */
  falsePass: number;
  /** Person fail, judge fail. */
  trueFail: number;
}

/** A judge's sensitivity and specificity against a person, with Wilson 95% intervals and Youden's J. */
export interface JudgeCalibration {
  counts: CalibrationCounts;
  /** P(judge pass | person pass); null when the person passed nothing. */
  sensitivity: number | null;
  sensitivityInterval: Interval | null;
  /** P(judge fail | person fail); null when the person failed nothing. */
  specificity: number | null;
  specificityInterval: Interval | null;
  /** Youden's J = sensitivity + specificity - 1: 0 is a judge at chance, 1 a perfect one. */
  youden: number | null;
}

/** Below this J the judge is too close to chance for its rates to be corrected: the correction divides by J. */
const MIN_YOUDEN = 0.2; // youdenBelowMinimum decides it in whole numbers as 1/5: keep the two together

/** Sensitivity, specificity (Wilson 1927 score intervals), and Youden's J (Youden 1950) from the four counts. */
export function calibrate(counts: CalibrationCounts): JudgeCalibration {
  const positives = counts.truePass + counts.falseFail;
  const negatives = counts.falsePass + counts.trueFail;
  const sensitivity = positives > 0 ? counts.truePass / positives : null;
  const specificity = negatives > 0 ? counts.trueFail / negatives : null;
  return {
    counts,
    sensitivity,
    sensitivityInterval: wilsonInterval(counts.truePass, positives) ?? null,
    specificity,
    specificityInterval: wilsonInterval(counts.trueFail, negatives) ?? null,
    youden: sensitivity !== null && specificity !== null ? sensitivity + specificity - 1 : null,
  };
}

/**
 * Whether Youden's J is below MIN_YOUDEN (1/5), decided in whole numbers: J = (TP·TN − FP·FN) / (P·N), so J < 1/5
 * exactly when 5·(TP·TN − FP·FN) < P·N. Floating point put J = 0.6 + 0.6 − 1 at 0.19999999999999996 and refused it.
 */
function youdenBelowMinimum(counts: CalibrationCounts): boolean {
  const [tp, fn, fp, tn] = [counts.truePass, counts.falseFail, counts.falsePass, counts.trueFail].map(BigInt) as [
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  return 5n * (tp * tn - fp * fn) < (tp + fn) * (fp + tn);
}

/** Why a calibration cannot correct a rate, or undefined when it can. */
export function refusal(calibration: JudgeCalibration): string | undefined {
  const { counts, youden } = calibration;
  if (counts.truePass + counts.falseFail === 0)
    return 'no rep the person passed was judged: the sensitivity is unknown';
  if (counts.falsePass + counts.trueFail === 0)
    return 'no rep the person failed was judged: the specificity is unknown';
  if (youden !== null && youdenBelowMinimum(counts))
    return `Youden's J is ${youden.toFixed(3)} (below ${MIN_YOUDEN}): the judge is little better than chance at telling pass from fail`;
  return undefined;
}

/** How one judge key differs from another, as a phrase; undefined when they are the same judge. */
export function keyMismatch(expected: JudgeKey, got: JudgeKey): string | undefined {
  const differences = (['model', 'promptSha256', 'rubricVersion'] as const).flatMap((field) =>
    expected[field] === got[field] ? [] : [`${field} ${got[field]} (calibrated: ${expected[field]})`],
  );
  return differences.length > 0 ? differences.join(', ') : undefined;
}
