import { toolCallsText } from '../../../run-dir/tool-calls-markdown.js';
import { toolCallsBlock } from './tool-calls.js';
import type { RolloutView, TurnView } from '../../turn-views.js';
import type { RepView, RunView } from '../../view-data.js';
import { h } from './dom.js';

/*
 * The page script's rollout turns: a rollout rep's turns in order (the player's input, the response, the turn's
 * checks, its error, what it changed, its marks in each marks file) and where the rollout stopped; and one turn as
 * the marker's pane shows it. Every text goes in through textContent (h's `text`), as everywhere on the page.
 */

function inputText(turn: TurnView): string {
  return turn.input.map((pair) => pair[1]).join(' / ');
}

function changedText(turn: TurnView): string {
  if (turn.changed === null) return 'changed: not read';
  const parts = turn.changed.map((c) => `${c.kind} ${c.rows} row${c.rows === 1 ? '' : 's'} of ${c.table}`);
  return `changed: ${parts.length > 0 ? parts.join(', ') : 'nothing'}; turn row written by ${turn.turnRow}`;
}

function stoppedText(rollout: RolloutView): string {
  if (!rollout.stopped) return '';
  const last = rollout.list[rollout.list.length - 1];
  const why = rollout.stopped === 'fail' ? 'a turn failed its checks' : 'a turn errored';
  return ` (stopped${last ? ` at turn ${last.turn}` : ''}: ${why})`;
}

function rolloutSummary(rollout: RolloutView): string {
  return `Rollout: ${rollout.played} of ${rollout.turns} turns played${stoppedText(rollout)}`;
}

/** The mark a list of [turn, mark] pairs gives one turn, or '' for none. */
export function turnMarkIn(pairs: [number, string][] | null | undefined, turn: number): string {
  for (let i = 0; pairs && i < pairs.length; i++) if (pairs[i]![0] === turn) return pairs[i]![1];
  return '';
}

function turnItem(turn: TurnView, marksFiles: string[], turnMarks: RepView['turnMarks']): HTMLElement {
  const check = turn.check ? turn.check.mark : 'none';
  const heading = `Turn ${turn.turn}${turn.check ? ` \u00b7 checks ${check}` : ''}${turn.error ? ' \u00b7 error' : ''} \u00b7 SUT ${Math.round(turn.sutMs)} ms`;
  const item = h('li', { class: 'turn', 'data-turn': turn.turn, 'data-check': check }, [
    h('h4', { text: heading }),
    h('p', { class: 'turn-input' }, [
      h('b', { text: 'Player: ' }),
      h('span', { class: 'text', text: inputText(turn) }),
    ]),
    turn.response === null
      ? h('p', { class: 'turn-response none', text: '(no response)' })
      : h('pre', { class: 'turn-response', text: turn.response }),
    toolCallsBlock(turn.toolCalls),
    turn.check
      ? h('p', {
          class: 'turn-check',
          text: `checks: ${turn.check.mark}${turn.check.reason ? ` (${turn.check.reason})` : ''}`,
        })
      : null,
    turn.error ? h('p', { class: 'turn-error', text: `ERROR (${turn.error.cause}): ${turn.error.message}` }) : null,
    h('p', { class: 'turn-changed', text: changedText(turn) }),
  ]);
  const given = marksFiles
    .map((name, i) => {
      const mark = turnMarkIn(turnMarks?.[i], turn.turn);
      return mark ? `${name}: ${mark}` : null;
    })
    .filter(Boolean);
  if (given.length > 0) item.appendChild(h('p', { class: 'turn-marks', text: `marked by hand: ${given.join(', ')}` }));
  return item;
}

/** A rollout rep's turns, in its rep card. */
export function rolloutBlock(run: RunView, rollout: RolloutView, turnMarks: RepView['turnMarks']): HTMLElement {
  return h('section', { class: 'rollout' }, [
    h('p', { class: 'rollout-summary', text: rolloutSummary(rollout) }),
    h(
      'ol',
      { class: 'turns' },
      rollout.list.map((turn) => turnItem(turn, run.marksFiles, turnMarks)),
    ),
  ]);
}

/** One turn in the marker's pane, as the terminal marker shows it: where it stands, input, response, error, checks. */
export function turnPaneText(rollout: RolloutView, at: number, mine: string): string {
  const turn = rollout.list[at]!;
  const lastTurn = rollout.list[0]!.turn + rollout.turns - 1;
  const stopped = at === rollout.list.length - 1 ? stoppedText(rollout).replace(/^ \((.*)\)$/, '; $1') : '';
  const parts = [
    `TURN ${turn.turn} of ${lastTurn} (step ${at + 1} of ${rollout.turns}; ${rollout.played} played${stopped})`,
    '',
    'Player:',
  ];
  for (const pair of turn.input) parts.push(`  ${pair[0]}: ${pair[1]}`);
  parts.push('', 'Response:', `${turn.response === null ? '(none)' : turn.response}${toolCallsText(turn.toolCalls)}`);
  if (turn.error) parts.push('', `ERROR (${turn.error.cause}): ${turn.error.message}`);
  if (turn.check) parts.push('', `checks: ${turn.check.mark} (${turn.check.reason})`);
  parts.push('', changedText(turn), '', `your mark for this turn: ${mine || '(none)'}`);
  return parts.join('\n');
}

/** A rollout's text as the rep list's search reads it. */
export function turnSearchText(rollout: RolloutView): string {
  return rollout.list
    .map((turn) => `${inputText(turn)}\n${turn.response || ''}\n${turn.error ? turn.error.message : ''}`)
    .join('\n');
}
