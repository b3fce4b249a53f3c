import { describe, expect } from 'vitest';
import { withScratchCampaign } from 'turnkit/testing';
import { test } from './test-context.js';

// A second file, so that vitest runs it in another worker alongside route-master.test.ts: each worker opens the
// project and seeds its own campaigns in the one database.
describe('campaigns of parallel tests never meet', () => {
  test('a campaign of the fixture, and another inside the test with withScratchCampaign, have different keys', async ({
    campaign,
    project,
  }) => {
    const inner = await withScratchCampaign(project, 'fixtures/meridian-turn-23.json', async (other) => other.key);
    expect(inner).not.toBe(campaign.key);
    const { rows } = await campaign.db.pool.query('SELECT count(*)::int AS n FROM campaigns WHERE id = $1', [inner]);
    // Torn down when withScratchCampaign returned.
    expect(rows[0].n).toBe(0);
  });
});
