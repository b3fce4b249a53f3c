import { toolCallLine } from '../../../run-dir/tool-calls-markdown.js';
import type { ToolCall } from '../../view-data.js';
import { h } from './dom.js';

/*
 * The page script's tool calls: a rep's (or a turn's) calls in order with their results or errors, as the rep's
 * Markdown lists them. What the SUT sent is untrusted text: it goes in by textContent only (dom.ts).
 */

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
          h('code', { text: toolCallLine(call, i).replace(/^\d+\. /, '') }),
        ]),
      ),
    ),
  ]);
}
