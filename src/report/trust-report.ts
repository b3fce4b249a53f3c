import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Run } from '../run-dir/read-run.js';
import { judgeLines } from '../run-dir/judge-lines.js';
import { repId, type RepKey } from '../run-dir/run-state.js';
import { ceilingVerdict, type CeilingVerdict } from '../stats/agreement-ceiling.js';
import { agreement } from '../stats/agreement.js';
import { calibrate, refusal, type JudgeCalibration, type JudgeKey } from '../stats/calibration.js';
import { pooledClusteredRate, type PooledRate } from '../stats/cluster-se.js';
import { intervalVerdict, roganGladen, roganGladenInterval, type CorrectedVerdict } from '../stats/corrected-rate.js';
import { holmAdjust } from '../stats/holm.js';
import { mantelHaenszel, pairedStratum, type MantelHaenszel } from '../stats/mantel-haenszel.js';
import { ppiMean, type PpiEstimate } from '../stats/ppi.js';
import type { ReadMark } from '../run-dir/marks/read-marks.js';
import type { RunAgreement } from './run-agreements.js';
import { seedOf } from '../stats/random-draws.js';
import type { Interval } from '../stats/stats.js';

/** A corrected pass rate of a fixture, a tag or the question, and the verdict its interval gives. */
export interface CorrectedEstimate {
  scope: 'fixture' | 'tag' | 'question';
  name: string;
  /** The judge's passes of its pass/fail marks, and its apparent rate. */
  judgePass: number;
  n: number;
  apparent: number | null;
  /** The estimate the verdict uses: prediction-powered where this run has a person's marks to rectify with. */
  method: 'rogan-gladen' | 'prediction-powered' | null;
  rate: number | null;
  interval: Interval | null;
  verdict: CorrectedVerdict | null;
  /** Both estimates, whichever is used. */
  roganGladen: { rate: number | null; interval: Interval | null };
  ppi: PpiEstimate | null;
}

/** A judge's rates corrected by its calibration against a person. */
interface Correction {
  /** The marks file corrected (the report's). */
  file: string;
  judge: JudgeKey;
  /** Where the calibration came from: "this run" (its marks.csv) or a calibration file's path. */
  source: string;
  calibration: JudgeCalibration;
  /** Why no rate is corrected (a judge at chance, say); null when they are. */
  refused: string | null;
  estimates: CorrectedEstimate[];
}

/** The numbers about the question as a whole and about how far its marks can be trusted. */
export interface TrustReport {
  /** The pass rate pooled over fixtures with a fixture-clustered standard error: per tag, then the question. */
  pooled: (PooledRate & { scope: string })[];
  /** Constructed against base stratified by pair; null without a pair. */
  mantelHaenszel: MantelHaenszel | null;
  /** Each pair's Fisher p and its Holm-adjusted p (shown when there are two pairs or more). */
  holm: { constructed: string; base: string; p: number | null; adjusted: number | null }[];
  /** Each grader's agreement with the person beside the person's self-agreement. */
  ceilings: CeilingVerdict[];
  correction: Correction | null;
}

/** What `trustReport` reads. */
export interface TrustInput {
  /** The run, opened once for the whole report. */
  run: Run;
  target: number;
  keys: readonly RepKey[];
  fixtures: readonly { fixture: string; tag: 'dev' | 'heldout' | null; pass: number; fail: number }[];
  pairs: readonly { constructed: string; base: string; p: number | null }[];
  agreements: readonly RunAgreement[];
  marksFile: string;
  marks: ReadonlyMap<string, ReadMark>;
  /** A committed calibration file to correct with instead of this run's own person's marks. */
  calibrationFile?: string | undefined;
}

/** Computes the question-level statistics, the ceiling verdicts and, for a judge's marks, the corrected rates. */
export async function trustReport(input: TrustInput): Promise<TrustReport> {
  const byName = new Map(input.fixtures.map((fixture) => [fixture.fixture, fixture]));
  const tags = ['dev', 'heldout', 'untagged'].filter((tag) =>
    input.fixtures.some((fixture) => (fixture.tag ?? 'untagged') === tag),
  );
  const pooledOf = (members: readonly { pass: number; fail: number }[]) =>
    pooledClusteredRate(members.map((fixture) => ({ pass: fixture.pass, n: fixture.pass + fixture.fail })));
  const pooled = [
    ...tags.map((tag) => ({
      scope: tag,
      ...pooledOf(input.fixtures.filter((fixture) => (fixture.tag ?? 'untagged') === tag)),
    })),
    ...(tags.length > 1 ? [{ scope: 'question', ...pooledOf(input.fixtures) }] : []),
  ];
  const strata = input.pairs.flatMap((pair) => {
    const constructed = byName.get(pair.constructed);
    const base = byName.get(pair.base);
    return constructed && base ? [pairedStratum(constructed, base)] : [];
  });
  const adjusted = holmAdjust(input.pairs.map((pair) => pair.p));
  return {
    pooled,
    mantelHaenszel: strata.length > 0 ? mantelHaenszel(strata) : null,
    holm:
      input.pairs.length >= 2
        ? input.pairs.map((pair, i) => ({
            constructed: pair.constructed,
            base: pair.base,
            p: pair.p,
            adjusted: adjusted[i]!,
          }))
        : [],
    ceilings: ceilings(input.agreements),
    correction: await correction(input, tags),
  };
}

function ceilings(agreements: readonly RunAgreement[]): CeilingVerdict[] {
  const self = agreements.find((entry) => entry.self && entry.against === 'marks.csv' && entry.matched > 0);
  if (!self) return [];
  return agreements.flatMap((entry) => {
    if (entry.self || entry.against !== 'marks.csv') return [];
    const verdict = ceilingVerdict(entry.file, entry, self.file, self);
    return verdict ? [verdict] : [];
  });
}

const graded = (mark: ReadMark | undefined): 0 | 1 | undefined =>
  mark?.mark === 'pass' ? 1 : mark?.mark === 'fail' ? 0 : undefined;

async function correction(input: TrustInput, tags: readonly string[]): Promise<Correction | null> {
  const name = basename(input.marksFile);
  // The person's own marks need no correction; a blind re-mark is a person's too.
  if (name === 'marks.csv' || name.endsWith('.blind.csv')) return null;
  const { run } = input;
  const judge = await judgeKeyOf(run, name, input.marks);
  const person =
    existsSync(join(run.dir, 'marks.csv')) && input.calibrationFile === undefined
      ? await run.marks('marks.csv').catch(() => undefined)
      : undefined;
  let calibration: JudgeCalibration;
  let source = 'this run';
  if (input.calibrationFile !== undefined) {
    // Only `--calibration` reads a calibration file: its schema (and zod) are loaded then, not on every report.
    const { readCalibrationFile } = await import('./calibration-file.js');
    calibration = await readCalibrationFile(input.calibrationFile, { question: run.manifest.question.id, judge });
    source = input.calibrationFile;
  } else {
    if (!person) return null;
    // The person is the truth: rows are the person's mark, columns the judge's.
    const { confusion, matched } = agreement(person, input.marks);
    if (matched === 0) return null;
    calibration = calibrate({
      truePass: confusion.passPass,
      falseFail: confusion.passFail,
      falsePass: confusion.failPass,
      trueFail: confusion.failFail,
    });
  }
  const refused = refusal(calibration) ?? null;
  const tagOf = new Map(input.fixtures.map((fixture) => [fixture.fixture, fixture.tag ?? 'untagged']));
  const idsWhere = (test: (key: RepKey) => boolean): string[] => input.keys.filter(test).map(repId);
  const units: Unit[] = [
    ...input.fixtures.map(
      ({ fixture }): Unit => ({
        scope: 'fixture',
        name: fixture,
        ids: idsWhere((key) => key.fixture === fixture),
      }),
    ),
    ...tags.map((tag): Unit => ({ scope: 'tag', name: tag, ids: idsWhere((key) => tagOf.get(key.fixture) === tag) })),
    ...(tags.length > 1 ? [{ scope: 'question' as const, name: 'question', ids: idsWhere(() => true) }] : []),
  ];
  const estimates = refused === null ? units.map((unit) => estimate(unit, input, calibration, person)) : [];
  return { file: name, judge, source, calibration, refused, estimates };
}

/** What an estimate is of: a fixture's, a tag's or the question's reps. */
type Unit = { scope: CorrectedEstimate['scope']; name: string; ids: string[] };

function estimate(
  unit: Unit,
  input: TrustInput,
  calibration: JudgeCalibration,
  person: ReadonlyMap<string, ReadMark> | undefined,
): CorrectedEstimate {
  const judged = unit.ids.flatMap((id) => {
    const mark = graded(input.marks.get(id));
    return mark === undefined ? [] : [{ id, mark }];
  });
  const judgePass = judged.filter((entry) => entry.mark === 1).length;
  const n = judged.length;
  const apparent = n > 0 ? judgePass / n : null;
  const rgRate = apparent === null ? null : roganGladen(apparent, calibration.sensitivity!, calibration.specificity!);
  const rgInterval = roganGladenInterval(judgePass, n, calibration.counts, seedOf(`${unit.scope}:${unit.name}`));
  const labeled: { person: 0 | 1; judge: 0 | 1 }[] = [];
  const unlabeled: (0 | 1)[] = [];
  for (const { id, mark } of judged) {
    const truth = person ? graded(person.get(id)) : undefined;
    if (truth === undefined) unlabeled.push(mark);
    else labeled.push({ person: truth, judge: mark });
  }
  const ppi = person ? (ppiMean(labeled, unlabeled) ?? null) : null;
  const method = ppi ? 'prediction-powered' : rgInterval ? 'rogan-gladen' : null;
  const rate = ppi ? ppi.rate : rgRate;
  const interval = ppi ? ppi.interval : rgInterval;
  return {
    scope: unit.scope,
    name: unit.name,
    judgePass,
    n,
    apparent,
    method,
    rate,
    interval,
    verdict: interval ? intervalVerdict(interval, input.target) : null,
    roganGladen: { rate: rgRate, interval: rgInterval },
    ppi,
  };
}

/**
 * The judge behind a marks file: an LLM judge's model, prompt hash and rubric version from its verdicts file
 * (`judge-SLUG.jsonl`), else the file's grader column (or its name) with the rubric version its rows or the run
 * record. A marks file that did not record its prompt has the prompt "unknown".
 */
export async function judgeKeyOf(run: Run, name: string, marks: ReadonlyMap<string, ReadMark>): Promise<JudgeKey> {
  const rows = [...marks.values()];
  const rubricVersion = rows.find((row) => row.rubricVersion)?.rubricVersion ?? run.manifest.rubric.version;
  const slug = /^marks\.judge-(.+)\.csv$/.exec(name)?.[1];
  if (slug !== undefined) {
    const verdictsFile = `judge-${slug}.jsonl`;
    if (existsSync(join(run.dir, verdictsFile))) {
      // The first line names the judge (every line does): a torn one leaves it to the grader column, an empty file to
      // the file's name.
      const first = judgeLines(await run.text(verdictsFile))[0];
      const entry = first ? first.entry : {};
      if (entry)
        return {
          model: typeof entry.model === 'string' ? entry.model : slug,
          promptSha256: typeof entry.promptSha256 === 'string' ? entry.promptSha256 : 'unknown',
          rubricVersion: typeof entry.rubricVersion === 'string' ? entry.rubricVersion : rubricVersion,
        };
    }
  }
  const grader = rows.find((row) => row.grader)?.grader;
  const model = grader?.replace(/^judge-/, '') ?? slug ?? name.replace(/^marks\.|\.csv$/g, '');
  return { model, promptSha256: 'unknown', rubricVersion };
}
