import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKENDS, type TestDb } from '../helpers/test-db.js';
import { sampleGameWithFixture } from '../helpers/sample-fixture.js';
import { TEST_SCRUB_KEY } from '../helpers/scrub-key.js';
import { registryCounts, tableChecksums } from '../helpers/table-checksums.js';
import { sampleGameConfig } from '../../src/config/sample-config.js';
import { openProject, type Project } from '../../src/project/open-project.js';
import { capture } from '../../src/fixture/capture/capture-fixtures.js';
import { construct } from '../../src/fixture/constructed/construct-fixture.js';
import { gc, seed, teardown } from '../../src/scratch/scratch-operations.js';
import { verify } from '../../src/pipeline/verify.js';
import { run } from '../../src/pipeline/run.js';
import { judgeChecks, materialize, report, show } from '../../src/index.js';
import { outcomeError } from '../../src/report/outcome.js';

// Every operation a library caller makes on an open project: paths relative to the project, the project's database.
describe.each(BACKENDS)('operations that take (project, input) on %s', (backend) => {
  let t: TestDb;
  let project: Project;
  let campaign: string;

  beforeAll(async () => {
    ({ t, campaign } = await sampleGameWithFixture(backend, { turns: 30, turn: 20, otherTurns: 4 }));
    project = await openProject({ cwd: t.dir, config: sampleGameConfig, db: t.db });
  });
  afterAll(async () => {
    await project?.close();
    await t?.cleanup();
  });

  it('a schema snapshot that cannot be written stops capture before its fixture, in one line naming the file', async () => {
    const out = join(t.dir, 'snapshot-blocked');
    await mkdir(out, { recursive: true });
    // `schemas` is a file, so the snapshot (fixtures/schemas/FINGERPRINT.json) cannot be written: as a full disk would.
    await writeFile(join(out, 'schemas'), 'not a folder');
    const refused = await capture(project, {
      campaign,
      turns: { turn: 20 },
      name: 'blocked',
      out,
      scrubKey: TEST_SCRUB_KEY,
    }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(refused?.message).toMatch(
      /^snapshot-blocked\/schemas\/[0-9a-f]{16}(-m\d+)?\.json: a folder on its path is a file$/,
    );
    expect(existsSync(join(out, 'blocked.json'))).toBe(false);
  });

  it('capture, show, verify, construct, materialize, seed, teardown, gc, run, judge and report', async () => {
    const before = await tableChecksums(t.db);
    const captured = await capture(project, {
      campaign,
      turns: { turn: 20 },
      name: 'lib-t20',
      scrubKey: TEST_SCRUB_KEY,
    });
    expect(captured.files).toEqual([join(t.dir, 'fixtures', 'lib-t20.json')]);
    const summary = await show(project, { fixture: 'fixtures/lib-t20.json' });
    expect(summary).toMatchObject({ name: 'lib-t20', turn: 20 });

    const turn19 = (await materialize(project, { constructed: 'fixtures/lib-t20.json' })).tables.turns!.rows.find(
      (row) => row.turn_number === 19,
    )!;
    await writeFile(join(t.dir, 'patch.json'), JSON.stringify({ turns: [{ id: turn19.id, narration: 'Fixed.' }] }));
    const saved = await construct(project, {
      fixture: 'fixtures/lib-t20.json',
      turn: 19,
      patch: 'patch.json',
      name: 'lib-t20-fixed',
      why: 'a library call',
    });
    expect(saved.file).toBe(join(t.dir, 'constructed', 'lib-t20-fixed.json'));
    const fixed = await materialize(project, { constructed: 'constructed/lib-t20-fixed.json' });
    expect(fixed.tables.turns!.rows.find((row) => row.turn_number === 19)!.narration).toBe('Fixed.');

    const verified = await verify(project, { database: true });
    expect(verified.problems).toEqual([]);
    expect(verified.files.map((entry) => [entry.file, entry.ok])).toEqual([
      ['fixtures/lib-t20.json', true],
      ['constructed/lib-t20-fixed.json', true],
    ]);

    const seeded = await seed(project, { fixture: 'constructed/lib-t20-fixed.json' });
    expect((await registryCounts(t.db)).campaigns).toBe(1);
    const { rows } = await t.db.pool.query('SELECT narration FROM turns WHERE campaign_id = $1 AND turn_number = 19', [
      seeded.key,
    ]);
    expect(rows).toEqual([{ narration: 'Fixed.' }]);
    await teardown(project, { key: seeded.id });
    expect((await gc(project)).removed).toEqual([]);
    expect(await registryCounts(t.db)).toEqual({ campaigns: 0, shared_rows: 0, shared_uses: 0 });

    await mkdir(join(t.dir, 'questions'), { recursive: true });
    await writeFile(join(t.dir, 'questions/rubric.md'), 'pass when it says "Fixed."\n');
    await writeFile(join(t.dir, 'questions/case.md'), '# {{fixture.name}}\n');
    const result = await run(project, {
      question: {
        id: 'lib',
        question: 'Does the SUT say what the last turn says?',
        rubric: { path: 'questions/rubric.md', version: '1' },
        target: 0.5,
        reps: 2,
        fixtures: ['fixtures/lib-t20.json', 'constructed/lib-t20-fixed.json'],
        sut: async (request, { db }) => {
          const last = await db.query(
            'SELECT narration FROM turns WHERE campaign_id = $1 ORDER BY turn_number DESC LIMIT 1',
            [request.campaign],
          );
          return String(last.rows[0]?.narration);
        },
        caseFile: 'questions/case.md',
        checks: { mustContain: ['Fixed.'] },
      },
    });
    expect(outcomeError({ run: result })).toBeUndefined();
    const checks = await judgeChecks(project, { dir: result.dir });
    expect(checks).toMatchObject({ pass: 2, fail: 2, error: 0 });
    const { report: numbers } = await report(project, { dir: result.dir, marks: 'marks.checks.csv' });
    expect(numbers.fixtures.map((entry) => [entry.fixture, entry.pass, entry.fail])).toEqual([
      ['lib-t20', 0, 2],
      ['lib-t20-fixed', 2, 0],
    ]);
    expect(outcomeError({ report: numbers, check: true })?.code).toBe('TARGET_MISSED');
    expect(await tableChecksums(t.db)).toEqual(before);
  });
});
