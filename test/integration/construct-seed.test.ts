import { asCommand } from '../helpers/as-command.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { sha256Of } from '../helpers/construct-fixtures.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { serializeDocument, type Fixture } from '../../src/fixture/format.js';
import { CORRECTED_NARRATION, MISLEADING_NARRATION, MISLEADING_TURN } from '../../src/sample/turn-script.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';

describe.each(BACKENDS)('seeding a constructed fixture of the sample game on %s', (backend) => {
  let t: TestDb;
  let fixture: Fixture;
  let campaign: string;
  let dir: string;

  beforeAll(async () => {
    ({ t, fixture, campaign } = await sampleGameWithFixture(backend, { turns: 40, turn: 23, otherTurns: 12 }));
    dir = await mkdtemp(join(tmpdir(), 'turnkit-construct-seed-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    await t?.cleanup();
  });

  it("seeds the materialized fixture: the scratch campaign's turn 19 holds the corrected narration", async () => {
    const baseText = serializeDocument(fixture);
    await writeFile(join(dir, 'captured.json'), baseText);
    const turn19 = turnsInOrder(fixture)[MISLEADING_TURN - 1]!.rows[0]!;
    expect(turn19.narration).toBe(MISLEADING_NARRATION);
    // A bigint key is a string in the fixture; the patch names the row the same way.
    expect(typeof turn19.id).toBe('string');
    await writeFile(
      join(dir, 'patch.json'),
      JSON.stringify({ turns: [{ id: turn19.id, narration: CORRECTED_NARRATION }] }),
    );

    const saved = await asCommand(construct, {
      fixture: 'captured.json',
      turn: MISLEADING_TURN,
      patch: 'patch.json',
      name: 'deck-fixed',
      why: 'the mess hall is on deck 2',
      out: 'constructed',
      cwd: dir,
    });
    expect(saved.file).toBe(join(dir, 'constructed', 'deck-fixed.json'));
    expect(saved.paths).toEqual([`turns[id=${turn19.id}].narration`]);
    const written = JSON.parse(await readFile(saved.file, 'utf8'));
    expect(written.base).toEqual({ path: '../captured.json', sha256: sha256Of(baseText) });

    const loaded = await loadFixture(saved.file);
    expect(loaded.fixture.name).toBe('deck-fixed');
    const session = new ScratchSession(t.db, { game: t.config.game });
    try {
      const scratch = await session.seed(loaded.fixture, { file: loaded.shown, sha256: loaded.sha256 });
      try {
        expect(scratch.key).not.toBe(campaign);
        const check = await session.check(scratch, loaded.fixture);
        expect(check.differences).toEqual([]);
        const { rows } = await t.db.pool.query(
          'SELECT turn_number, narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number',
          [scratch.key],
        );
        expect(rows).toHaveLength(22);
        expect(rows[MISLEADING_TURN - 1]).toEqual({ turn_number: MISLEADING_TURN, narration: CORRECTED_NARRATION });
        // Every other turn is as captured.
        const others = (list: Record<string, unknown>[]): unknown[] =>
          list.filter((_, i) => i !== MISLEADING_TURN - 1).map((row) => row.narration);
        expect(others(rows)).toEqual(others(turnsInOrder(fixture).map((entry) => entry.rows[0]!)));
      } finally {
        await scratch.teardown();
      }
    } finally {
      await session.close();
    }
    // The live campaign the fixture came from still holds what was played.
    const { rows: live } = await t.db.pool.query(
      'SELECT narration FROM turns WHERE campaign_id = $1 AND turn_number = $2',
      [campaign, MISLEADING_TURN],
    );
    expect(live).toEqual([{ narration: MISLEADING_NARRATION }]);
    const { rows: left } = await t.db.pool.query('SELECT count(*)::int AS n FROM turns WHERE narration = $1', [
      CORRECTED_NARRATION,
    ]);
    expect(left).toEqual([{ n: 0 }]);
  });

  it('a patch may correct standing rows (the campaign row, a fact of no turn), and the scratch campaign holds them', async () => {
    const baseText = serializeDocument(fixture);
    await writeFile(join(dir, 'standing-base.json'), baseText);
    const standing = fixture.tables.world_facts!.rows.find((row) => row.introduced_at_turn_id === null)!;
    expect(standing).toBeDefined();
    const root = fixture.tables.campaigns!.rows[0]!;
    await writeFile(
      join(dir, 'standing.json'),
      JSON.stringify({
        world_facts: [{ id: standing.id, fact: 'Corrected: as of turn 19' }],
        campaigns: [{ id: root.id, title: 'Corrected title' }],
      }),
    );
    const saved = await asCommand(construct, {
      fixture: 'standing-base.json',
      turn: MISLEADING_TURN,
      patch: 'standing.json',
      name: 'standing-fixed',
      why: 'the facts as of turn 19',
      out: 'constructed',
      cwd: dir,
    });
    expect(saved.paths).toEqual([`campaigns[id=${root.id}].title`, `world_facts[id=${standing.id}].fact`]);
    const loaded = await loadFixture(saved.file);
    const session = new ScratchSession(t.db, { game: t.config.game });
    try {
      const scratch = await session.seed(loaded.fixture, { file: loaded.shown, sha256: loaded.sha256 });
      try {
        const { rows: facts } = await t.db.pool.query(
          'SELECT fact FROM world_facts WHERE campaign_id = $1 AND introduced_at_turn_id IS NULL ORDER BY id',
          [scratch.key],
        );
        expect(facts.map((row) => row.fact)).toContain('Corrected: as of turn 19');
        const { rows: title } = await t.db.pool.query('SELECT title FROM campaigns WHERE id = $1', [scratch.key]);
        expect(title).toEqual([{ title: 'Corrected title' }]);
      } finally {
        await scratch.teardown();
      }
    } finally {
      await session.close();
    }
  });
});
