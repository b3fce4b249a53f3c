import type { PlayersConfig } from '../question/rollout-format.js';
import { sha256 } from '../util/sha256.js';
import { shownUrl } from '../util/url-secrets.js';
import type { PlayerIdentity } from './player-identity.js';

// Apart from player-identity.ts, which the report reads: the hash is a run's writing, not the report's.
/** The identity of a question's players (recorded inputs when the question names none). */
export function playerIdentity(players: PlayersConfig | undefined): PlayerIdentity {
  if (!players || players.type === 'recorded') return { type: 'recorded' };
  switch (players.type) {
    case 'simulated':
      return {
        type: 'simulated',
        model: players.model,
        baseUrl: shownUrl(players.baseUrl),
        promptSha256: sha256(players.persona),
        ...(players.temperature !== undefined ? { temperature: players.temperature } : {}),
      };
    case 'command':
      return {
        type: 'command',
        command: typeof players.command === 'string' ? players.command : players.command.join(' '),
      };
    case 'script':
      return {
        type: 'script',
        scriptSha256: sha256(JSON.stringify({ inputs: players.inputs ?? null, byFixture: players.byFixture ?? null })),
      };
  }
}
