import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { captureInChild, smallAndLargeCampaigns } from '../helpers/capture-child.js';
import { captureFromDb } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';
import { writeFixtureFile } from '../../src/fixture/capture/write-fixture.js';

// Capture writes a fixture row by row (its whole text is never one string): the file must hold exactly the bytes
// serializeDocument makes of the same fixture, and a fixture whose text would not fit in memory beside its rows
// must still be written.
const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

describe.each(BACKENDS)('a capture written row by row on %s', (backend) => {
  let t: TestDb;
  let dir: string;
  let small: string;
  let large: string;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    dir = await mkdtemp(join(tmpdir(), 'turnkit-streamed-'));
    // 60 turns of 1 MB of narration each: about 60 MB of rows, whose text as one string no longer fits beside them
    // in the 140 MB heap the test gives the child process.
    ({ small, large } = await smallAndLargeCampaigns(t.db, 60));
  });
  afterAll(async () => {
    await t?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("writes serializeDocument's bytes for every turn selection, scrubbed or not", async () => {
    const scrubbed = {
      ...t.config,
      scrub: { ...t.config.scrub, 'turns.narration': { redact: ['email', 'phone'] } },
    } as typeof t.config;
    for (const [config, turns] of [
      [t.config, { latest: true }],
      [scrubbed, { turn: 150 }],
      [scrubbed, { from: 2, to: 4 }],
    ] as const) {
      const { fixtures } = await captureFromDb(t.db, config, { campaign: small, turns, scrub: TEST_SCRUB, ahead: 1 });
      for (const fixture of fixtures) {
        const file = join(dir, `${fixture.name}.json`);
        await writeFixtureFile(file, fixture);
        expect(sha(await readFile(file)), fixture.name).toBe(sha(serializeDocument(fixture)));
      }
    }
    // Only the files: no temporary file is left beside them.
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a fixture whose whole text does not fit in the heap beside its rows, which the one-string path could not', async () => {
    const { fixtures } = await captureFromDb(t.db, t.config, {
      campaign: large,
      turns: { latest: true },
      scrub: TEST_SCRUB,
      now: new Date('2026-03-14T00:00:00Z'),
    });
    const streamed = join(dir, 'streamed.json');
    const whole = join(dir, 'whole.json');
    const [ok, failed] = [
      await captureInChild(t.db.url, large, streamed, 'streamed', 140),
      await captureInChild(t.db.url, large, whole, 'whole', 140),
    ];
    expect(ok.code, ok.stderr).toBe(0);
    const text = await readFile(streamed, 'utf8');
    // The child connects by URL: on the embedded database its source names the socket's server, not "embedded".
    const fixture = fixtures[0]!;
    fixture.source.database = (JSON.parse(text) as typeof fixture).source.database;
    expect(sha(text)).toBe(sha(serializeDocument(fixture)));
    // The old path, same heap: out of memory, and no file (the rename never happened).
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/heap out of memory/);
    expect((await readdir(dir)).includes('whole.json')).toBe(false);
  });
});
