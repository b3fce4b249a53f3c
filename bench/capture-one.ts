// One measurement process of `npm run bench:capture`: COPY floor and capture of one campaign, repeated, with the
// process's peak RSS. Run in its own process so that peak memory belongs to this campaign size alone. Capture is
// timed twice: in memory (`captureFromDb`, the rows collected into the fixture) and streamed to a file as the CLI
// does it (`streamTo`: keys walked, rows read again in batches, scrubbed and written, the file renamed into place).
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { to as copyTo } from 'pg-copy-streams';
import { loadConfig } from '../src/config/load.js';
import { usingDb, type Db } from '../src/db/connect.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import { writeFixtureFile } from '../src/fixture/capture/write-fixture.js';
import { BENCH_SCRUB_KEY } from './bench-database.js';

const [url, campaign, repeats] = process.argv.slice(2) as [string, string, string];

/** The same rows a latest-turn capture reads, as COPY text: the floor no capture can beat by much. */
const floorQueries = (c: string, latest: number): string[] => [
  `SELECT * FROM campaigns WHERE id = ${c}`,
  `SELECT * FROM users WHERE id = (SELECT user_id FROM campaigns WHERE id = ${c})`,
  `SELECT * FROM decks WHERE campaign_id = ${c}`,
  `SELECT * FROM locations WHERE campaign_id = ${c}`,
  `SELECT lc.* FROM location_connections lc JOIN locations l ON l.id = lc.from_location_id WHERE l.campaign_id = ${c}`,
  `SELECT * FROM characters WHERE campaign_id = ${c}`,
  `SELECT * FROM turns WHERE campaign_id = ${c} AND turn_number < ${latest}`,
  `SELECT f.* FROM world_facts f LEFT JOIN turns t ON t.id = f.introduced_at_turn_id WHERE f.campaign_id = ${c} AND (t.turn_number IS NULL OR t.turn_number < ${latest})`,
];

async function copyFloor(db: Db, latest: number): Promise<number> {
  const client = await db.pool.connect();
  let _bytes = 0;
  try {
    const started = performance.now();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const query of floorQueries(campaign, latest)) {
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          _bytes += chunk.length;
          done();
        },
      });
      await pipeline(client.query(copyTo(`COPY (${query}) TO STDOUT`)), sink);
    }
    await client.query('COMMIT');
    return performance.now() - started;
  } finally {
    client.release();
  }
}

// Memory in use before any capture: the capture's own share is the peak minus this.
const startRssMb = process.memoryUsage().rss / 1024 / 1024;
const config = await loadConfig({ cwd: process.cwd() });
// Without scrubbing: no rules and no detector, as capture was before it scrubbed.
const plain = { ...config, scrub: {} };
// With scrubbing: the sample's rules (a fake email, a keyed hash), free-text redaction of every turn's input and
// narration, and the detector over every value of every table.
const scrubbed = {
  ...config,
  scrub: {
    ...config.scrub,
    'turns.player_input': { redact: ['email', 'phone'] },
    'turns.narration': { redact: ['email', 'phone'] },
  },
} as typeof config;
const withKey = { key: BENCH_SCRUB_KEY };
const result = await usingDb(config, { databaseUrl: url }, async (db) => {
  const latest = Number(
    (await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM turns WHERE campaign_id = $1', [campaign]))
      .rows[0]!.n,
  );
  const floor: number[] = [];
  const capture: number[] = [];
  const scrub: number[] = [];
  const streamed: number[] = [];
  const streamedScrub: number[] = [];
  const out = await mkdtemp(join(tmpdir(), 'turnkit-bench-capture-'));
  let rows = 0;
  let bytes = 0;
  for (let i = 0; i < Number(repeats); i++) {
    floor.push(await copyFloor(db, latest));
    const runPlain = async (): Promise<void> => {
      const started = performance.now();
      const { fixtures } = await captureFromDb(db, plain, {
        campaign,
        turns: { latest: true },
        scrub: { detect: false },
      });
      capture.push(performance.now() - started);
      rows = Object.values(fixtures[0]!.tables).reduce((sum, table) => sum + table.rows.length, 0);
    };
    const runScrubbed = async (): Promise<void> => {
      const started = performance.now();
      await captureFromDb(db, scrubbed, { campaign, turns: { latest: true }, scrub: withKey });
      scrub.push(performance.now() - started);
    };
    // The CLI's path: written to a file (temp body, fsync, rename), the outcome holding no fixture.
    const runStreamed = async (scrubbing: boolean): Promise<void> => {
      const started = performance.now();
      await captureFromDb(db, scrubbing ? scrubbed : plain, {
        campaign,
        turns: { latest: true },
        scrub: scrubbing ? withKey : { detect: false },
        streamTo: async (name) => join(out, `${name}.json`),
      });
      (scrubbing ? streamedScrub : streamed).push(performance.now() - started);
    };
    const order = [runPlain, runScrubbed, () => runStreamed(false), () => runStreamed(true)];
    // Rotate which goes first, so that none gains from the others' warm caches.
    for (let k = 0; k < order.length; k++) await order[(i + k) % order.length]!();
  }
  // One more capture for memory, sampled as it runs (sampling would slow the timed ones; maxRSS would also
  // count the TypeScript loader's start-up peak): in memory, then written whole as upgrade writes a fixture.
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1);
  const { fixtures } = await captureFromDb(db, scrubbed, { campaign, turns: { latest: true }, scrub: withKey });
  const whole = join(out, 'whole.json');
  await writeFixtureFile(whole, fixtures[0]!);
  peak = Math.max(peak, process.memoryUsage().rss);
  clearInterval(sampler);
  bytes = (await stat(whole)).size;
  await rm(out, { recursive: true, force: true });
  return { floor, capture, scrub, streamed, streamedScrub, rows, bytes, peakRssMb: peak / 1024 / 1024 };
});
process.stdout.write(`${JSON.stringify({ ...result, startRssMb })}\n`);
