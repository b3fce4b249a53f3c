import type pg from 'pg';
import { passwordForms, withoutSecrets } from '../util/redact-password.js';
import type { Usage } from '../model/spend.js';
import { answerSpend } from './sut-answer.js';
import type { ToolCall } from './tool-call.js';
import { answerToolCalls } from './sut-tool-calls.js';
/** What the SUT is asked for one rep: on stdin as JSON for a command, as the argument of a module's function. */
export interface SutRequest {
  /** The scratch campaign's root key: the campaign the SUT plays. */
  campaign: string;
  turn: number;
  /** The player's input columns for the turn (with several players' moves in one turn, the first move's). */
  input: Record<string, unknown>;
  /**
   * Every move of the turn in the game's order, when it holds several (a game that takes each player's move and
   * then narrates once: `role.endsTurn`); `input` is the first. Absent for a turn of one move.
   */
  inputs?: Record<string, unknown>[];
  /** The rendered case file (Markdown). */
  caseFile: string;
  fixture: string;
  rep: number;
  /** In a rollout, the turns played before this one (absent in a one-turn rep). */
  transcript?: { turn: number; input: Record<string, unknown>; response: string | null }[];
}

/** Why a rep is an error rather than a response. */
export type SutErrorCause =
  | 'spawn'
  | 'exit'
  | 'signal'
  | 'timeout'
  | 'output-too-large'
  | 'unparseable'
  | 'empty'
  | 'http'
  | 'exception';

/** The SUT's answer, or the error it ended in, with what it printed (tails, bounded). */
export interface SutOutcome {
  response?: string;
  error?: { cause: SutErrorCause; message: string };
  exitCode?: number | null;
  signal?: string | null;
  stdoutTail?: string;
  stderrTail?: string;
  ms: number;
  /** Tokens the SUT's model used, when the SUT reported them (the http SUT: the API's `usage`). */
  usage?: Usage;
  /** What the call cost, when the SUT said (else it is priced from the config's prices for its model). */
  cost?: number;
  /** The tool calls the SUT reported making, in order (bounded; see sut-tool-calls.ts). */
  toolCalls?: ToolCall[];
  /** The model id the SUT's response reported (an http SUT: the API's `model` field), for the manifest. */
  model?: string;
}

/** Where the SUT finds its scratch campaign, besides the request. */
export interface SutContext {
  /** The scratch campaign's database (may hold a password: never printed or recorded). */
  databaseUrl: string;
  request: SutRequest;
  /** Other secrets the SUT can see (API keys, tokens): with the database password, kept out of what is recorded. */
  secrets?: readonly string[];
  /** Aborted when turnkit quits: a command SUT is killed at once, with everything it started. */
  quit?: AbortSignal | undefined;
  /**
   * The environment a command SUT inherits and `${NAME}` in its `env` expands from (the command line's is the
   * process's; the library reads none itself, so without one a command SUT gets only turnkit's variables).
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The end of a SUT's output as recorded, with every secret of the context removed first: removing them after the cut
 * could leave the part of one that straddles it.
 */
export function recordedTail(text: string, context: SutContext): string {
  return tail(withoutSecrets(text, [...passwordForms(context.databaseUrl), ...(context.secrets ?? [])]));
}

/**
 * Reads a SUT's stdout: plain text, or JSON with a string `response` (and optionally `usage`, `cost` and
 * `toolCalls`); anything else is unparseable.
 */
export function parseSutOutput(
  stdout: string,
):
  | { response: string; usage?: Usage; cost?: number; toolCalls?: ToolCall[] }
  | { error: { cause: SutErrorCause; message: string } } {
  const text = stdout.trim();
  if (text === '') return { error: { cause: 'empty', message: 'the SUT printed nothing' } };
  if (!text.startsWith('{')) return { response: text };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      error: { cause: 'unparseable', message: `stdout starts with "{" but is not JSON: ${(error as Error).message}` },
    };
  }
  const response = (value as { response?: unknown }).response;
  if (typeof response !== 'string')
    return { error: { cause: 'unparseable', message: 'stdout is JSON without a string "response" field' } };
  const spend = answerSpend(value);
  if ('error' in spend) return { error: { cause: 'unparseable', message: `stdout JSON: ${spend.error}` } };
  const tools = answerToolCalls(value);
  if ('error' in tools) return { error: { cause: 'unparseable', message: `stdout JSON: ${tools.error}` } };
  return { response, ...spend, ...tools };
}

/** The last `limit` characters of a text, marked when cut. */
function tail(text: string, limit = 2_000): string {
  return text.length <= limit ? text : `…${text.slice(-limit)}`;
}

/** What a SUT function receives besides the request: its scratch campaign's database and a signal to stop on. */
export interface SutTools {
  /** A pool on the scratch campaign's database, closed after the rep. */
  db: pg.Pool;
  databaseUrl: string;
  /** Aborted when the rep times out or turnkit quits: stop, the rep is over. */
  signal: AbortSignal;
}

/**
 * A SUT as a function (a module's export, or a library caller's own): a string or `{ response }` is the answer, with
 * the model's `usage`, the call's `cost` and the `toolCalls` it made when it knows them.
 */
export type SutFunction = (request: SutRequest, tools: SutTools) => SutFunctionAnswer | Promise<SutFunctionAnswer>;

/**
 * What a SUT function returns: the answer a command or module SUT prints, as an object. Its `usage` is spelled as in
 * that JSON (`input_tokens`, `output_tokens`, whole numbers), one reader for every kind (spend.ts). Exported though
 * nothing imports it: a SUT function's author may name its result type.
 * @public
 */
export type SutFunctionAnswer =
  | string
  | {
      response: string;
      usage?: { input_tokens: number; output_tokens: number };
      cost?: number;
      /** The tools it called, in order (docs/reference/sut-answer.md). */
      toolCalls?: SutToolCallAnswer[];
    };

/** One tool call as a SUT's answer reports it: arguments an object (or a JSON text of one), a result or an error. */
export interface SutToolCallAnswer {
  name: string;
  arguments?: Record<string, unknown> | string;
  result?: unknown;
  error?: string | null;
  /** When it was made (ISO 8601). */
  at?: string;
}
