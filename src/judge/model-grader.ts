import { TurnkitError } from '../errors.js';
import type { Manifest } from '../run-dir/manifest.js';
import { sha256 } from '../util/sha256.js';
import type { RepRecord } from '../run-dir/rep-record.js';
import type { RepKey } from '../run-dir/run-state.js';
import { callSpend, type CallSpend, type Price } from '../model/spend.js';
import { callSpendSchema } from '../run-dir/spend-schema.js';
import { runWriter } from '../run-dir/run-writer.js';
import pLimit from 'p-limit';
import type { JudgeSettings } from '../config/judge-settings.js';
import type { Grade, Grader } from './grader.js';
import { JudgeCache } from './judge-cache.js';
import { JudgeCallError, type JudgeCall } from './judge-client.js';
import { shownUrl } from '../util/url-secrets.js';
import { safeParseInWords } from '../util/zod-messages.js';
import { judgePrompt, judgePromptSha256 } from './judge-prompt.js';
import { stateForJudge } from './state-for-judge.js';
import { parseVerdict } from './judge-verdict.js';

/** What an LLM judge grades with: its settings, the rubric, the run's case files, the model call and its cache. */
export interface ModelGraderInputs {
  dir: string;
  manifest: Manifest;
  settings: JudgeSettings;
  rubric: { text: string; version: string; sha256: string };
  caseFiles: Map<string, string>;
  call: JudgeCall;
  cache: JudgeCache;
  price?: Price | undefined;
  /** The judge's files' name part (`judge-SLUG.jsonl`). */
  slug: string;
  /** Reps it will grade, for progress. */
  total: number;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

/** An LLM judge as a grader, with what it counts beyond the marks. */
export interface ModelGrader extends Grader {
  /** Verdicts taken from the cache, and reps the judge could not judge (no answer, or not a valid verdict). */
  readonly counts: { cached: number; judgeErrors: number };
  /** The model ids the judge's responses reported (a cached verdict reports none again), for the manifest. */
  readonly reported: ReadonlySet<string>;
}

/**
 * An LLM judge as a grader: rubric, case file and response go to the model (or come from the cache), which must
 * answer with a verdict the zod schema accepts; anything else is `error`, never `pass`. An errored rep is not
 * judged. An unreachable endpoint or a refused key stops every later call, and `finish` then writes nothing.
 */
export function modelGrader(inputs: ModelGraderInputs): ModelGrader {
  const { settings, rubric } = inputs;
  const grader = `judge-${settings.model}${settings.state ? '+state' : ''}`;
  // The config's schema checks it; a library caller's 0 would otherwise wait forever, or fail inside p-limit.
  if (!(Number.isInteger(settings.concurrency) && settings.concurrency >= 1))
    throw new TurnkitError('USAGE', `judge concurrency: expected a positive whole number, got ${settings.concurrency}`);
  const slots = pLimit(settings.concurrency);
  const verdicts: (RepKey & Record<string, unknown>)[] = [];
  const counts = { cached: 0, judgeErrors: 0 };
  const reported = new Set<string>();
  let fatal: JudgeCallError | undefined;
  let done = 0;

  // The model's answer for a rep, or an Error; undefined when a fatal error stopped the judge before this call.
  const hiddenTables = new Set((inputs.manifest.hidden ?? []).map((rule) => rule.table));
  const stateOf = (record: RepRecord): string | undefined =>
    settings.state ? stateForJudge(record, hiddenTables) : undefined;
  const ask = async (record: RepRecord, caseFile: string): Promise<{ answer?: string | Error; spend?: CallSpend }> =>
    slots(async () => {
      if (fatal) return {};
      try {
        const reply = await inputs.call(
          judgePrompt({
            question: inputs.manifest.question.text,
            rubric: rubric.text,
            caseFile,
            response: record.response!,
            ...(record.turns ? { turns: record.turns.length } : {}),
            ...(settings.state ? { state: stateOf(record)! } : {}),
          }),
        );
        if (typeof reply === 'string') return { answer: reply };
        if (reply.model) reported.add(reply.model);
        return {
          answer: reply.text,
          ...(reply.usage ? { spend: callSpend(reply.usage, undefined, inputs.price) } : {}),
        };
      } catch (error) {
        if (error instanceof JudgeCallError && error.fatal) fatal ??= error;
        return { answer: error instanceof Error ? new Error(error.message) : new Error(String(error)) };
      }
    });

  const grade = async (key: RepKey, record: RepRecord): Promise<Grade> => {
    if (record.error || record.response === null)
      return {
        mark: 'error',
        note: `the rep errored (${record.error?.stage ?? 'sut'}: ${record.error?.cause ?? 'no response'}); not judged`,
      };
    const caseFile = inputs.caseFiles.get(key.fixture) ?? '';
    const cacheKey = cacheKeyOf(settings, rubric.sha256, caseFile, record.response, stateOf(record));
    let answer: string | Error | undefined = inputs.cache.get(cacheKey);
    const cached = answer !== undefined;
    // A cached verdict keeps what it cost when it was received (cached: true says it was not paid again).
    const kept = cached ? safeParseInWords(callSpendSchema, inputs.cache.spendOf(cacheKey)) : undefined;
    let spend: CallSpend | undefined = kept?.success ? kept.data : undefined;
    if (answer === undefined) ({ answer, spend } = await ask(record, caseFile));
    done++;
    inputs.onProgress?.(done, inputs.total);
    if (answer === undefined) return { mark: '', note: 'not judged' };
    const verdict =
      typeof answer === 'string'
        ? parseVerdict(answer)
        : { mark: 'error' as const, reason: `judge request failed: ${answer.message}` };
    if (typeof answer === 'string' && !cached && verdict.mark !== 'error')
      await inputs.cache.put(cacheKey, answer, {
        model: settings.model,
        provider: settings.provider,
        rubricVersion: rubric.version,
        ...(spend ? { spend } : {}),
      });
    if (cached) counts.cached++;
    if (verdict.mark === 'error') counts.judgeErrors++;
    // One line of the verdicts file: the mark and reason, and what gave them (model, rubric, prompt, cache, spend).
    verdicts.push({
      fixture: key.fixture,
      rep: key.rep,
      mark: verdict.mark,
      reason: verdict.reason,
      model: settings.model,
      provider: settings.provider,
      rubricVersion: rubric.version,
      rubricSha256: rubric.sha256,
      promptSha256: judgePromptSha256(settings.state),
      cached,
      ...(spend ? { spend } : {}),
    });
    return { mark: verdict.mark, note: verdict.reason };
  };

  return {
    marksFile: `marks.judge-${inputs.slug}.csv`,
    stamp: { grader, markedAt: new Date().toISOString(), rubricVersion: rubric.version },
    counts,
    reported,
    grade,
    async finish() {
      if (fatal)
        throw new TurnkitError(
          'JUDGE_FAILED',
          `${fatal.message}; nothing written (verdicts already received are cached)`,
        );
      // judge-SLUG.jsonl: every verdict with its reason, by fixture and rep.
      verdicts.sort((a, b) => (a.fixture === b.fixture ? a.rep - b.rep : a.fixture < b.fixture ? -1 : 1));
      const text = verdicts.map((entry) => `${JSON.stringify(entry)}\n`).join('');
      await runWriter(inputs.dir).file(`judge-${inputs.slug}.jsonl`, text);
    },
  };
}

/** The cache's key of a verdict: the judge's settings, the rubric, the case file and the response. */
function cacheKeyOf(
  settings: JudgeSettings,
  rubricSha256: string,
  caseFile: string,
  response: string,
  state: string | undefined,
): string {
  return JudgeCache.keyOf({
    // A verdict given with the state is not one given without it (absent for a text-only judge: its keys stay).
    ...(state !== undefined ? { stateSha256: sha256(state) } : {}),
    provider: settings.provider,
    model: settings.model,
    baseUrl: settings.baseUrl ? shownUrl(settings.baseUrl) : '',
    temperature: settings.temperature,
    maxTokens: settings.maxTokens,
    rubricSha256,
    caseFileSha256: sha256(caseFile),
    responseSha256: sha256(response),
  });
}
