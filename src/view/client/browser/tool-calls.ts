import type { ToolCall } from '../../view-data.js';
import { h } from './dom.js';

/*
 * The page script's tool calls: a rep's (or a turn's) calls in order with their results or errors, as the rep's
 * Markdown lists them. What the SUT sent is untrusted text: it goes in by textContent only (dom.ts).
 */

/** Characters of an argument list or a result shown on a call's line (the rep file keeps the whole bounded value). */
const SHOWN = 300;

/** A value as a call's line shows it: a string as it is, anything else as JSON, cut to SHOWN characters. */
function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= SHOWN ? flat : `${flat.slice(0, SHOWN)}\u2026`;
}

/** One call as a line: `2. create_job {"pump":"P-7"} → error: approval required`, numbered from 1. */
export function toolCallText(call: ToolCall, index: number): string {
  const outcome =
    typeof call.error === 'string'
      ? ` \u2192 error: ${shownValue(call.error)}`
      : call.result !== undefined
        ? ` \u2192 ${shownValue(call.result)}`
        : '';
  const when = call.at ? ` (at ${call.at})` : '';
  return `${index + 1}. ${call.name} ${shownValue(call.arguments)}${outcome}${when}${call.truncated ? ' [cut]' : ''}`;
}

/** The calls as the marker's text pane shows them, after the response; '' when there are none. */
export function toolCallsPaneText(calls: readonly ToolCall[] | undefined): string {
  if (!calls || calls.length === 0) return '';
  return `\n\nTool calls (${calls.length}):\n${calls.map((call, i) => `  ${toolCallText(call, i)}`).join('\n')}`;
}

/** The calls as a list in a rep card or a turn; null when there are none. */
export function toolCallsBlock(calls: readonly ToolCall[] | undefined): HTMLElement | null {
  if (!calls || calls.length === 0) return null;
  return h('section', { class: 'tool-calls' }, [
    h('h4', { text: `Tool calls (${calls.length})` }),
    h(
      'ol',
      null,
      calls.map((call, i) =>
        h('li', { class: typeof call.error === 'string' ? 'tool-call failed' : 'tool-call' }, [
          h('code', { text: toolCallText(call, i).replace(/^\d+\. /, '') }),
        ]),
      ),
    ),
  ]);
}
