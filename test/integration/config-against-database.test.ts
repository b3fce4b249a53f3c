import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { loadConfig } from '../../src/config/load.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { checkConfigAgainstCatalog } from '../../src/fixture/graph/check-config-catalog.js';
import { introspect } from '../../src/db/introspect.js';
import { createSampleCampaign } from '../../src/sample/create-sample.js';

// A JSON config whose game names a mistyped turns table and whose scrub names a mistyped column, one per line, so
// the line and column of each is known.
const JSON_CONFIG = `{
  "game": {
    "root": { "table": "campaigns", "key": "id" },
    "turns": { "table": "turn", "order": "turn_number", "input": ["player_input"] },
    "shared": ["users"]
  },
  "scrub": {
    "users.emial": "email"
  }
}
`;

const TS_CONFIG = `export default {
  game: {
    root: { table: 'campaigns', key: 'id' },
    turns: { table: 'turns', order: 'turn_nmuber', input: ['player_input'] },
    shared: ['users'],
  },
};
`;

describe.each(BACKENDS)('config problems only the database shows, on %s', (backend) => {
  let t: TestDb;
  const shown = (name: string): string => relative(process.cwd(), join(t.dir, name));

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    await writeFile(join(t.dir, 'turnkit.config.json'), JSON_CONFIG);
    await writeFile(join(t.dir, 'turnkit.config.ts'), TS_CONFIG);
  });
  afterAll(async () => t?.cleanup());

  it('names the JSON config with the line:column of the key and a suggestion, for the game and the scrub rules', async () => {
    const config = await loadConfig({ configPath: join(t.dir, 'turnkit.config.json') });
    const catalog = await introspect(t.db.pool);
    expect(checkConfigAgainstCatalog(config, catalog)).toEqual([
      `${shown('turnkit.config.json')}:4:16: $.game.turns.table: no table "turn" in the database (did you mean "turns"?)`,
      `${shown('turnkit.config.json')}:8:5: $.scrub["users.emial"]: table "users" has no column "emial" (did you mean "email"?)`,
    ]);
    // capture refuses the same game with the same line (its scrub rules would first ask for a scrub key).
    await expect(
      captureFromDb(t.db, { ...config, scrub: {} }, { campaign: '1', turns: { latest: true } }),
    ).rejects.toThrow(
      `${shown('turnkit.config.json')}:4:16: $.game.turns.table: no table "turn" in the database (did you mean "turns"?)`,
    );
  });

  it('names a .ts config at the key as written, with the column it resembles', async () => {
    const config = await loadConfig({ configPath: join(t.dir, 'turnkit.config.ts') });
    expect(checkConfigAgainstCatalog(config, await introspect(t.db.pool))).toEqual([
      `${shown('turnkit.config.ts')}:4:30: $.game.turns.order: table "turns" has no column "turn_nmuber" (did you mean "turn_number"?)`,
    ]);
  });

  it('names the config place of a root key the database holds twice', async () => {
    // Two sample campaigns share their ship's name: as the campaign's key it names two rows.
    await createSampleCampaign(t.db, { turns: 3 });
    await createSampleCampaign(t.db, { turns: 3 });
    const text = JSON_CONFIG.replace('"turn"', '"turns"').replace('"key": "id"', '"key": "ship_name"');
    await writeFile(join(t.dir, 'ship.config.json'), text);
    const config = { ...(await loadConfig({ configPath: join(t.dir, 'ship.config.json') })), scrub: {} };
    await expect(captureFromDb(t.db, config, { campaign: 'Meridian', turns: { latest: true } })).rejects.toThrow(
      `${shown('ship.config.json')}:3:37: $.game.root.key: 2 rows of "campaigns" have ship_name = Meridian; the key must be unique`,
    );
  });

  it('finds nothing to say about a config the database agrees with', async () => {
    const good = JSON_CONFIG.replace('"turn"', '"turns"').replace('users.emial', 'users.email');
    await writeFile(join(t.dir, 'good.config.json'), good);
    const config = await loadConfig({ configPath: join(t.dir, 'good.config.json') });
    expect(checkConfigAgainstCatalog(config, await introspect(t.db.pool))).toEqual([]);
  });
});
