import { loadQuestion } from '../question/load-question.js';
import { inputPath, type ProjectContext } from '../project/project-context.js';
import { TurnkitError } from '../errors.js';
import { targetDemand } from './stats.js';
import { ALPHA, detectableRate, MAX_VERDICT_REPS, POWER, repsForVerdict, repsToTellApart } from './power.js';

/** What `turnkit plan` is asked: a question file, and optionally other reps or a pair of rates to tell apart. */
export interface PlanInput {
  question: string;
  /** Reps per fixture to plan for (default: the question's). */
  reps?: number | undefined;
  /** A pair of rates (a base and a constructed fixture's, say) to find the reps for. */
  pair?: { from: number; to: number } | undefined;
}

/** What a question's reps can show, before any rep runs. */
export interface QuestionPlan {
  question: string;
  target: number;
  reps: number;
  alpha: number;
  power: number;
  /** Passes needed of the reps, and fails tolerated (one lost rep shrinks both). */
  demand: { n: number; passesNeeded: number; failsTolerated: number };
  /** Per base rate, the smallest constructed rate a base-versus-constructed comparison detects (Fisher, exact power). */
  detectable: { base: number; rate: number | null }[];
  /** Per true rate, the reps a fixture needs for its verdict to be met or missed (not uncertain) with 80% chance. */
  verdict: { rate: number; reps: number | null }[];
  /** Reps per fixture to tell the pair apart, when one was asked for. */
  pair?: { from: number; to: number; reps: number | null; method: 'exact' | 'approximate' | null };
}

const BASES = [0.1, 0.3, 0.5, 0.7];

/** The most reps per fixture a plan computes. */
const MAX_PLAN_REPS = 1000;

/**
 * Plans a question's reps: what its target demands of them, the smallest difference a base-versus-constructed
 * comparison detects with 80% power, and the reps a fixture needs for a decidable verdict at rates near the target.
 * @example
 * const plan = await planQuestion(project, { question: 'questions/places.yaml' });
 */
export async function planQuestion(project: ProjectContext, input: PlanInput): Promise<QuestionPlan> {
  const loaded = await loadQuestion(inputPath(project, input.question));
  const { target } = loaded.question;
  const reps = input.reps ?? loaded.question.reps;
  // Below run's limit: the plan's exact sums grow faster than the reps (1,000 take about 40 s, 2,000 about 110 s).
  if (!Number.isInteger(reps) || reps < 1 || reps > MAX_PLAN_REPS) {
    const problem = `expected a whole number of reps from 1 to ${MAX_PLAN_REPS}`;
    if (input.reps !== undefined) throw new TurnkitError('USAGE', `--reps ${reps}: ${problem}`);
    throw new TurnkitError('BAD_INPUT', `${loaded.at(['reps'])}: ${problem} to plan; give fewer with --reps`);
  }
  for (const rate of input.pair ? [input.pair.from, input.pair.to] : [])
    if (!(rate >= 0 && rate <= 1)) throw new TurnkitError('USAGE', `rate ${rate}: expected a rate from 0 to 1`);
  const near = [-0.2, -0.1, -0.05, 0.05, 0.1]
    .map((offset) => Math.round((target + offset) * 100) / 100)
    .filter((rate) => rate >= 0 && rate <= 1);
  const plan: QuestionPlan = {
    question: loaded.question.id,
    target,
    reps,
    alpha: ALPHA,
    power: POWER,
    demand: targetDemand(target, reps),
    detectable: BASES.map((base) => ({ base, rate: detectableRate(reps, base) ?? null })),
    verdict: near.map((rate) => ({ rate, reps: repsForVerdict(target, rate) ?? null })),
  };
  if (input.pair) {
    const found = repsToTellApart(input.pair.from, input.pair.to);
    plan.pair = { ...input.pair, reps: found?.reps ?? null, method: found?.method ?? null };
  }
  return plan;
}

/** The plan as lines of text, for the terminal and Markdown alike. */
export function formatPlan(plan: QuestionPlan): string[] {
  const rate = (value: number): string => value.toFixed(2);
  const lines = [
    `plan for ${plan.question}: target ${rate(plan.target)}, ${plan.reps} reps per fixture`,
    '',
    `what the target demands: ${plan.demand.passesNeeded} passes of ${plan.demand.n} (${plan.demand.failsTolerated} fail(s) tolerated); every lost rep (error, na) counts against that`,
    '',
    `base against constructed, ${plan.reps} reps each (two-sided Fisher exact test, alpha ${plan.alpha}, power ${plan.power}):`,
  ];
  for (const entry of plan.detectable)
    lines.push(
      entry.rate === null
        ? `  base ${rate(entry.base)}: no constructed rate is detectable`
        : `  base ${rate(entry.base)}: detects a constructed rate of ${rate(entry.rate)} or more (+${rate(entry.rate - entry.base)})`,
    );
  lines.push(
    '',
    `reps a fixture needs for a decided verdict (the Wilson 95% interval excludes ${rate(plan.target)}, 80% chance):`,
  );
  for (const entry of plan.verdict)
    lines.push(
      `  true rate ${rate(entry.rate)}: ${entry.reps === null ? `more than ${MAX_VERDICT_REPS} reps` : `${entry.reps} reps`}`,
    );
  if (plan.pair) {
    const { from, to, reps, method } = plan.pair;
    // As many decimals as it takes to show two different rates differently (0.999 and 0.9995 are not 1.00 and 1.00).
    const places = (value: number): number => (String(value).split('.')[1] ?? '').length;
    const digits = Math.min(6, Math.max(2, places(from), places(to)));
    const [shownFrom, shownTo] = [from.toFixed(digits), to.toFixed(digits)];
    lines.push(
      '',
      reps === null
        ? `${shownFrom} and ${shownTo} are the same rate: no number of reps tells them apart`
        : `to tell ${shownFrom} from ${shownTo}: ${reps.toLocaleString('en-US')} reps per fixture (${method === 'exact' ? "Fisher's exact test" : 'normal approximation with continuity correction'})`,
    );
  }
  return lines;
}
