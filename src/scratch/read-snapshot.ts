import pg from 'pg';
import type { Db } from '../db/connect.js';
import type { BeginResult } from '../db/transaction.js';
import { CAPTURE_SETTINGS } from '../fixture/capture/capture.js';
import { inScratchTransaction } from './scratch-transaction.js';
import type { CampaignAddress, SnapshotRead } from './scratch-strategy.js';

/**
 * Reads a campaign in one snapshot the way capture reads (the codec parses Postgres's text output in fixed
 * settings): in the session's database on its pool, elsewhere through `reader` (opened ahead) or a new connection.
 * `first`: a statement without parameters sent with the BEGIN (one round trip), its result given to `read`.
 */
export async function readSnapshot<T>(
  db: Db,
  campaign: CampaignAddress,
  read: SnapshotRead<T>,
  first?: string,
  reader?: pg.Client,
): Promise<T> {
  const begin = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; ${CAPTURE_SETTINGS}${first ? `; ${first}` : ''}`;
  if (campaign.databaseUrl === db.url) return inScratchTransaction(db, begin, read);
  let client = reader;
  if (!client) {
    client = new pg.Client({ connectionString: campaign.databaseUrl });
    client.on('error', () => {});
    await client.connect();
  }
  try {
    const opened = (await client.query(begin)) as BeginResult;
    return await read(client, opened);
  } finally {
    await client.end();
  }
}
