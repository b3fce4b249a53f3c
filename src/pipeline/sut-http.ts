import { MAX_CALL_TOKENS, plausibleTokens } from './spend.js';
import type OpenAIClient from 'openai';
import type { SutConfig } from './question-format.js';
import { recordedTail, type SutContext, type SutOutcome } from './sut-request.js';
import { BodyTooLargeError, boundedFetch } from './bounded-fetch.js';
import { splitBaseUrl } from '../util/url-secrets.js';

/** An OpenAI-compatible chat SUT's settings. */
export type HttpSut = Extract<SutConfig, { type: 'http' }>;

/** What the http SUT is given besides its settings: the API key, read by the caller (never from here). */
export interface HttpSutTools {
  apiKey?: string | undefined;
}

let sdk: Promise<typeof OpenAIClient> | undefined;

// The SDK loads at the first request, not with every turnkit command.
function loadSdk(): Promise<typeof OpenAIClient> {
  sdk ??= import('openai').then((module) => module.default);
  return sdk;
}

/**
 * A caller of an OpenAI-compatible `/chat/completions` endpoint through the official SDK, one client per run: it
 * retries 429 and 5xx answers, timeouts and lost connections with exponential backoff (honouring retry-after), each
 * attempt bounded by the question's timeout. The system prompt, then the case file and the player's input as the
 * user message. The key goes nowhere but the request header; the response's `usage` is recorded.
 */
export function httpSutCaller(sut: HttpSut, tools: HttpSutTools = {}): (context: SutContext) => Promise<SutOutcome> {
  let client: OpenAIClient | undefined;
  // User info and query stay out of every message; the path goes before the query, each is sent where it belongs.
  const base = splitBaseUrl(sut.baseUrl);
  const url = `${base.endpoint.replace(/\/+$/, '')}/chat/completions`;
  return async (context) => {
    const started = performance.now();
    const OpenAI = await loadSdk();
    client ??= new OpenAI({
      // Local servers (Ollama, llama.cpp) take no key; the SDK insists on one.
      apiKey: tools.apiKey || 'unused',
      baseURL: base.endpoint,
      ...(Object.keys(base.query).length > 0 ? { defaultQuery: base.query } : {}),
      maxRetries: sut.retries,
      timeout: sut.timeout * 1_000,
      // The body is read no further than an answer of maxOutput bytes could take as JSON (escapes, usage, ids).
      fetch: boundedFetch(bodyLimit(sut.maxOutput)),
      // Without a key no Authorization header at all, rather than a made-up one.
      ...(tools.apiKey ? {} : { defaultHeaders: { authorization: base.basic ?? null } }),
    });
    const input = Object.values(context.request.input)
      .filter((value) => typeof value === 'string')
      .join('\n');
    try {
      const reply = await client.chat.completions.create(
        {
          model: sut.model,
          messages: [
            ...(sut.system ? [{ role: 'system' as const, content: sut.system }] : []),
            // A rollout's turns so far, as the conversation they were (the case file below also renders them).
            ...transcriptMessages(context.request.transcript),
            {
              role: 'user' as const,
              content: `${context.request.caseFile}\n\n---\n\nPlayer input for turn ${context.request.turn}:\n${input}`,
            },
          ],
          ...(sut.temperature !== undefined ? { temperature: sut.temperature } : {}),
        },
        context.quit ? { signal: context.quit } : {},
      );
      const ms = performance.now() - started;
      // The SDK hands back whatever JSON (or text) came: the shape is checked here.
      const body = reply as unknown as {
        choices?: { message?: { content?: unknown } }[];
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
      };
      const content =
        typeof body === 'object' && body !== null && Array.isArray(body.choices)
          ? body.choices[0]?.message?.content
          : undefined;
      if (typeof content !== 'string' || content.trim() === '')
        return {
          error: { cause: 'unparseable', message: `${url} answered without choices[0].message.content` },
          stdoutTail: recordedTail(typeof reply === 'string' ? reply : JSON.stringify(reply), context),
          ms,
        };
      if (Buffer.byteLength(content) > sut.maxOutput)
        return { error: { cause: 'output-too-large', message: `the response passed ${sut.maxOutput} bytes` }, ms };
      const usage = usageOf(body.usage);
      if (usage === 'implausible')
        return {
          error: {
            cause: 'unparseable',
            message: `${url} answered with usage figures that are not whole numbers from 0 to ${MAX_CALL_TOKENS}`,
          },
          ms,
        };
      return { response: content, ms, ...(usage ? { usage } : {}) };
    } catch (error) {
      return { ...failure(OpenAI, error, url, sut, context), ms: performance.now() - started };
    }
  };
}

/** The bytes of a chat body read at most for an answer of `maxOutput` bytes: every character escaped, and room. */
export function bodyLimit(maxOutput: number): number {
  return maxOutput * 6 + 65_536;
}

// No usage is no usage; a negative, fractional or absurd figure is refused rather than counted or dropped as zero.
function usageOf(
  usage: { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined,
): { inputTokens: number; outputTokens: number } | 'implausible' | undefined {
  if (usage === undefined || usage === null) return undefined;
  if (typeof usage !== 'object') return 'implausible';
  const { prompt_tokens: input, completion_tokens: output } = usage;
  if (input === undefined && output === undefined) return undefined;
  if (!plausibleTokens(input ?? 0) || !plausibleTokens(output ?? 0)) return 'implausible';
  return { inputTokens: (input ?? 0) as number, outputTokens: (output ?? 0) as number };
}

function failure(
  OpenAI: typeof OpenAIClient,
  error: unknown,
  url: string,
  sut: HttpSut,
  context: SutContext,
): Omit<SutOutcome, 'ms'> {
  const attempts = sut.retries === 0 ? '1 attempt' : `${sut.retries + 1} attempts`;
  if (tooLarge(error))
    return {
      error: { cause: 'output-too-large', message: `${url}: the answer passed ${bodyLimit(sut.maxOutput)} bytes` },
    };
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return { error: { cause: 'timeout', message: `no answer within ${sut.timeout} s (${attempts})` } };
  if (error instanceof OpenAI.APIError && error.status !== undefined)
    return {
      error: { cause: 'http', message: `${url} answered ${error.status} (${attempts})` },
      stdoutTail: recordedTail(JSON.stringify(error.error ?? null), context),
    };
  if (error instanceof OpenAI.APIConnectionError)
    return { error: { cause: 'http', message: `${url}: cannot connect (${attempts})` } };
  // A body the SDK could not read as JSON (garbage with a 200), or anything else it threw.
  const message = (error as Error)?.message?.split('\n')[0] ?? String(error);
  if (error instanceof SyntaxError)
    return { error: { cause: 'unparseable', message: `${url} answered with a body that is not JSON: ${message}` } };
  return { error: { cause: 'exception', message: `${url}: ${message}` } };
}

// The SDK may hand the body's error on as it is, or as the cause of its own.
function tooLarge(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth++)
    if (at instanceof BodyTooLargeError) return true;
  return false;
}

function transcriptMessages(
  transcript: SutContext['request']['transcript'],
): { role: 'user' | 'assistant'; content: string }[] {
  return (transcript ?? []).flatMap((turn) => [
    {
      role: 'user' as const,
      content: `Player input for turn ${turn.turn}:\n${Object.values(turn.input)
        .filter((value) => typeof value === 'string')
        .join('\n')}`,
    },
    ...(turn.response !== null ? [{ role: 'assistant' as const, content: turn.response }] : []),
  ]);
}
