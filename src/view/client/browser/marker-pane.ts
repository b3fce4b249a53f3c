import { toolCallsText } from '../../../run-dir/tool-calls-markdown.js';
import type { MarkdownNode } from '../../markdown-doc.js';
import { markerOf, rolloutOf, type Marker } from './marker-context.js';
import { turnMarkIn, turnPaneText } from './turns.js';

/**
 * What the marker's pane shows for the rep at `pos`: a rollout's turn, the response (or the error with the streams'
 * tails), or the case file as Markdown; blind, the shuffled rep's own text. Only for a rep whose page has come.
 */
export function paneContent(mk: Marker, pos: number): string | MarkdownNode[] {
  const { st } = mk;
  const m = markerOf(mk);
  const rollout = rolloutOf(mk, pos);
  if (st.pane === 'response' && rollout && rollout.list.length > 0)
    return turnPaneText(rollout, st.turn, turnMarkIn(m.turnMarks[pos], rollout.list[st.turn]!.turn));
  if (mk.blind) {
    const b = st.loaded.blindReps[pos]!;
    if (st.pane === 'case') return st.loaded.blindCaseFileDocs[b.caseFile]!;
    const said = `${b.response || ''}${toolCallsText(b.toolCalls)}`;
    return b.error ? b.error + (said ? `\n\nResponse:\n${said}` : '') : said;
  }
  const rep = st.loaded.reps[pos]!;
  if (st.pane === 'case') return st.loaded.fixtures[rep.f]!.caseFileDoc;
  if (rep.status === 'not run') return 'NOT RUN: this rep has no record yet.';
  if (!rep.error) return `${rep.response || ''}${toolCallsText(rep.toolCalls)}`;
  return [
    `ERROR (${rep.error.stage}: ${rep.error.cause}): ${rep.error.message}`,
    rep.response ? `Response:\n${rep.response}` : '',
    toolCallsText(rep.toolCalls).trim(),
    rep.stdoutTail ? `stdout (end):\n${rep.stdoutTail}` : '',
    rep.stderrTail ? `stderr (end):\n${rep.stderrTail}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
