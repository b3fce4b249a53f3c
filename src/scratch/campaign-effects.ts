import type { Catalog } from '../db/catalog-types.js';
import type { Queryable } from '../db/introspect.js';
import type { GameConfig } from '../config/schema.js';
import { scratchEffects, type TableEffects } from './effects/scratch-effects.js';
import { readSharedRows, type SharedSnapshot } from './effects/shared-snapshot.js';
import type { SeedPlan } from './seed-plan.js';
import type { SerializedKeyMap } from './remap/seed-remap.js';

/** What a SUT changed: per table of its campaign, and the shared rows it stands on as they were at the end. */
export interface CampaignEffects {
  tables: TableEffects[];
  shared: SharedSnapshot;
  /** Rows of live campaigns written while the SUT ran (given a horizon), one line each. */
  outside?: string[];
}

/** What the SUT changed, read by walking the campaign again in the caller's snapshot: one snapshot for both parts. */
export async function readCampaignEffects(
  client: Queryable,
  plan: SeedPlan,
  game: GameConfig,
  campaign: { rootKey: string; keyMap: SerializedKeyMap },
  catalog: Catalog,
): Promise<CampaignEffects> {
  return {
    tables: await scratchEffects(client, plan, game, campaign, catalog),
    shared: await readSharedRows(client, plan),
  };
}
