import { type ReportStyle, signed, styled } from './report-text.js';
import type { InputTraits } from '../rollout/input-traits.js';
import type { PlayerIdentity } from '../rollout/player-identity.js';
import type { PlayersComparison } from './compare-players.js';

/**
 * The player comparison as lines: survival per turn with the simulated player and with the recorded inputs, the
 * difference stratified by fixture, how the inputs read, and the flag when the player biases the rates.
 */
export function formatPlayers(players: PlayersComparison, style: ReportStyle): string[] {
  const { table, heading } = styled(style, '###');
  const texts = playersTexts(players);
  const lines = [heading(texts.title), ''];
  lines.push(
    ...table(
      [
        ['turn', 'simulated', 'recorded', 'difference', 'CMH p'],
        ...players.steps.map((step) => [
          String(step.turn),
          `${step.simulated.surviving}/${step.simulated.reps}`,
          `${step.recorded.surviving}/${step.recorded.reps}`,
          signed(step.difference),
          step.p === null ? '-' : step.p < 0.001 ? '< 0.001' : step.p.toFixed(3),
        ]),
      ],
      ['right', 'right', 'right', 'right', 'right'],
    ),
    '',
    `Inputs, simulated: ${texts.simulated}`,
    `Inputs, recorded:  ${texts.recorded}`,
  );
  if (players.flag) lines.push(`flag: ${players.flag}`);
  return lines;
}

/** The comparison's words, as the text report and the page both show them: its title and how each side's inputs read. */
export function playersTexts(players: PlayersComparison): { title: string; simulated: string; recorded: string } {
  return {
    title: `Simulated player (${describePlayer(players.simulated)}) against the recorded inputs (${players.recordedIn === 'here' ? 'this run' : 'the other run'})`,
    simulated: describeTraits(players.inputs.simulated),
    recorded: describeTraits(players.inputs.recorded),
  };
}

function describePlayer(player: PlayerIdentity): string {
  if (player.type === 'simulated') return `${player.model}, persona sha256 ${player.promptSha256?.slice(0, 12)}`;
  if (player.type === 'command') return `command ${player.command}`;
  return player.type;
}

function describeTraits(traits: InputTraits): string {
  if (traits.inputs === 0) return 'none';
  const share = (count: number) => `${Math.round((100 * count) / traits.inputs)}%`;
  return `${traits.inputs} inputs, ${Math.round(traits.meanLength ?? 0)} characters on average, ${share(traits.questions)} ask, ${share(traits.refusals)} refuse, ${share(traits.derails)} leave the narration`;
}
