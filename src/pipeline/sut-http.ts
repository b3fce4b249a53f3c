import type { SutConfig } from './question-format.js';
import { recordedTail, type SutContext, type SutOutcome } from './sut-request.js';

/** An OpenAI-compatible chat SUT's settings. */
export type HttpSut = Extract<SutConfig, { type: 'http' }>;

/**
 * Asks an OpenAI-compatible `/chat/completions` endpoint for one rep: the system prompt, then the case file and the
 * player's input as the user message. A non-2xx status, a timeout, or a body without a message is an error outcome.
 * The API key comes from the variable the question names, in the context's environment, and goes nowhere but the
 * request header.
 */
export async function runHttpSut(sut: HttpSut, context: SutContext): Promise<SutOutcome> {
  const started = performance.now();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = sut.apiKeyEnv ? context.env?.[sut.apiKeyEnv] : undefined;
  if (key) headers.authorization = `Bearer ${key}`;
  const input = Object.values(context.request.input)
    .filter((value) => typeof value === 'string')
    .join('\n');
  const body = {
    model: sut.model,
    messages: [
      ...(sut.system ? [{ role: 'system', content: sut.system }] : []),
      // A rollout's turns so far, as the conversation they were (the case file below also renders them).
      ...transcriptMessages(context.request.transcript),
      {
        role: 'user',
        content: `${context.request.caseFile}\n\n---\n\nPlayer input for turn ${context.request.turn}:\n${input}`,
      },
    ],
    ...(sut.temperature !== undefined ? { temperature: sut.temperature } : {}),
  };
  const url = `${sut.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  try {
    const reply = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(sut.timeout * 1_000),
    });
    const text = await reply.text();
    const ms = performance.now() - started;
    if (!reply.ok)
      return {
        error: { cause: 'http', message: `${url} answered ${reply.status}` },
        stdoutTail: recordedTail(text, context),
        ms,
      };
    let content: unknown;
    try {
      content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message
        ?.content;
    } catch {
      return {
        error: { cause: 'unparseable', message: `${url} answered with a body that is not JSON` },
        stdoutTail: recordedTail(text, context),
        ms,
      };
    }
    if (typeof content !== 'string' || content.trim() === '')
      return {
        error: { cause: 'unparseable', message: `${url} answered without choices[0].message.content` },
        stdoutTail: recordedTail(text, context),
        ms,
      };
    return { response: content, ms };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return {
      error: {
        cause: timedOut ? 'timeout' : 'http',
        message: timedOut ? `no answer within ${sut.timeout} s` : `${url}: ${(error as Error).message}`,
      },
      ms: performance.now() - started,
    };
  }
}

function transcriptMessages(transcript: SutContext['request']['transcript']): { role: string; content: string }[] {
  return (transcript ?? []).flatMap((turn) => [
    {
      role: 'user',
      content: `Player input for turn ${turn.turn}:\n${Object.values(turn.input)
        .filter((value) => typeof value === 'string')
        .join('\n')}`,
    },
    ...(turn.response !== null ? [{ role: 'assistant', content: turn.response }] : []),
  ]);
}
