import type { ToolCall } from './tool-call.js';

/**
 * Characters kept of one string inside a call's arguments or result: a command SUT's default output cap, so that the
 * checks read what the SUT sent (a forbidden pattern at character 2,100 is still there), not a display's cut; the
 * rep's Markdown and the call lines show SHOWN_VALUE_LIMIT of it.
 */
export const TOOL_TEXT_LIMIT = 131_072;
/** Characters a call's result may take as JSON; a bigger result is kept as the start of its JSON text. */
export const TOOL_RESULT_LIMIT = 8_000;
/** The deepest nesting kept inside a tool call's arguments or result; deeper values are cut (`truncated`). */
export const TOOL_DEPTH_LIMIT = 64;
/** What stands for a value nested deeper than TOOL_DEPTH_LIMIT. */
const CUT_DEEPER = '…';
/** Calls one answer may report; past it the answer is refused (a SUT in a loop, not a record to keep). */
const MAX_TOOL_CALLS = 1_000;

/**
 * Reads `toolCalls` from a SUT's answer object (`{ response, toolCalls: [{ name, arguments, result?, error?, at? }] }`),
 * the one shape every kind reports in (docs/reference/sut-answer.md). An answer without it has none; a malformed one
 * is an error message naming the call's index, so that a SUT's bug is not silently an empty list.
 */
export function answerToolCalls(value: unknown): { toolCalls?: ToolCall[] } | { error: string } {
  const given = (value as { toolCalls?: unknown } | null)?.toolCalls;
  if (given === undefined || given === null) return {};
  if (!Array.isArray(given)) return { error: '"toolCalls" must be a list of { name, arguments, result?, error? }' };
  if (given.length > MAX_TOOL_CALLS)
    return { error: `"toolCalls" holds ${given.length} calls, more than ${MAX_TOOL_CALLS}` };
  const calls: ToolCall[] = [];
  for (const [index, entry] of given.entries()) {
    const call = toolCallOf(entry);
    if (typeof call === 'string') return { error: `"toolCalls"[${index}]: ${call}` };
    calls.push(call);
  }
  return { toolCalls: calls };
}

/**
 * Reads an OpenAI-compatible message's `tool_calls` (`[{ id, type: 'function', function: { name, arguments } }]`,
 * the arguments a JSON string): the calls the model asked for, in order, with no result (the endpoint ran none).
 */
export function openAiToolCalls(message: unknown): { toolCalls?: ToolCall[] } | { error: string } {
  const given = (message as { tool_calls?: unknown } | null)?.tool_calls;
  if (given === undefined || given === null) return {};
  if (!Array.isArray(given)) return { error: 'choices[0].message.tool_calls is not a list' };
  if (given.length > MAX_TOOL_CALLS)
    return { error: `choices[0].message.tool_calls holds more than ${MAX_TOOL_CALLS} calls` };
  const calls: ToolCall[] = [];
  for (const [index, entry] of given.entries()) {
    const fn = (entry as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    if (typeof fn?.name !== 'string' || fn.name === '')
      return { error: `choices[0].message.tool_calls[${index}] has no function.name` };
    calls.push(bounded({ name: fn.name, arguments: argumentsOf(fn.arguments ?? {}) }));
  }
  return { toolCalls: calls };
}

// One entry of an answer's toolCalls as the record keeps it, or why it cannot be one.
function toolCallOf(entry: unknown): ToolCall | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'expected { name, arguments }';
  const raw = entry as Record<string, unknown>;
  if (typeof raw.name !== 'string' || raw.name.trim() === '') return '"name" must be a non-empty string';
  if (raw.error !== undefined && raw.error !== null && typeof raw.error !== 'string')
    return '"error" must be a string or null';
  if (raw.at !== undefined && (typeof raw.at !== 'string' || Number.isNaN(Date.parse(raw.at))))
    return '"at" must be an ISO 8601 time';
  const call: ToolCall = { name: raw.name, arguments: argumentsOf(plainCopy(raw.arguments ?? {})) };
  if (raw.result !== undefined) call.result = plainCopy(raw.result);
  if (raw.error !== undefined) call.error = raw.error as string | null;
  if (raw.at !== undefined) call.at = raw.at as string;
  return bounded(call);
}

/** Arguments as an object when they are one or a JSON text of one (OpenAI sends a string), else the text as sent. */
function argumentsOf(value: unknown): Record<string, unknown> | string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // Not JSON: kept as the text the SUT sent, which a check can still read.
    }
    return value;
  }
  return JSON.stringify(value) ?? String(value);
}

/**
 * A call cut to the record's bounds: each string inside its arguments and result to TOOL_TEXT_LIMIT characters, a
 * result bigger than TOOL_RESULT_LIMIT as JSON to the start of that JSON; `truncated` says a cut was made. Short
 * values stay whole, so a check still reads them exactly.
 */
function bounded(call: ToolCall): ToolCall {
  let cut = false;
  // Depth-bounded, so a call nested 20,000 deep is kept to its first levels, not lost to a stack overflow.
  const clip = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') {
      if (value.length <= TOOL_TEXT_LIMIT) return value;
      cut = true;
      return `${value.slice(0, TOOL_TEXT_LIMIT)}…`;
    }
    if (typeof value !== 'object' || value === null) return value;
    if (depth >= TOOL_DEPTH_LIMIT) {
      cut = true;
      return CUT_DEEPER;
    }
    if (Array.isArray(value)) return value.map((inner) => clip(inner, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, clip(inner, depth + 1)]));
  };
  const out: ToolCall = {
    ...call,
    name: clip(call.name) as string,
    arguments: clip(call.arguments) as ToolCall['arguments'],
  };
  if (call.result !== undefined) {
    const result = clip(call.result);
    const text = JSON.stringify(result) ?? '';
    if (text.length > TOOL_RESULT_LIMIT) {
      cut = true;
      out.result = `${text.slice(0, TOOL_RESULT_LIMIT)}…`;
    } else out.result = result;
  }
  if (typeof call.error === 'string') out.error = clip(call.error) as string;
  if (cut || call.truncated) out.truncated = true;
  return out;
}

// A function SUT's values as JSON holds them (a record is JSON): a value JSON cannot hold becomes its text; one
// nested too deep for JSON.stringify is copied level by level to the depth a record keeps (bounded() marks the cut).
function plainCopy(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : JSON.parse(text);
  } catch (error) {
    return error instanceof RangeError ? shallowPlain(value, 0) : String(value);
  }
}

function shallowPlain(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null)
    return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || value === null
      ? value
      : String(value);
  if (depth > TOOL_DEPTH_LIMIT) return CUT_DEEPER;
  if (Array.isArray(value)) return value.map((inner) => shallowPlain(inner, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shallowPlain(inner, depth + 1)]));
}
