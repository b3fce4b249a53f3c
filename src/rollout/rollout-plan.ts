import type { LoadedConfig } from '../config/load.js';
import { factQueriesOf } from '../question/fact-queries.js';
import { TurnkitError } from '../errors.js';
import type { Fixture } from '../fixture/format.js';
import { resolveGameGraph, type GameGraph } from '../fixture/graph/game-graph.js';
import type { ScratchSession } from '../scratch/scratch-session.js';
import type { CaseFileSource } from '../question/case-file-source.js';
import type { LoadedQuestion } from '../question/load-question.js';
import type { RolloutSpec } from './run-rollout.js';
import { hiddenValues } from '../checks/hidden-checks.js';

/** A question's rollout, ready to give each rep its spec. */
export interface RolloutPlan {
  turns: number;
  /** Resolves the game against the database (`game.turns.output` included): a mistake is said before any rep runs. */
  prepare(session: ScratchSession): Promise<void>;
  /** The spec of one rep of a fixture (its player is the rep's own: a simulated one keeps no state across reps). */
  spec(session: ScratchSession, fixture: Fixture, rep: number): Promise<RolloutSpec>;
}

/**
 * The rollout of a question with `turns` above 1, checked before any rep runs (recorded or scripted inputs for
 * every fixture, checks for `stopOn: fail`). A one-turn question's reps call the SUT once and never load this file.
 */
export async function planRollout(
  question: LoadedQuestion,
  config: LoadedConfig,
  source: CaseFileSource,
  fixtures: readonly Fixture[],
  projectDir: string,
  env: Readonly<Record<string, string | undefined>>,
  signal?: AbortSignal,
): Promise<RolloutPlan> {
  const q = question.question;
  const turns = q.turns ?? 1;
  if (q.stopOn === 'fail' && !q.checks && !q.tools && !q.hidden)
    throw new TurnkitError('BAD_INPUT', `${question.at(['stopOn'])}: stopOn: fail needs checks to tell a failing turn`);
  // Imported for a rollout only: a one-turn question's run never loads the players (nor the simulated one's model).
  const { playerFor } = await import('./rollout-inputs.js');
  const players = q.players ?? { type: 'recorded' as const };
  const at = (path: readonly PropertyKey[]): string => question.at(path);
  // A byFixture entry for no fixture of the question is a typo: said as such, not as another fixture's missing inputs.
  if (players.type === 'script') {
    const names = fixtures.map((fixture) => fixture.name);
    for (const name of Object.keys(players.byFixture ?? {}))
      if (!names.includes(name))
        throw new TurnkitError(
          'BAD_INPUT',
          `${at(['players', 'byFixture', name])}: no fixture of the question is named ${name} (they are ${names.join(', ')})`,
        );
  }
  // Said now for every fixture: a missing input would otherwise be every rep's error at the same turn.
  for (const fixture of fixtures) playerFor({ players, turns, at, projectDir, env, fixture, rep: 0, signal });
  let graph: GameGraph | undefined;
  return {
    turns,
    async prepare(session) {
      graph ??= resolveGameGraph(config, await session.currentCatalog());
    },
    async spec(session, fixture, rep) {
      graph ??= resolveGameGraph(config, await session.currentCatalog());
      return {
        turns,
        player: playerFor({ players, turns, at, projectDir, env, fixture, rep, signal }),
        render: (view) => source.render(view),
        graph,
        output: config.game.turns.output,
        checks: q.checks,
        screens: { tools: q.tools, hidden: q.hidden },
        ...(q.hidden ? { hidden: hiddenValues(q.hidden, fixture) } : {}),
        stopOnFail: q.stopOn === 'fail',
        ...(q.facts ? { probes: { rules: q.probes ?? [], facts: factQueriesOf(q.facts) ?? {} } } : {}),
      };
    },
  };
}
