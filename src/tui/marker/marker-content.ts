import wrapAnsi from 'wrap-ansi';
import type { MarkingSession } from '../../marks/marking-session.js';
import { reflowMarkdown } from '../../util/reflow-markdown.js';

/** What the marker's main pane can show for a rep. */
export type Pane = 'response' | 'case' | 'rubric';

/** The panes in Tab order, with their titles. */
export const PANES: readonly { pane: Pane; title: string }[] = [
  { pane: 'response', title: 'response' },
  { pane: 'case', title: 'case file' },
  { pane: 'rubric', title: 'rubric' },
];

/** The lines of a pane for a rep, wrapped to the width (the response of an errored rep is its error and output). */
export function paneLines(session: MarkingSession, index: number, pane: Pane, width: number): string[] {
  const rep = session.reps[index]!;
  let text: string;
  // Hard-wrapped Markdown reads as paragraphs wrapped to the pane, not as lines cut at the author's column.
  if (pane === 'case') text = reflowMarkdown(rep.caseFile);
  else if (pane === 'rubric')
    text = reflowMarkdown(
      `${session.manifest.question.text}\n\nRubric version ${session.manifest.rubric.version}\n\n${session.rubric}`,
    );
  else text = responseText(rep.record);
  return session
    .shown(text)
    .replace(/\t/g, '  ')
    .split('\n')
    .flatMap((line) => wrapAnsi(line, Math.max(10, width), { hard: true, trim: false }).split('\n'));
}

function responseText(record: MarkingSession['reps'][number]['record']): string {
  if (!record) return 'NOT RUN: this rep has no record (an interrupted run; turnkit run --resume finishes it).';
  if (!record.error) return record.response ?? '';
  const parts = [`ERROR (${record.error.stage}: ${record.error.cause}): ${record.error.message}`];
  if (record.response) parts.push('', 'Response:', record.response);
  if (record.stdoutTail) parts.push('', 'stdout (end):', record.stdoutTail);
  if (record.stderrTail) parts.push('', 'stderr (end):', record.stderrTail);
  return parts.join('\n');
}
