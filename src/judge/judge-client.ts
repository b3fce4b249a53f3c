import { TurnkitError } from '../errors.js';
import type { JudgePrompt } from './judge-prompt.js';
import type { Usage } from '../model/spend.js';
import { defaultKeyVariable, type JudgeSettings } from '../config/judge-settings.js';
import { shownUrl, urlSecrets } from '../util/url-secrets.js';
import { withoutSecrets } from '../util/redact-password.js';
import { MAX_CALL_TOKENS, plausibleTokens } from '../sut/sut-answer.js';
import { anthropicClient, loadSdks, type ModelSdks, openAiClient, reportedModel } from '../model/model-client.js';

/** A judge model's answer with the tokens it used, when the API said. */
interface JudgeAnswer {
  text: string;
  usage?: Usage | undefined;
  /** The model id the response reported (its `model` field), for the run's manifest. */
  model?: string | undefined;
}

/** Asks the judge model one prompt and returns its text (or its answer with usage); throws a `JudgeCallError`. */
export type JudgeCall = (prompt: JudgePrompt) => Promise<string | JudgeAnswer>;

/** A judge request that failed after the SDK's retries; `fatal` when every other request would fail the same way. */
export class JudgeCallError extends Error {
  /** An unreachable endpoint, a refused key or an unknown model: stop the whole judging, not one rep. */
  readonly fatal: boolean;

  constructor(message: string, fatal: boolean) {
    super(message);
    this.name = 'JudgeCallError';
    this.fatal = fatal;
  }
}

/**
 * A client for the judge's provider through turnkit's one model client (model/model-client.ts), which retries 429,
 * 5xx and lost connections with backoff. The key is read from its variable in `env` and goes nowhere but the
 * request; a local OpenAI-compatible server (a base URL) may need none.
 */
export function createJudgeCall(
  settings: JudgeSettings,
  env: Readonly<Record<string, string | undefined>> = {},
): JudgeCall {
  const variable = settings.apiKeyEnv ?? defaultKeyVariable(settings.provider);
  const key = env[variable];
  // Ollama and llama.cpp ignore the key; a hosted API without one would answer 401 on every rep.
  if (!key && (settings.apiKeyEnv !== undefined || settings.baseUrl === undefined)) {
    throw new TurnkitError(
      'CONFIG',
      `the judge's API key is not set: export ${variable} (or name another variable with --api-key-env)`,
    );
  }
  const endpoint = {
    apiKey: key,
    retries: settings.retries,
    timeoutMs: settings.timeout * 1_000,
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
  };
  const where = settings.baseUrl ? shownUrl(settings.baseUrl) : settings.provider;
  // What the judge was given that must reach no file: an endpoint that echoes its request (a proxy, a test server,
  // a model repeating its prompt) would otherwise put the key or the base URL's ?token= into the marks, the judge's
  // log and its cache. Every answer and every error is masked of them as an http SUT's are.
  const secrets = [...(key ? [key] : []), ...(settings.baseUrl ? urlSecrets(settings.baseUrl) : [])].filter(
    (secret) => secret.length >= 6,
  );
  const scrub = (message: string): string => withoutSecrets(message, secrets);
  const answer = (text: string, usage: Usage | undefined, model: string | undefined): JudgeAnswer => ({
    text: scrub(text),
    usage,
    model: model === undefined ? undefined : scrub(model),
  });
  const failed = ({ OpenAI, Anthropic }: ModelSdks, error: unknown): JudgeCallError => {
    const err = error as {
      status?: number;
      name?: string;
      message?: string;
      cause?: { code?: string; cause?: { code?: string } };
    };
    const code = err?.cause?.code ?? err?.cause?.cause?.code;
    const message =
      scrub(String(err?.message ?? error).split('\n')[0] ?? '').replace(/\.$/, '') + (code ? ` (${code})` : '');
    if (err?.status === undefined) {
      // The SDK's connection errors (after its retries) are the endpoint being down; anything else without a status
      // is an answer the SDK could not read: that rep's error, not every rep's.
      if (error instanceof OpenAI.APIConnectionError || error instanceof Anthropic.APIConnectionError)
        return new JudgeCallError(`cannot reach the judge at ${where}: ${message}`, true);
      return new JudgeCallError(`the judge at ${where} answered something unreadable: ${message}`, false);
    }
    const fatal = err.status === 401 || err.status === 403 || err.status === 404;
    return new JudgeCallError(`the judge at ${where} answered ${err.status}: ${message}`, fatal);
  };
  // The provider's request, made once its client is: the reply as text, usage and the model it reported.
  const connect = async (): Promise<(prompt: JudgePrompt) => Promise<JudgeAnswer>> => {
    if (settings.provider === 'anthropic') {
      const client = await anthropicClient(endpoint);
      return async (prompt) => {
        const reply = await client.messages.create({
          model: settings.model,
          max_tokens: settings.maxTokens,
          // The Messages API of SDK 1.x takes no temperature: the model's own sampling applies.
          system: prompt.system,
          messages: [{ role: 'user', content: prompt.user }],
        });
        // A reply of another shape reads as no answer, which the verdict parser marks error.
        const text = (Array.isArray(reply?.content) ? reply.content : [])
          .flatMap((block) => (block?.type === 'text' ? [block.text] : []))
          .join('');
        return answer(
          text,
          tokens(reply?.usage?.input_tokens, reply?.usage?.output_tokens, where),
          reportedModel((reply as { model?: unknown } | undefined)?.model),
        );
      };
    }
    const client = await openAiClient(endpoint);
    return async (prompt) => {
      const reply = await client.chat.completions.create({
        model: settings.model,
        temperature: settings.temperature,
        max_tokens: settings.maxTokens,
        messages: [
          { role: 'system', content: prompt.system },
          { role: 'user', content: prompt.user },
        ],
      });
      const text = (Array.isArray(reply?.choices) ? reply.choices[0]?.message?.content : undefined) ?? '';
      return answer(
        text,
        tokens(reply?.usage?.prompt_tokens, reply?.usage?.completion_tokens, where),
        reportedModel((reply as { model?: unknown } | undefined)?.model),
      );
    };
  };
  let request: ((prompt: JudgePrompt) => Promise<JudgeAnswer>) | undefined;
  return async (prompt) => {
    const loaded = await loadSdks();
    request ??= await connect();
    try {
      return await request(prompt);
    } catch (error) {
      if (error instanceof JudgeCallError) throw error;
      throw failed(loaded, error);
    }
  };
}

// Usage as the API reported it; none when the API gave none. Counts that are negative, fractional or absurd are
// refused (that rep's error), as an http SUT's are, rather than rounded or dropped: they would be the run's cost.
function tokens(input: unknown, output: unknown, where: string): Usage | undefined {
  if (input === undefined && output === undefined) return undefined;
  if (!plausibleTokens(input) || !plausibleTokens(output)) {
    throw new JudgeCallError(
      `the judge at ${where} answered with usage figures that are not whole numbers from 0 to ${MAX_CALL_TOKENS}`,
      false,
    );
  }
  return { inputTokens: input, outputTokens: output };
}
