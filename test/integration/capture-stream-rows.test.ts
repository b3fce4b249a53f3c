import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SCRUB } from '../helpers/scrub-key.js';
import { BACKENDS, createSampleTestDb, type TestDb } from '../helpers/test-db.js';
import { captureInChild, smallAndLargeCampaigns } from '../helpers/capture-child.js';
import { captureFromDb, type CaptureRequest } from '../../src/fixture/capture/capture.js';
import { serializeDocument } from '../../src/fixture/format.js';

// `turnkit capture` streams (issue 28): the walk reads keys, each table is read again batch by batch, scrubbed and
// written as it comes, the head after. Its files must hold the bytes the in-memory path makes, and a campaign whose
// rows do not fit in the heap the test gives the child process must still be captured whole.
const sha = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');
const HEAP_MB = 72;

describe.each(BACKENDS)('a streamed capture on %s', (backend) => {
  let t: TestDb;
  let dir: string;
  let small: string;
  let large: string;

  beforeAll(async () => {
    t = await createSampleTestDb(backend);
    dir = await mkdtemp(join(tmpdir(), 'turnkit-stream-rows-'));
    // 100 turns of 1 MB of narration: about 100 MB of rows, more than the child's whole heap.
    ({ small, large } = await smallAndLargeCampaigns(t.db, 100));
  });
  afterAll(async () => {
    await t?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the bytes the in-memory path makes, for every turn selection, scrubbed or not', async () => {
    const scrubbed = {
      ...t.config,
      scrub: { ...t.config.scrub, 'turns.narration': { redact: ['email', 'phone'] } },
    } as typeof t.config;
    const cases: [typeof t.config, CaptureRequest['turns'], number][] = [
      [t.config, { latest: true }, 1],
      [scrubbed, { turn: 150 }, 3],
      [scrubbed, { from: 2, to: 4 }, 1],
    ];
    for (const [config, turns, ahead] of cases) {
      const request = { campaign: small, turns, scrub: TEST_SCRUB, ahead, now: new Date('2026-03-14T00:00:00Z') };
      const { fixtures, warnings } = await captureFromDb(t.db, config, request);
      const files: string[] = [];
      const streamed = await captureFromDb(t.db, config, {
        ...request,
        streamTo: async (name) => {
          files.push(join(dir, `${name}.json`));
          return files.at(-1)!;
        },
      });
      expect(streamed.fixtures).toEqual([]);
      expect(streamed.warnings).toEqual(warnings);
      expect(files.length).toBe(fixtures.length);
      for (const [i, fixture] of fixtures.entries()) {
        expect(sha(await readFile(files[i]!)), fixture.name).toBe(sha(serializeDocument(fixture)));
        const rows = Object.values(fixture.tables).reduce((n, x) => n + x.rows.length + (x.sharedRows?.length ?? 0), 0);
        expect(streamed.written?.[i]).toEqual({
          name: fixture.name,
          file: files[i],
          turn: fixture.source.turn,
          rows,
          tables: Object.keys(fixture.tables).length,
        });
      }
    }
    // Only the files: no temporary body or fixture is left beside them.
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  // Two child processes each read 100 MB of rows (one to its end, one to its heap's end): minutes on a loaded machine.
  it(`captures a campaign of about 100 MB of rows in a ${HEAP_MB} MB heap, whole, where rows in memory cannot`, {
    timeout: 360_000,
  }, async () => {
    const { fixtures } = await captureFromDb(t.db, t.config, {
      campaign: large,
      turns: { latest: true },
      scrub: TEST_SCRUB,
      now: new Date('2026-03-14T00:00:00Z'),
    });
    const fixture = fixtures[0]!;
    const narration = fixture.tables.turns!.rows.reduce((n, row) => n + String(row.narration ?? '').length, 0);
    expect(narration).toBeGreaterThan(HEAP_MB * 1024 * 1024);
    const streamed = join(dir, 'large-rows.json');
    const inMemory = join(dir, 'large-in-memory.json');
    const ok = await captureInChild(t.db.url, large, streamed, 'rows', HEAP_MB);
    expect(ok.code, ok.stderr).toBe(0);
    const text = await readFile(streamed, 'utf8');
    // The child connects by URL: on the embedded database its source names the socket's server, not "embedded".
    fixture.source.database = (JSON.parse(text) as typeof fixture).source.database;
    expect(sha(text)).toBe(sha(serializeDocument(fixture)));
    // Rows all in memory (the path before), same heap: out of memory, and no file.
    const failed = await captureInChild(t.db.url, large, inMemory, 'streamed', HEAP_MB);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/heap out of memory/);
    expect((await readdir(dir)).includes('large-in-memory.json')).toBe(false);
  });
});
