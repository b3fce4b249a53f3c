import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received, as sent on the wire. */
export interface RecordedRequest {
  method: string;
  /** The path, such as /v1/chat/completions or /v1/messages. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body text. */
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  body: any;
  /** Which wire format the path belongs to. */
  api: 'openai' | 'anthropic' | 'unknown';
}

/**
 * What the server answers one request with:
 * - `{ content }`: a 200 answer in the wire format of the path, the assistant's text being `content`;
 * - `{ status, headers?, body? }`: that status with that body (JSON text or anything), such as 429 or 500;
 * - `{ raw, status? }`: a body sent as it is (garbage) with status 200 unless given;
 * - `{ destroy: true }`: the connection is cut before any answer.
 * `delayMs` holds the answer back that long (to let requests overlap; never asserted on).
 */
export type Reply =
  | { content: string; delayMs?: number; model?: string; usage?: { input: number; output: number } }
  | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }
  | { raw: string; status?: number; contentType?: string; delayMs?: number }
  | { destroy: true };

/** Picks the reply for a request; `index` counts every request the server got, from 0. */
export type Responder = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

/** A running fake server speaking the OpenAI chat completions and the Anthropic Messages wire formats. */
export interface FakeLlmServer {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The base URL an OpenAI client takes (the host and /v1). */
  openaiBaseUrl: string;
  /** The base URL the Anthropic SDK takes (the host only: the SDK adds /v1/messages). */
  anthropicBaseUrl: string;
  /** Every request received, in arrival order. */
  requests: RecordedRequest[];
  /** The most requests that were open at once (arrived, not yet answered). */
  maxInFlight: number;
  /** Replaces the responder. */
  respond(responder: Responder): void;
  /** Forgets the requests received and the in-flight maximum. */
  reset(): void;
  close(): Promise<void>;
}

/** Headers that make the SDKs retry at once instead of after their default backoff of about half a second. */
export const RETRY_NOW = { 'retry-after': '0', 'retry-after-ms': '1' } as const;

/** An OpenAI chat completion carrying `content`. */
export function openaiCompletion(
  content: string,
  model: string,
  usage = { input: 100, output: 20 },
): Record<string, unknown> {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content, refusal: null } },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

/**
 * An OpenAI chat completion whose message asks for tool calls (`tool_calls`, each function's arguments a JSON text
 * as the API sends them, or any text given as is), with `content` beside them (null: the model only called tools).
 */
export function openaiToolCallCompletion(
  content: string | null,
  calls: { name: string; arguments: Record<string, unknown> | string }[],
  model = 'gm-small',
): Record<string, unknown> {
  const completion = openaiCompletion('', model);
  const message = {
    role: 'assistant',
    content,
    refusal: null,
    tool_calls: calls.map((call, i) => ({
      id: `call_${i}`,
      type: 'function',
      function: {
        name: call.name,
        arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    })),
  };
  return { ...completion, choices: [{ index: 0, finish_reason: 'tool_calls', logprobs: null, message }] };
}

/** An Anthropic Messages answer carrying `text`. */
export function anthropicMessage(
  text: string,
  model: string,
  usage = { input: 100, output: 20 },
): Record<string, unknown> {
  return {
    id: `msg_${Math.random().toString(36).slice(2)}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

function apiOf(path: string): RecordedRequest['api'] {
  if (path === '/v1/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  return 'unknown';
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body);
}

/** Starts the fake server on 127.0.0.1 at a free port; by default every request is answered with a valid pass. */
export async function startFakeLlmServer(responder?: Responder): Promise<FakeLlmServer> {
  let current: Responder = responder ?? (() => ({ content: '{"verdict": "pass", "reason": "default answer"}' }));
  let inFlight = 0;
  const state = { requests: [] as RecordedRequest[], maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    let settled = false;
    const done = (): void => {
      if (settled) return;
      settled = true;
      inFlight--;
    };
    res.on('close', done);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = undefined;
        }
        const path = (req.url ?? '/').split('?')[0]!;
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path,
          headers: req.headers,
          text,
          body,
          api: apiOf(path),
        };
        const index = state.requests.length;
        state.requests.push(recorded);
        let reply: Reply;
        try {
          reply = await current(recorded, index);
        } catch (error) {
          send(res, 500, JSON.stringify({ error: { message: `responder failed: ${String(error)}` } }));
          return;
        }
        if ('destroy' in reply) {
          req.socket.destroy();
          return;
        }
        if (reply.delayMs) await sleep(reply.delayMs);
        if ('content' in reply) {
          const model =
            reply.model ??
            (typeof (body as { model?: unknown })?.model === 'string'
              ? (body as { model: string }).model
              : 'fake-model');
          if (recorded.api === 'openai')
            return send(res, 200, JSON.stringify(openaiCompletion(reply.content, model, reply.usage)));
          if (recorded.api === 'anthropic')
            return send(res, 200, JSON.stringify(anthropicMessage(reply.content, model, reply.usage)));
          return send(res, 404, JSON.stringify({ error: { message: `no route ${path}` } }));
        }
        if ('raw' in reply)
          return send(res, reply.status ?? 200, reply.raw, { 'content-type': reply.contentType ?? 'application/json' });
        const fallback = JSON.stringify({
          error: {
            type: reply.status === 429 ? 'rate_limit_error' : 'api_error',
            message: `fake status ${reply.status}`,
          },
        });
        send(res, reply.status, reply.body ?? fallback, reply.headers ?? {});
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    get requests() {
      return state.requests;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    respond(next) {
      current = next;
    },
    reset() {
      state.requests = [];
      state.maxInFlight = inFlight;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** A port on 127.0.0.1 where nothing listens (a server is opened there and closed again). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The judge's user message in a recorded request, whichever wire format it came in. */
export function userMessageOf(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const user = messages.find((message) => message.role === 'user');
  if (typeof user?.content === 'string') return user.content;
  if (Array.isArray(user?.content)) return user.content.map((block: { text?: string }) => block.text ?? '').join('');
  return '';
}

/** The judge's system prompt in a recorded request (a system message for OpenAI, `system` for Anthropic). */
export function systemPromptOf(request: RecordedRequest): string {
  if (typeof request.body?.system === 'string') return request.body.system;
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const system = messages.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}
