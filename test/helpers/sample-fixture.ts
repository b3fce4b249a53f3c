import { TEST_SCRUB } from './scrub-key.js';
import { createSampleTestDb, type TestDb } from './test-db.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';

/** A test database of the sample game with another campaign in it, and a fixture captured from a second one. */
export async function sampleGameWithFixture(
  backend: 'embedded' | 'postgres',
  options: { turns: number; turn: number; otherTurns?: number; admin?: string },
): Promise<{ t: TestDb; fixture: Fixture; campaign: string }> {
  const t = await createSampleTestDb(backend, { admin: options.admin });
  // Another campaign first, so the captured one's rows are not simply "all rows".
  if (options.otherTurns) await createSampleCampaign(t.db, { turns: options.otherTurns, seed: 3 });
  const campaign = await createSampleCampaign(t.db, { turns: options.turns });
  const fixture = (await captureFromDb(t.db, t.config, { scrub: TEST_SCRUB, campaign, turns: { turn: options.turn } }))
    .fixtures[0]!;
  return { t, fixture, campaign };
}
