import { visibleControls } from '../util/visible-controls.js';
import type { ToolCall } from '../sut/tool-call.js';

/** Characters of a call's arguments or result shown on its line; the rep's JSON file keeps the whole (bounded) value. */
const SHOWN_VALUE_LIMIT = 300;

/**
 * One tool call as a line of text, numbered from 1 in call order: `2. create_job {"pump":"P-7"} → {"id":4}`, or
 * `→ error: ...`. What the SUT sent is text, never markup: callers escape or fence it as their medium needs.
 */
export function toolCallLine(call: ToolCall, index: number): string {
  const outcome =
    typeof call.error === 'string'
      ? ` → error: ${shownValue(call.error)}`
      : call.result !== undefined
        ? ` → ${shownValue(call.result)}`
        : '';
  const when = call.at ? ` (at ${call.at})` : '';
  // The name is what the SUT sent too: on one line, like the values (a newline in it would end a code span).
  return `${index + 1}. ${shownValue(call.name)} ${shownValue(call.arguments)}${outcome}${when}${call.truncated ? ' [cut]' : ''}`;
}

/**
 * The calls as a marker (the terminal's or the page's) lists them below the response, in order with their results:
 * what the SUT did, beside what it said; '' when there are none.
 */
export function toolCallsText(calls: readonly ToolCall[] | undefined): string {
  if (!calls || calls.length === 0) return '';
  return `\n\nTool calls (${calls.length}):\n${calls.map((call, i) => `  ${toolCallLine(call, i)}`).join('\n')}`;
}

/** A value as a call's line shows it: a string as it is, anything else as JSON, cut to SHOWN_VALUE_LIMIT. */
function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= SHOWN_VALUE_LIMIT ? flat : `${flat.slice(0, SHOWN_VALUE_LIMIT)}…`;
}

/**
 * A rep's tool calls as Markdown list items, each line in a code span so that what the SUT sent (asterisks, links,
 * HTML) reads as the text it is.
 */
export function toolCallsMarkdown(calls: readonly ToolCall[]): string[] {
  return calls.map((call, index) => {
    // Control characters as visible escapes: the file is read in terminals too (`cat rep-01.md`).
    const line = visibleControls(toolCallLine(call, index).replace(/^\d+\. /, ''));
    return `${index + 1}. ${codeSpan(line)}`;
  });
}

// A code span long enough to hold the backticks inside it (CommonMark: a run of ticks longer than any inside).
function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || longest > 0 ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}
