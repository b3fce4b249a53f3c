import { MAX_CALL_TOKENS, plausibleTokens } from './sut-answer.js';
import type OpenAIClient from 'openai';
import type { HttpSut } from './sut-http.js';
import { recordedTail, type SutContext, type SutOutcome } from './sut-request.js';
import { answerToolCalls, openAiToolCalls } from './sut-tool-calls.js';
import { splitBaseUrl } from '../util/url-secrets.js';
import type { ModelFailure } from '../model/model-client.js';

// An http SUT's calls, loaded only when an http SUT is opened.

/** What the http SUT is given besides its settings: the API key, read by the caller (never from here). */
export interface HttpSutTools {
  apiKey?: string | undefined;
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
    // The model client (and its SDK) load at an http SUT's first call: a run of another kind never loads them.
    const { loadOpenAi, modelFailure, openAiClient, reportedModel } = await import('../model/model-client.js');
    const OpenAI = await loadOpenAi();
    client ??= await openAiClient({
      baseUrl: sut.baseUrl,
      apiKey: tools.apiKey,
      retries: sut.retries,
      timeoutMs: sut.timeout * 1_000,
      // The body is read no further than an answer of maxOutput bytes could take as JSON (escapes, usage, ids).
      maxBody: bodyLimit(sut.maxOutput),
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
        choices?: { message?: { content?: unknown; tool_calls?: unknown } }[];
        usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
        toolCalls?: unknown;
        model?: unknown;
      };
      const model = reportedModel(typeof body === 'object' && body !== null ? body.model : undefined);
      const message =
        typeof body === 'object' && body !== null && Array.isArray(body.choices) ? body.choices[0]?.message : undefined;
      const tools = toolCallsOf(body, message);
      if ('error' in tools) return { error: { cause: 'unparseable', message: `${url}: ${tools.error}` }, ms };
      // A model that only called tools says nothing: its calls are the answer, the response empty.
      const content = message?.content ?? (tools.toolCalls && tools.toolCalls.length > 0 ? '' : undefined);
      if (typeof content !== 'string' || (content.trim() === '' && !tools.toolCalls?.length))
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
      return { response: content, ms, ...(usage ? { usage } : {}), ...(model ? { model } : {}), ...tools };
    } catch (error) {
      return { ...failure(modelFailure({ OpenAI }, error), url, sut, context), ms: performance.now() - started };
    }
  };
}

/**
 * The tool calls of a chat answer: the message's OpenAI `tool_calls`, or a game server's own `toolCalls` beside the
 * choices (its calls with their results, in the shape of a command SUT's answer). Both at once is refused: which
 * list is the record would be a guess.
 */
function toolCallsOf(
  body: { toolCalls?: unknown },
  message: { tool_calls?: unknown } | undefined,
): ReturnType<typeof openAiToolCalls> {
  const fromModel = openAiToolCalls(message);
  const fromServer = answerToolCalls(body);
  if ('error' in fromModel) return fromModel;
  if ('error' in fromServer) return fromServer;
  if (fromModel.toolCalls && fromServer.toolCalls)
    return { error: 'both choices[0].message.tool_calls and toolCalls: send one' };
  return fromModel.toolCalls ? fromModel : fromServer;
}

/** The bytes of a chat body read at most for an answer of `maxOutput` bytes: every character escaped, and room. */
function bodyLimit(maxOutput: number): number {
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

function failure(failed: ModelFailure, url: string, sut: HttpSut, context: SutContext): Omit<SutOutcome, 'ms'> {
  const attempts = sut.retries === 0 ? '1 attempt' : `${sut.retries + 1} attempts`;
  switch (failed.kind) {
    case 'too-large':
      return {
        error: { cause: 'output-too-large', message: `${url}: the answer passed ${bodyLimit(sut.maxOutput)} bytes` },
      };
    case 'timeout':
      return { error: { cause: 'timeout', message: `no answer within ${sut.timeout} s (${attempts})` } };
    case 'status':
      return {
        error: { cause: 'http', message: `${url} answered ${failed.status} (${attempts})` },
        stdoutTail: recordedTail(JSON.stringify(failed.body), context),
      };
    case 'connection':
      return { error: { cause: 'http', message: `${url}: cannot connect (${attempts})` } };
    case 'not-json':
      return {
        error: { cause: 'unparseable', message: `${url} answered with a body that is not JSON: ${failed.message}` },
      };
    default:
      return { error: { cause: 'exception', message: `${url}: ${failed.message}` } };
  }
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
