import type { PlayersConfig } from '../question/rollout-format.js';

/**
 * Who played a rollout's turns after the first, as a run's manifest pins it: the kind, and for a simulated player its
 * model, endpoint (no credentials) and the hash of its persona prompt; for a command its words; for a script the hash
 * of its inputs. Two runs compare only when their players are the same, or when one of them played recorded inputs.
 */
export interface PlayerIdentity {
  type: PlayersConfig['type'];
  model?: string;
  baseUrl?: string;
  promptSha256?: string;
  temperature?: number;
  command?: string;
  scriptSha256?: string;
}

/** How two identities differ, as a phrase (`model a here, b there`); undefined when they are the same player. */
export function playerDifference(here: PlayerIdentity, there: PlayerIdentity): string | undefined {
  const fields = ['type', 'model', 'baseUrl', 'promptSha256', 'temperature', 'command', 'scriptSha256'] as const;
  const differences = fields.flatMap((field) =>
    here[field] === there[field]
      ? []
      : [`${field} ${String(here[field] ?? 'none')} here, ${String(there[field] ?? 'none')} there`],
  );
  return differences.length > 0 ? differences.join('; ') : undefined;
}
