import { visibleControls } from '../../util/visible-controls.js';
import wrapAnsi from 'wrap-ansi';
import type { MarkingSession } from '../../marking/marking-session.js';
import { reflowMarkdown } from '../../util/reflow-markdown.js';
import { toolCallsText } from '../../run-dir/tool-calls-markdown.js';

/** What the marker's main pane can show for a rep. */
export type Pane = 'response' | 'case' | 'rubric';

/** The panes in Tab order, with their titles. */
export const PANES: readonly { pane: Pane; title: string }[] = [
  { pane: 'response', title: 'response' },
  { pane: 'case', title: 'case file' },
  { pane: 'rubric', title: 'rubric' },
];

/**
 * The lines of a pane for a rep, wrapped to the width (the response of an errored rep is its error and output; a
 * rollout's response pane shows one turn, `turnIndex` of those it played).
 */
export function paneLines(session: MarkingSession, index: number, pane: Pane, width: number, turnIndex = 0): string[] {
  const rep = session.reps[index]!;
  let text: string;
  // Hard-wrapped Markdown reads as paragraphs wrapped to the pane, not as lines cut at the author's column.
  if (pane === 'case') text = reflowMarkdown(rep.caseFile);
  else if (pane === 'rubric')
    text = reflowMarkdown(
      `${session.manifest.question.text}\n\nRubric version ${session.manifest.rubric.version}\n\n${session.rubric}`,
    );
  else text = rep.record?.turns?.length ? turnText(session, index, turnIndex) : responseText(rep.record);
  // Control characters (an escape sequence in a response) show as visible escapes, never reach the terminal raw.
  return visibleControls(session.shown(text).replace(/\t/g, '  '))
    .split('\n')
    .flatMap((line) => wrapAnsi(line, Math.max(10, width), { hard: true, trim: false }).split('\n'));
}

function responseText(record: MarkingSession['reps'][number]['record']): string {
  if (!record) return 'NOT RUN: this rep has no record (an interrupted run; turnkit run --resume finishes it).';
  if (!record.error) return `${record.response ?? ''}${toolCallsText(record.toolCalls)}`;
  const parts = [`ERROR (${record.error.stage}: ${record.error.cause}): ${record.error.message}`];
  if (record.response) parts.push('', 'Response:', record.response);
  if (record.toolCalls?.length) parts.push('', toolCallsText(record.toolCalls).trimStart());
  if (record.stdoutTail) parts.push('', 'stdout (end):', record.stdoutTail);
  if (record.stderrTail) parts.push('', 'stderr (end):', record.stderrTail);
  return parts.join('\n');
}

/** How many turns a rep's response pane steps through: a rollout's played turns, else none. */
export function turnCount(session: MarkingSession, index: number): number {
  return session.reps[index]!.record?.turns?.length ?? 0;
}

/** One turn of a rollout: where it stands among the turns, the player's input, then the response (or its error). */
function turnText(session: MarkingSession, index: number, turnIndex: number): string {
  const record = session.reps[index]!.record!;
  const turns = record.turns!;
  const at = Math.max(0, Math.min(turns.length - 1, turnIndex));
  const turn = turns[at]!;
  const planned = record.rollout?.turns ?? turns.length;
  const lastTurn = turns[0]!.turn + planned - 1;
  const ended = record.rollout?.stopped
    ? `; the rollout stopped here (${record.rollout.stopped === 'fail' ? 'a turn failed its checks' : 'a turn errored'})`
    : '';
  const parts = [
    `TURN ${turn.turn} of ${lastTurn} (step ${at + 1} of ${planned}; ${turns.length} played${at === turns.length - 1 ? ended : ''})`,
    '',
    'Player:',
    ...Object.entries(turn.input).map(
      ([column, value]) => `  ${column}: ${typeof value === 'string' ? value : JSON.stringify(value)}`,
    ),
    '',
    'Response:',
    `${turn.response ?? '(none)'}${toolCallsText(turn.toolCalls)}`,
  ];
  if (turn.error) parts.push('', `ERROR (${turn.error.cause}): ${turn.error.message}`);
  if (turn.check) parts.push('', `checks: ${turn.check.mark} (${turn.check.reason})`);
  const mine = session.turnMarkOf(index, turn.turn);
  parts.push('', `your mark for this turn: ${mine ?? '(none)'}`);
  return parts.join('\n');
}
