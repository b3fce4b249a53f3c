import type AnthropicClient from '@anthropic-ai/sdk';
import type OpenAIClient from 'openai';
import { splitBaseUrl } from '../util/url-secrets.js';
import { BodyTooLargeError, boundedFetch } from './bounded-fetch.js';

/**
 * The one model client of turnkit: the official OpenAI and Anthropic SDKs, which retry 429 and 5xx answers, timeouts
 * and lost connections with exponential backoff (honouring retry-after). The http SUT, the simulated player and the
 * judges all make their clients here; each reads the answer and words its errors as its own records need.
 */

/** The SDKs' classes, loaded at the first request (about 1,700 modules with OpenTelemetry), not with every command. */
export interface ModelSdks {
  OpenAI: typeof OpenAIClient;
  Anthropic: typeof AnthropicClient;
}

let openAi: Promise<typeof OpenAIClient> | undefined;
let anthropic: Promise<typeof AnthropicClient> | undefined;

/** The OpenAI SDK's class, loaded once at the first request. */
export function loadOpenAi(): Promise<typeof OpenAIClient> {
  openAi ??= import('openai').then((module) => module.default);
  return openAi;
}

/** Both SDKs' classes, loaded once at the first request. */
export async function loadSdks(): Promise<ModelSdks> {
  anthropic ??= import('@anthropic-ai/sdk').then((module) => module.default);
  const [OpenAI, Anthropic] = await Promise.all([loadOpenAi(), anthropic]);
  return { OpenAI, Anthropic };
}

/** Where a model is and how hard to try: the settings every caller gives the client. */
export interface ModelEndpoint {
  /** The base URL; absent for the provider's own API. */
  baseUrl?: string | undefined;
  /** The API key; local servers (Ollama, llama.cpp) take none. */
  apiKey?: string | undefined;
  /** Attempts after the first. */
  retries: number;
  /** Milliseconds per attempt. */
  timeoutMs: number;
  /** Bytes of a response body read at most (the body stream errors past it with BodyTooLargeError). */
  maxBody?: number | undefined;
}

/** The settings an SDK client is made with (the parts both SDKs share, and the OpenAI one's extras). */
function clientOptions(endpoint: ModelEndpoint) {
  return {
    // The SDKs insist on a key.
    apiKey: endpoint.apiKey || 'unused',
    maxRetries: endpoint.retries,
    timeout: endpoint.timeoutMs,
    ...(endpoint.maxBody !== undefined ? { fetch: boundedFetch(endpoint.maxBody) } : {}),
  };
}

/**
 * An OpenAI-compatible client. A base URL's user info and query stay out of the endpoint: the query is sent as the
 * default query (so that the path goes before it) and the user info as Basic authorization when there is no key;
 * without either, no Authorization header at all rather than a made-up one.
 */
export async function openAiClient(endpoint: ModelEndpoint): Promise<OpenAIClient> {
  const OpenAI = await loadOpenAi();
  const base = endpoint.baseUrl !== undefined ? splitBaseUrl(endpoint.baseUrl) : undefined;
  return new OpenAI({
    ...clientOptions(endpoint),
    ...(base ? { baseURL: base.endpoint } : {}),
    ...(base && Object.keys(base.query).length > 0 ? { defaultQuery: base.query } : {}),
    ...(endpoint.apiKey ? {} : { defaultHeaders: { authorization: base?.basic ?? null } }),
  });
}

/** An Anthropic client (the Messages API). */
export async function anthropicClient(endpoint: ModelEndpoint): Promise<AnthropicClient> {
  const { Anthropic } = await loadSdks();
  return new Anthropic({
    ...clientOptions(endpoint),
    ...(endpoint.baseUrl !== undefined ? { baseURL: endpoint.baseUrl } : {}),
  });
}

/** What went wrong with a model request, in the terms every caller words its message from. */
export type ModelFailure =
  | { kind: 'too-large' }
  | { kind: 'timeout' }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'connection' }
  | { kind: 'not-json'; message: string }
  | { kind: 'other'; message: string };

/** Sorts an error a model request threw (after the SDK's retries) into what the caller needs to say. */
export function modelFailure(sdks: Partial<ModelSdks>, error: unknown): ModelFailure {
  const message = (error as Error)?.message?.split('\n')[0] ?? String(error);
  if (tooLarge(error)) return { kind: 'too-large' };
  const { OpenAI, Anthropic } = sdks;
  if (
    (OpenAI && error instanceof OpenAI.APIConnectionTimeoutError) ||
    (Anthropic && error instanceof Anthropic.APIConnectionTimeoutError)
  )
    return { kind: 'timeout' };
  const status = (error as { status?: unknown })?.status;
  if (
    ((OpenAI && error instanceof OpenAI.APIError) || (Anthropic && error instanceof Anthropic.APIError)) &&
    typeof status === 'number'
  )
    return { kind: 'status', status, body: (error as { error?: unknown }).error ?? null };
  if (
    (OpenAI && error instanceof OpenAI.APIConnectionError) ||
    (Anthropic && error instanceof Anthropic.APIConnectionError)
  )
    return { kind: 'connection' };
  // A body the SDK could not read as JSON (garbage with a 200), or anything else it threw.
  if (error instanceof SyntaxError) return { kind: 'not-json', message };
  return { kind: 'other', message };
}

// The SDK may hand the body's error on as it is, or as the cause of its own.
function tooLarge(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth++)
    if (at instanceof BodyTooLargeError) return true;
  return false;
}

/**
 * The model id a response reported (its `model` field), as the manifest records it: a string of printable
 * characters, at most 200, else nothing. The id comes from the endpoint: untrusted text, kept as data only.
 */
export function reportedModel(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const id = value.trim();
  return id !== '' && id.length <= 200 && !/[\u0000-\u001f\u007f-\u009f]/.test(id) ? id : undefined;
}
