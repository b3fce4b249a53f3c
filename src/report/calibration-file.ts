import { DATA_FILE_LIMIT, readInputText } from '../util/read-input.js';
import { z } from 'zod';
import { TurnkitError } from '../errors.js';
import { parseJsonText, parseWithSchema } from '../util/json/json-source.js';
import { writeFileAtomic } from '../util/process/atomic-write.js';
import { shownPath } from '../util/shown-path.js';
import {
  calibrate,
  keyMismatch,
  type CalibrationCounts,
  type JudgeCalibration,
  type JudgeKey,
} from '../stats/calibration.js';

/** The format tag of a calibration file. */
const CALIBRATION_FORMAT = 'turnkit.calibration/1';

const count = z.number().int().min(0);

/** A calibration file as committed: the judge it is for, the question, the four counts, and the runs they came from. */
const calibrationFileSchema = z.strictObject({
  format: z.literal(CALIBRATION_FORMAT),
  question: z.string().min(1),
  judge: z.strictObject({
    model: z.string().min(1),
    promptSha256: z.string().min(1),
    rubricVersion: z.string().min(1),
  }),
  counts: z.strictObject({ truePass: count, falseFail: count, falsePass: count, trueFail: count }),
  sensitivity: z.number().nullable(),
  specificity: z.number().nullable(),
  youden: z.number().nullable(),
  runs: z.array(z.string()),
});

/** A calibration file's content. */
type CalibrationFile = z.infer<typeof calibrationFileSchema>;

/** Writes the calibration file of a judge atomically: sorted keys, two-space indent, a trailing newline (small git diffs). */
export async function writeCalibrationFile(
  path: string,
  input: {
    question: string;
    judge: JudgeKey;
    counts: CalibrationCounts;
    runs: readonly string[];
  },
): Promise<void> {
  const calibration = calibrate(input.counts);
  const file: CalibrationFile = {
    format: CALIBRATION_FORMAT,
    question: input.question,
    judge: {
      model: input.judge.model,
      promptSha256: input.judge.promptSha256,
      rubricVersion: input.judge.rubricVersion,
    },
    counts: { ...input.counts },
    sensitivity: calibration.sensitivity,
    specificity: calibration.specificity,
    youden: calibration.youden,
    runs: [...input.runs],
  };
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
}

/**
 * Reads a calibration file into its calibration, checked to be for this question and this judge (model, prompt and
 * rubric version): a calibration of another judge says nothing about this one, so a mismatch is an error naming the
 * file and field.
 */
export async function readCalibrationFile(
  path: string,
  expected: { question: string; judge: JudgeKey },
): Promise<JudgeCalibration> {
  const shown = shownPath(path);
  const text = await readInputText(path, shown, DATA_FILE_LIMIT);
  const file = parseWithSchema(calibrationFileSchema, parseJsonText(text, shown), shown);
  if (file.question !== expected.question)
    throw new TurnkitError(
      'BAD_INPUT',
      `${shown}: question: the calibration is for question ${file.question}, this run is ${expected.question}`,
    );
  const mismatch = keyMismatch(file.judge, expected.judge);
  if (mismatch) throw new TurnkitError('BAD_INPUT', `${shown}: judge: refused, the run's judge differs: ${mismatch}`);
  return calibrate(file.counts);
}
