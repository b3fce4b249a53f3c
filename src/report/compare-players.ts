import { TurnkitError } from '../errors.js';
import type { InputTraits } from '../rollout/input-traits.js';
import { playerDifference, type PlayerIdentity } from '../rollout/player-identity.js';
import { mantelHaenszel, pairedStratum } from '../stats/mantel-haenszel.js';
import { shownPath } from '../util/shown-path.js';
import type { Report } from './build-report.js';
import { signed } from './report-text.js';

/** Below this p a difference between a simulated player and recorded inputs is flagged. */
const PLAYER_BIAS_ALPHA = 0.05;

/** One rollout turn: the reps still passing with each player, and the difference stratified by fixture. */
interface PlayerStep {
  step: number;
  turn: number;
  simulated: { surviving: number; reps: number };
  recorded: { surviving: number; reps: number };
  /** Survival with the simulated player minus with the recorded inputs, pooled over fixtures (Mantel-Haenszel). */
  difference: number | null;
  /** The Cochran-Mantel-Haenszel test of that difference, stratified by fixture. */
  p: number | null;
}

/** A rollout run with a simulated (or scripted, or command) player against one with the recorded inputs. */
export interface PlayersComparison {
  /** Which run played the recorded inputs. */
  recordedIn: 'here' | 'there';
  simulated: PlayerIdentity;
  steps: PlayerStep[];
  inputs: { simulated: InputTraits; recorded: InputTraits };
  /** A finding when the last turn's survival differs at p < PLAYER_BIAS_ALPHA: the simulated player biases the rates. */
  flag?: string;
}

/**
 * Compares the players of two rollout runs of one question. Runs of one player: nothing to say (undefined). One of
 * them on recorded inputs: survival per turn with each, stratified by fixture, and how the inputs read. Two
 * different players neither of which is recorded: refused, so a comparison never mixes players.
 */
export function comparePlayers(here: Report, there: Report): PlayersComparison | undefined {
  const mine = here.rollout;
  const theirs = there.rollout;
  if (!mine || !theirs) return undefined;
  const difference = playerDifference(mine.player, theirs.player);
  if (difference === undefined) return undefined;
  const recordedIn = mine.player.type === 'recorded' ? 'here' : theirs.player.type === 'recorded' ? 'there' : undefined;
  if (recordedIn === undefined)
    throw new TurnkitError(
      'BAD_INPUT',
      `--compare ${shownPath(there.dir)}: the runs' players differ (${difference}); a comparison must not mix players: compare each with a run of the recorded inputs (turnkit run --players recorded)`,
    );
  const [simulatedRun, recordedRun] = recordedIn === 'here' ? [theirs, mine] : [mine, theirs];
  const recordedByName = new Map(recordedRun.fixtures.map((fixture) => [fixture.fixture, fixture]));
  const paired = simulatedRun.fixtures.flatMap((fixture) => {
    const other = recordedByName.get(fixture.fixture);
    return other ? [{ simulated: fixture, recorded: other }] : [];
  });
  const turns = Math.min(simulatedRun.turns, recordedRun.turns);
  const steps: PlayerStep[] = Array.from({ length: turns }, (_, i) => {
    const at = paired.map(({ simulated, recorded }) => ({
      simulated: { surviving: simulated.steps[i]?.surviving ?? 0, reps: simulated.reps },
      recorded: { surviving: recorded.steps[i]?.surviving ?? 0, reps: recorded.reps },
    }));
    const passFail = (side: { surviving: number; reps: number }) => ({
      pass: side.surviving,
      fail: side.reps - side.surviving,
    });
    const test = mantelHaenszel(
      at.map((stratum) => pairedStratum(passFail(stratum.simulated), passFail(stratum.recorded))),
    );
    const sum = (side: 'simulated' | 'recorded', field: 'surviving' | 'reps') =>
      at.reduce((total, stratum) => total + stratum[side][field], 0);
    return {
      step: i + 1,
      turn: paired[0]?.simulated.steps[i]?.turn ?? i + 1,
      simulated: { surviving: sum('simulated', 'surviving'), reps: sum('simulated', 'reps') },
      recorded: { surviving: sum('recorded', 'surviving'), reps: sum('recorded', 'reps') },
      difference: test.difference,
      p: test.p,
    };
  });
  const last = steps.at(-1);
  const flag =
    last && last.difference !== null && last.p !== null && last.p < PLAYER_BIAS_ALPHA
      ? `the simulated player's reps survive ${last.difference > 0 ? 'more' : 'less'} than with the recorded inputs by turn ${last.turn} (${signed(last.difference)}, p ${last.p < 0.001 ? '< 0.001' : last.p.toFixed(3)}): ${last.difference > 0 ? 'it is kinder than real players, and its pass rates overstate the SUT' : 'it is harder on the SUT than real players'}`
      : undefined;
  return {
    recordedIn,
    simulated: simulatedRun.player,
    steps,
    inputs: { simulated: simulatedRun.inputs, recorded: recordedRun.inputs },
    ...(flag ? { flag } : {}),
  };
}
