/**
 * The page script's rollout turns: a rollout rep's turns in order (the player's input, the response, the turn's
 * checks, its error, what it changed, its marks in each marks file) and where the rollout stopped; and one turn as
 * the marker's pane shows it. Every text goes in through textContent (h's `text`), as everywhere on the page.
 */
export const CLIENT_TURNS = String.raw`
function inputText(turn) { return turn.input.map(function (pair) { return pair[1]; }).join(' / '); }

function changedText(turn) {
  if (turn.changed === null) return 'changed: not read';
  var parts = turn.changed.map(function (c) { return c.kind + ' ' + c.rows + ' row' + (c.rows === 1 ? '' : 's') + ' of ' + c.table; });
  return 'changed: ' + (parts.length > 0 ? parts.join(', ') : 'nothing') + '; turn row written by ' + turn.turnRow;
}

function stoppedText(rollout) {
  if (!rollout.stopped) return '';
  var last = rollout.list[rollout.list.length - 1];
  return ' (stopped' + (last ? ' at turn ' + last.turn : '') + ': ' + (rollout.stopped === 'fail' ? 'a turn failed its checks' : 'a turn errored') + ')';
}

function rolloutSummary(rollout) {
  return 'Rollout: ' + rollout.played + ' of ' + rollout.turns + ' turns played' + stoppedText(rollout);
}

// The mark a list of [turn, mark] pairs gives one turn, or '' for none.
function turnMarkIn(pairs, turn) {
  for (var i = 0; pairs && i < pairs.length; i++) if (pairs[i][0] === turn) return pairs[i][1];
  return '';
}

function turnItem(turn, marksFiles, turnMarks) {
  var check = turn.check ? turn.check.mark : 'none';
  var item = h('li', { class: 'turn', 'data-turn': turn.turn, 'data-check': check }, [
    h('h4', { text: 'Turn ' + turn.turn + (turn.check ? ' \u00b7 checks ' + check : '') + (turn.error ? ' \u00b7 error' : '') + ' \u00b7 SUT ' + Math.round(turn.sutMs) + ' ms' }),
    h('p', { class: 'turn-input' }, [h('b', { text: 'Player: ' }), h('span', { class: 'text', text: inputText(turn) })]),
    turn.response === null ? h('p', { class: 'turn-response none', text: '(no response)' }) : h('pre', { class: 'turn-response', text: turn.response }),
    turn.check ? h('p', { class: 'turn-check', text: 'checks: ' + turn.check.mark + (turn.check.reason ? ' (' + turn.check.reason + ')' : '') }) : null,
    turn.error ? h('p', { class: 'turn-error', text: 'ERROR (' + turn.error.cause + '): ' + turn.error.message }) : null,
    h('p', { class: 'turn-changed', text: changedText(turn) }),
  ]);
  var given = marksFiles.map(function (name, i) {
    var mark = turnMarkIn(turnMarks && turnMarks[i], turn.turn);
    return mark ? name + ': ' + mark : null;
  }).filter(Boolean);
  if (given.length > 0) item.appendChild(h('p', { class: 'turn-marks', text: 'marked by hand: ' + given.join(', ') }));
  return item;
}

function rolloutBlock(run, rep) {
  return h('section', { class: 'rollout' }, [
    h('p', { class: 'rollout-summary', text: rolloutSummary(rep.rollout) }),
    h('ol', { class: 'turns' }, rep.rollout.list.map(function (turn) { return turnItem(turn, run.marksFiles, rep.turnMarks); })),
  ]);
}

// One turn in the marker's pane, as the terminal marker shows it: where it stands, input, response, error, checks.
function turnPaneText(rollout, at, mine) {
  var turn = rollout.list[at];
  var lastTurn = rollout.list[0].turn + rollout.turns - 1;
  var parts = ['TURN ' + turn.turn + ' of ' + lastTurn + ' (step ' + (at + 1) + ' of ' + rollout.turns + '; ' + rollout.played + ' played' +
    (at === rollout.list.length - 1 ? stoppedText(rollout).replace(/^ \((.*)\)$/, '; $1') : '') + ')', '', 'Player:'];
  turn.input.forEach(function (pair) { parts.push('  ' + pair[0] + ': ' + pair[1]); });
  parts.push('', 'Response:', turn.response === null ? '(none)' : turn.response);
  if (turn.error) parts.push('', 'ERROR (' + turn.error.cause + '): ' + turn.error.message);
  if (turn.check) parts.push('', 'checks: ' + turn.check.mark + ' (' + turn.check.reason + ')');
  parts.push('', changedText(turn), '', 'your mark for this turn: ' + (mine || '(none)'));
  return parts.join('\n');
}

function turnSearchText(rollout) {
  return rollout.list.map(function (turn) { return inputText(turn) + '\n' + (turn.response || '') + '\n' + (turn.error ? turn.error.message : ''); }).join('\n');
}
`;
