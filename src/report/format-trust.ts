import { shownPath } from '../util/shown-path.js';
import { MIN_CLUSTERS } from '../stats/cluster-se.js';
import { fixed, pValue, span, type Table } from './report-text.js';
import type { CorrectedEstimate, TrustReport } from './trust-report.js';

/** The corrected verdict of the question (or the only tag), on one line; undefined when nothing is corrected. */
export function correctedSummary(trust: TrustReport, target: number): string | undefined {
  const correction = trust.correction;
  if (!correction) return undefined;
  if (correction.refused) return `corrected rate refused for ${correction.file}: ${correction.refused}`;
  const top =
    correction.estimates.find((entry) => entry.scope === 'question') ??
    correction.estimates.find((entry) => entry.scope === 'tag');
  return top ? `corrected ${estimateLine(top, target)}` : undefined;
}

/** One estimate as a phrase: rate, interval, method and verdict. */
export function estimateLine(entry: CorrectedEstimate, target: number): string {
  if (entry.rate === null) return `${entry.name}: no rate (${entry.n} judged)`;
  return `${entry.name}: ${entry.rate.toFixed(2)} ${span(entry.interval)} by ${entry.method}, ${entry.verdict ?? 'no verdict'} for target ${target} (the judge's own ${fixed(entry.apparent)} of ${entry.n})`;
}

/** The report's "Can I trust this number?" section: pooled rates, the stratified test, Holm, ceilings, correction. */
export function trustLines(
  trust: TrustReport,
  target: number,
  table: Table,
  heading: (text: string) => string,
): string[] {
  const lines: string[] = [];
  if (trust.pooled.length > 0) {
    lines.push(heading('The question as a whole'), '');
    lines.push(
      ...table(
        [
          ['scope', 'pooled rate', 'fixtures', 'clustered SE', '95% interval'],
          ...trust.pooled.map((entry) => [
            entry.scope,
            entry.rate === null ? '-' : `${entry.rate.toFixed(2)} (${entry.pass}/${entry.n})`,
            String(entry.clusters),
            fixed(entry.se, 3),
            entry.interval === null && entry.clusters < MIN_CLUSTERS
              ? `needs ${MIN_CLUSTERS}+ fixtures`
              : span(entry.interval),
          ]),
        ],
        ['left', 'right', 'right', 'right', 'left'],
      ),
      '',
      `Reps cluster within fixtures: the standard error treats each fixture as a cluster (Miller 2024), so it needs ${MIN_CLUSTERS} fixtures or more.`,
      '',
    );
  }
  const mh = trust.mantelHaenszel;
  if (mh) {
    lines.push(
      `Constructed against base over ${mh.strata} pair(s), Cochran-Mantel-Haenszel: chi-square ${fixed(mh.statistic, 3)}, p ${pValue(mh.p)}; pooled difference ${fixed(mh.difference)}${mh.interval ? ` ${span(mh.interval)} (cluster-robust over pairs)` : ' (an interval needs 2 pairs or more)'}.`,
      '',
    );
  }
  if (trust.holm.length > 0) {
    lines.push(
      ...table(
        [
          ['constructed', 'base', 'Fisher p', 'Holm p'],
          ...trust.holm.map((entry) => [entry.constructed, entry.base, pValue(entry.p), pValue(entry.adjusted)]),
        ],
        ['left', 'left', 'right', 'right'],
      ),
      '',
      `Holm's correction for the ${trust.holm.length} p-values shown together.`,
      '',
    );
  }
  for (const ceiling of trust.ceilings)
    lines.push(
      `${ceiling.file} agrees with marks.csv ${ceiling.agreement.agreed}/${ceiling.agreement.matched} = ${ceiling.agreement.ratio.toFixed(3)} ${span(ceiling.agreement.interval)}: ${ceiling.standing} the ceiling, the person's self-agreement ${ceiling.ceiling.agreed}/${ceiling.ceiling.matched} = ${ceiling.ceiling.ratio.toFixed(3)} ${span(ceiling.ceiling.interval)} (${ceiling.selfFile}).`,
    );
  if (trust.ceilings.length > 0) lines.push('');
  const correction = trust.correction;
  if (correction) {
    const c = correction.calibration;
    const source = correction.source === 'this run' ? "this run's marks.csv" : shownPath(correction.source);
    lines.push(heading(`Corrected rates of ${correction.file}`), '');
    lines.push(
      `${graderLabel(correction.file, correction.judge)} calibrated on ${source}: sensitivity ${fixed(c.sensitivity, 3)} ${span(c.sensitivityInterval)} (${c.counts.truePass}/${c.counts.truePass + c.counts.falseFail}), specificity ${fixed(c.specificity, 3)} ${span(c.specificityInterval)} (${c.counts.trueFail}/${c.counts.trueFail + c.counts.falsePass}), Youden's J ${fixed(c.youden, 3)}.`,
      '',
    );
    if (correction.refused) lines.push(`Refused to correct: ${correction.refused}.`, '');
    else {
      lines.push(
        ...table(
          [
            ['scope', 'judge rate', 'corrected', '95% interval', 'method', 'verdict', 'Rogan-Gladen'],
            ...correction.estimates.map((entry) => [
              entry.scope === 'tag' ? `${entry.name} (tag)` : entry.name,
              entry.apparent === null ? '-' : `${entry.apparent.toFixed(2)} (${entry.judgePass}/${entry.n})`,
              fixed(entry.rate),
              span(entry.interval),
              entry.method ?? '-',
              entry.verdict ?? '-',
              `${fixed(entry.roganGladen.rate)} ${span(entry.roganGladen.interval)}`,
            ]),
          ],
          ['left', 'right', 'right', 'left', 'left', 'left', 'left'],
        ),
        '',
        `Rogan-Gladen: (judge rate + specificity - 1) / J, clipped to [0, 1], its interval from seeded draws of the three counts it rests on (never narrower than the judge's own counts allow); prediction-powered (Angelopoulos et al. 2023) where this run has the person's marks on some of the reps. The verdict against ${target}: met when the interval lies at or above it, missed when below, else uncertain.`,
        '',
      );
    }
  }
  return lines;
}

/**
 * Who gave the corrected marks, as the report names them: the question's deterministic checks (marks.checks.csv) are
 * no judge and have no prompt; a judge that recorded none says so.
 */
function graderLabel(file: string, judge: { model: string; promptSha256: string; rubricVersion: string }): string {
  if (file === 'marks.checks.csv') return `Deterministic checks (rubric ${judge.rubricVersion})`;
  const prompt = judge.promptSha256 === 'unknown' ? 'prompt not recorded' : `prompt ${judge.promptSha256.slice(0, 12)}`;
  return `Judge ${judge.model} (${prompt}, rubric ${judge.rubricVersion})`;
}
