import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestDb, type TestDb } from '../helpers/test-db.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { CONVENTIONS } from '../helpers/conventions/index.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import type { Fixture } from '../../src/fixture/format.js';
import { summarizeFixture } from '../../src/fixture/show-fixture.js';
import { ScratchSession } from '../../src/scratch/scratch-session.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serializeDocument } from '../../src/fixture/format.js';
import { turnsInOrder } from '../../src/fixture/turns/turn-rows.js';
import { loadFixture } from '../../src/fixture/load-fixture.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { run } from '../../src/pipeline/run.js';
import type { SutFunction } from '../../src/sut/sut-request.js';
import type { RepRecord } from '../../src/run-dir/rep-record.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { init } from '../../src/init/init-project.js';
import { loadConfig } from '../../src/config/load.js';
import { introspect } from '../../src/db/introspect.js';
import { readInitFacts } from '../../src/init/read-facts.js';
import { suggestScrub } from '../../src/init/suggest-scrub.js';
import { TEST_SCRUB } from '../helpers/scrub-key.js';

// Schemas written after each ORM's conventions, none of them shaped like the sample game: each is captured, shown,
// seeded with both strategies (several reps at once) and torn down, leaving every table as it was.
describe.each(BACKENDS)('the conventions matrix on %s', (backend) => {
  describe.each(CONVENTIONS)('$name', (convention) => {
    let t: TestDb;
    let fixture: Fixture;
    let project: Project;

    beforeAll(async () => {
      t = await createTestDb(backend, convention.config);
      await t.db.pool.query(convention.schema);
      await t.db.pool.query(convention.data);
      project = await openProject({ cwd: t.dir, config: convention.config, db: t.db });
    });
    afterAll(async () => {
      await project?.close();
      await t?.cleanup();
    });

    // A SUT that plays its turn by writing the convention's turn row, and a question of 2 reps that runs it.
    const plays: SutFunction = async (request, { db }) => {
      await db.query(convention.writeTurn, [request.campaign, request.turn]);
      return { response: 'played' };
    };
    const playsQuestion = (id: string, fixtures: string[]) => ({
      id: `${id}-${convention.name}`,
      question: 'Does the SUT play its turn?',
      rubric: { path: 'questions/rubric.md', version: '1' },
      target: 0.8,
      reps: 2,
      fixtures,
      sut: plays as never,
      caseFile: 'questions/case.md',
    });

    it('captures turn 3 with exactly the hand-counted rows, and shows it', async () => {
      const outcome = await captureFromDb(t.db, t.config, { campaign: convention.campaign, turns: { turn: 3 } });
      fixture = outcome.fixtures[0]!;
      const counts = Object.fromEntries(
        Object.entries(fixture.tables).map(([name, table]) => [
          name,
          table.rows.length + (table.sharedRows?.length ?? 0),
        ]),
      );
      expect(counts).toEqual(convention.rows);
      const summary = summarizeFixture(fixture);
      expect(summary.turn).toBe(3);
      expect(summary.turnsKept).toBe(2);
      expect(Object.keys(summary.input)).toEqual(convention.config.game.turns.input);
      await mkdir(join(t.dir, 'fixtures'), { recursive: true });
      await writeFile(join(t.dir, 'fixtures/base.json'), serializeDocument({ ...fixture, name: 'base' }));
    });

    it("constructs a fixture changing turn 2's narration, and its seed holds the change", async () => {
      const turns = fixture.source.turns.table;
      // Turn 2's narration: its one row, or the first of its rows that are not the player's (a chat's reply).
      const entry = turnsInOrder(fixture).find((candidate) => candidate.turn === 2)!;
      const row = (entry.others[0] ?? entry.rows[0])!;
      const key = Object.fromEntries(fixture.tables[turns]!.primaryKey.map((column) => [column, row[column]]));
      await writeFile(
        join(t.dir, 'patch.json'),
        JSON.stringify({ [turns]: [{ ...key, [convention.narration]: 'A corrected narration.' }] }),
      );
      const saved = await construct(project, {
        fixture: 'fixtures/base.json',
        turn: 2,
        patch: 'patch.json',
        name: 'fixed',
        why: 'a corrected narration',
      });
      const loaded = await loadFixture(saved.file);
      const before = await tableChecksums(t.db);
      const session = new ScratchSession(t.db, { game: t.config.game });
      const scratch = await session.seed(loaded.fixture, { file: loaded.shown, sha256: loaded.sha256 });
      try {
        expect((await session.check(scratch, loaded.fixture)).differences).toEqual([]);
      } finally {
        await scratch.teardown();
      }
      expect(await tableChecksums(t.db)).toEqual(before);
    });

    it('runs a question whose SUT writes its turn row, records that effect, and leaves every table as it was', async () => {
      await mkdir(join(t.dir, 'questions'), { recursive: true });
      await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it plays\n');
      await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n\nTurn {{turn}}\n');
      const before = await tableChecksums(t.db);
      const result = await run(project, {
        question: playsQuestion('plays', ['fixtures/base.json', 'constructed/fixed.json']),
        concurrency: 2,
      });
      expect(result).toMatchObject({ status: 'complete', total: 4, ran: 4, errors: 0 });
      const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
      expect(record.error).toBeNull();
      expect(JSON.stringify(record.effects)).toContain('sut narration');
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    });

    it('plays a 3-turn rollout of a SUT that only answers: turnkit writes each turn row, and every table is as it was', async () => {
      const game = convention.config.game!;
      const answering = await openProject({
        cwd: t.dir,
        config: {
          ...convention.config,
          game: {
            ...game,
            turns: {
              ...game.turns,
              output: [convention.narration],
              ...(convention.outputRole ? { role: { ...game.turns.role!, output: convention.outputRole } } : {}),
            },
          },
        },
        db: t.db,
      });
      const before = await tableChecksums(t.db);
      const seen: string[] = [];
      const answers: SutFunction = async (request) => {
        seen.push(`${request.turn}:${request.transcript?.length}`);
        return { response: `gm answers turn ${request.turn}` };
      };
      try {
        const result = await run(answering, {
          question: {
            id: `answers-${convention.name}`,
            question: 'Does the SUT answer each turn?',
            rubric: { path: 'questions/rubric.md', version: '1' },
            target: 0.8,
            reps: 2,
            fixtures: ['fixtures/base.json'],
            sut: answers as never,
            caseFile: 'questions/case.md',
            turns: 3,
            players: { type: 'script', inputs: ['go on', 'go back'] },
          },
          concurrency: 2,
        });
        expect(result).toMatchObject({ status: 'complete', total: 2, errors: 0 });
        const record = JSON.parse(await readFile(join(result.dir, 'reps/base/rep-01.json'), 'utf8')) as RepRecord;
        expect(record.error).toBeNull();
        expect(record.turns!.map((turn) => [turn.turn, turn.turnRow])).toEqual([
          [3, 'turnkit'],
          [4, 'turnkit'],
          [5, 'turnkit'],
        ]);
        const turns = fixture.source.turns.table;
        expect(record.turns!.map((turn) => turn.effects!.inserted)).toEqual(
          (convention.rolloutRows ?? [1, 1, 1]).map((count) => ({ [turns]: count })),
        );
        // Turn 4's rows: one holding the input and the answer, or (a chat) the player's message and the reply.
        const written = record.turns![1]!.effects!.insertedRows[turns]!;
        expect(written.map((row) => row[convention.narration])).toContain('gm answers turn 4');
        expect(written.flatMap((row) => Object.values(row))).toContain('go on');
        expect(seen.sort()).toEqual(['3:0', '3:0', '4:1', '4:1', '5:2', '5:2']);
      } finally {
        await answering.close();
      }
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    });

    it('init writes a config from the catalog alone with which capture, seed and run work with no hand edit', async () => {
      const cwd = await mkdtemp(join(tmpdir(), 'turnkit-init-'));
      try {
        const catalog = await introspect(t.db.pool);
        const facts = await readInitFacts(t.db.pool, catalog);
        const result = await init({ cwd, catalog, facts, scrub: suggestScrub(catalog) });
        expect(result.answers.declarations?.missing ?? []).toEqual([]);
        const config = await loadConfig({ cwd });
        expect(config.game.root.table).toBe(convention.config.game!.root.table);
        expect(config.game.turns.table).toBe(convention.config.game!.turns.table);
        const outcome = await captureFromDb(t.db, config, {
          campaign: convention.campaign,
          turns: { turn: 3 },
          scrub: TEST_SCRUB,
        });
        const made = outcome.fixtures[0]!;
        expect(made.input.turn).toBe(3);
        expect(made.tables[made.source.turns.table]!.rows).toHaveLength(
          fixture.tables[fixture.source.turns.table]!.rows.length,
        );
        const before = await tableChecksums(t.db);
        const session = new ScratchSession(t.db, { game: config.game });
        const scratch = await session.seed(made);
        try {
          expect((await session.check(scratch, made)).differences).toEqual([]);
        } finally {
          await scratch.teardown();
        }
        expect(await tableChecksums(t.db)).toEqual(before);
        // A run in the folder init wrote, with the config file it wrote (no config object): the SUT plays its turn.
        await mkdir(join(cwd, 'fixtures'), { recursive: true });
        await mkdir(join(cwd, 'questions'), { recursive: true });
        await writeFile(join(cwd, 'fixtures/inited.json'), serializeDocument({ ...made, name: 'inited' }));
        await writeFile(join(cwd, 'questions/rubric.md'), 'pass when it plays\n');
        await writeFile(join(cwd, 'questions/case.md'), 'Turn {{turn}}\n');
        await using inited = await openProject({ cwd, db: t.db });
        const ran = await run(inited, { question: playsQuestion('inited', ['fixtures/inited.json']) });
        expect(ran).toMatchObject({ status: 'complete', total: 2, ran: 2, errors: 0 });
        const record = JSON.parse(await readFile(join(ran.dir, 'reps/inited/rep-01.json'), 'utf8')) as RepRecord;
        expect(JSON.stringify(record.effects)).toContain('sut narration');
        expect(await tableChecksums(t.db)).toEqual(before);
        expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
      } finally {
        await rm(cwd, { recursive: true, force: true });
      }
    });

    it('seeds 8 reps at once with remap, each equal to the fixture, and tears them down to the same checksums', async () => {
      const before = await tableChecksums(t.db);
      const sessions = Array.from({ length: 8 }, () => new ScratchSession(t.db, { game: t.config.game }));
      const campaigns = await Promise.all(sessions.map((session) => session.seed(fixture)));
      try {
        expect(new Set([convention.campaign, ...campaigns.map((campaign) => campaign.key)]).size).toBe(9);
        for (const [i, campaign] of campaigns.entries())
          expect((await sessions[i]!.check(campaign, fixture)).differences).toEqual([]);
      } finally {
        await Promise.all(campaigns.map((campaign) => campaign.teardown()));
      }
      expect(await tableChecksums(t.db)).toEqual(before);
      expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });
    });

    it.runIf(backend === 'postgres')(
      'seeds with the database strategy and tears down to the same checksums',
      async () => {
        const before = await tableChecksums(t.db);
        const session = new ScratchSession(t.db, { game: t.config.game, strategy: 'database' });
        try {
          const scratch = await session.seed(fixture);
          expect(scratch.key).toBe(convention.campaign);
          expect((await session.check(scratch, fixture)).differences).toEqual([]);
          await scratch.teardown();
        } finally {
          await session.close();
        }
        expect(await tableChecksums(t.db)).toEqual(before);
      },
    );
  });
});
