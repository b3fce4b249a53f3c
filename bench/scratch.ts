// npm run bench:scratch — seed and teardown time per rep for fixtures of 50, 500 and 5,000 turns over a database
// that also holds other campaigns: turnkit's `remap` and `database` strategies and `auto`, beside a hand-written
// baseline (one json_populate_recordset insert per table with preallocated keys, one DELETE ... = ANY per table)
// and a row-by-row INSERT baseline, all measured in the same run, interleaved rep by rep; then (real Postgres) the
// `database` strategy against a bare CREATE DATABASE ... TEMPLATE + DROP (bench/scratch-database.ts); then the same
// for a Prisma-style game with client-made keys (bench/scratch-client-keys.ts). BENCH_SIZES= (empty) skips all but
// the database strategy's table; BENCH_CLONE_SIZES=50,500,5000,50000 adds a fixture of 50,000 turns to that one.
// Uses DATABASE_URL when set (a scratch database is created and dropped there), else a fresh embedded database,
// where the `database` strategy does not exist.
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { sampleGameConfig } from '../src/config/sample-config.js';
import type { Db } from '../src/db/connect.js';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import type { Fixture } from '../src/fixture/format.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { handSeed, handTeardown, rowByRowSeed } from './scratch-baselines.js';
import { benchClientKeys } from './scratch-client-keys.js';
import { benchClone } from './scratch-database.js';

const sizes = (text: string): number[] => text.split(',').filter(Boolean).map(Number);
const SIZES = sizes(process.env.BENCH_SIZES ?? '50,500,5000');
// The database strategy against bare CREATE DATABASE ... TEMPLATE + DROP (real Postgres only); add 50000 for a
// fixture of 50,000 turns (making its campaign and capturing it take a few minutes here).
const CLONE_SIZES = sizes(process.env.BENCH_CLONE_SIZES ?? '50,500,5000');
const CLONE_ROUNDS = Number(process.env.BENCH_CLONE_ROUNDS ?? 3);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 9);
const OTHER_CAMPAIGNS = 3;
const OTHER_TURNS = 1000;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const ms = (value: number): string => `${value.toFixed(1)}`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await fn();
  return [value, performance.now() - started];
}

interface Samples {
  seed: number[];
  teardown: number[];
}
const samples = (): Samples => ({ seed: [], teardown: [] });
const total = (s: Samples): number => median(s.seed.map((seed, i) => seed + s.teardown[i]!));

interface SizeResult {
  hand: Samples;
  rowByRow: Samples;
  remap: Samples;
  database: Samples;
  auto: Samples;
  templateMs: number[];
}

async function measureSize(db: Db, fixture: Fixture): Promise<SizeResult> {
  const game = sampleGameConfig.game as never;
  const remap = new ScratchSession(db, { game, strategy: 'remap' });
  const database = db.backend === 'postgres' ? new ScratchSession(db, { game, strategy: 'database' }) : undefined;
  const auto = new ScratchSession(db, { game, strategy: 'auto' });
  const result: SizeResult = {
    hand: samples(),
    rowByRow: samples(),
    remap: samples(),
    database: samples(),
    auto: samples(),
    templateMs: [],
  };
  // The embedded database's pool has one connection: a baseline holds it only while it runs.
  const withClient = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await db.pool.connect();
    let failed = false;
    try {
      return await fn(client);
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // A baseline that failed half-way leaves its transaction open: that connection must not go back to the pool.
      client.release(failed);
    }
  };
  try {
    // Warm-up: plans, catalog, the template database, and the server's caches. Not counted.
    await (await remap.seed(fixture)).teardown();
    if (database) result.templateMs.push((await timed(async () => (await database.seed(fixture)).teardown()))[1]);
    await withClient(async (client) => handTeardown(client, await handSeed(client, fixture)));
    // auto's own probe reps (two of each strategy) happen here: the table shows its steady state.
    for (let probe = 0; probe < (database ? 4 : 0); probe++) await (await auto.seed(fixture)).teardown();
    for (let rep = 0; rep < REPEATS; rep++) {
      await withClient(async (client) => {
        const [hand, handSeedMs] = await timed(() => handSeed(client, fixture));
        result.hand.seed.push(handSeedMs);
        result.hand.teardown.push((await timed(() => handTeardown(client, hand)))[1]);
        const [rows, rowSeedMs] = await timed(() => rowByRowSeed(client, fixture));
        result.rowByRow.seed.push(rowSeedMs);
        result.rowByRow.teardown.push((await timed(() => handTeardown(client, rows)))[1]);
      });
      for (const [name, session] of [
        ['remap', remap],
        ['database', database],
        ['auto', auto],
      ] as const) {
        if (!session) continue;
        const [scratch, seedMs] = await timed(() => session.seed(fixture));
        result[name].seed.push(seedMs);
        result[name].teardown.push((await timed(() => scratch.teardown()))[1]);
      }
    }
  } finally {
    await database?.close();
    await auto.close();
  }
  return result;
}

await withBenchDatabase(async (db, config) => {
  for (let i = 0; i < OTHER_CAMPAIGNS; i++) await createSampleCampaign(db, { turns: OTHER_TURNS, seed: 100 + i });
  const others = (
    await db.pool.query(
      'SELECT (SELECT count(*) FROM turns) + (SELECT count(*) FROM locations) + (SELECT count(*) FROM world_facts) AS n',
    )
  ).rows[0].n;
  console.log(
    `scratch benchmark on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}: median per rep of ${REPEATS} reps, ms`,
  );
  console.log(
    `the database also holds ${OTHER_CAMPAIGNS} other campaigns (${others} rows in their turns, locations and facts)`,
  );
  console.log('');
  const header = [
    'turns',
    'rows',
    'hand seed',
    'hand tear',
    'hand total',
    'row-by-row',
    'remap seed',
    'remap tear',
    'remap total',
    'remap/hand',
    'database',
    'template',
    'auto',
    'auto/best',
  ];
  const lines: string[][] = [header];
  const totals: Record<number, number> = {};
  const fixtures = new Map<number, Fixture>();
  const fixtureOf = async (turns: number): Promise<Fixture> => {
    const made = fixtures.get(turns);
    if (made) return made;
    const campaign = await createSampleCampaign(db, { turns: turns + 1, seed: turns });
    const fixture = (
      await captureFromDb(db, config, { scrub: { key: BENCH_SCRUB_KEY }, campaign, turns: { turn: turns + 1 } })
    ).fixtures[0]!;
    fixtures.set(turns, fixture);
    return fixture;
  };
  for (const turns of SIZES) {
    const fixture = await fixtureOf(turns);
    const rows = Object.values(fixture.tables).reduce((sum, table) => sum + table.rows.length, 0);
    const r = await measureSize(db, fixture);
    const hand = total(r.hand);
    const remap = total(r.remap);
    const database = r.database.seed.length ? total(r.database) : undefined;
    const best = Math.min(remap, database ?? Infinity);
    totals[turns] = remap;
    lines.push([
      String(turns),
      String(rows),
      ms(median(r.hand.seed)),
      ms(median(r.hand.teardown)),
      ms(hand),
      ms(total(r.rowByRow)),
      ms(median(r.remap.seed)),
      ms(median(r.remap.teardown)),
      ms(remap),
      `${(remap / hand).toFixed(2)}x`,
      database === undefined ? 'n/a' : ms(database),
      r.templateMs.length ? ms(r.templateMs[0]!) : 'n/a',
      ms(total(r.auto)),
      `${(total(r.auto) / best).toFixed(2)}x`,
    ]);
  }
  const print = (rows: string[][]): void => {
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((line) => line[i]!.length)));
    for (const line of rows) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
    console.log('');
  };
  if (SIZES.length > 0) print(lines);
  console.log(
    'hand = hand-written SQL for this schema; total = seed + teardown; database = seed + teardown of a clone as the rep waits for them (made ahead, dropped behind; template = one-off build, with its first clone);',
  );
  console.log('auto/best = auto against the faster of remap and database');
  if (totals[500] && totals[5000])
    console.log(
      `growth 500 -> 5,000 turns (remap total): ${(totals[5000] / totals[500]).toFixed(2)}x for 10x the turns`,
    );
  console.log(
    'goals: remap within 1.25x of hand at every size; 5,000 turns at most 12x the 500-turn time; auto within 1.1x of the faster',
  );
  if (db.backend === 'postgres' && CLONE_SIZES.length > 0) {
    console.log(
      `the database strategy against a bare CREATE DATABASE ... TEMPLATE + DROP of the same template: ms per rep, ${REPEATS} reps, ${CLONE_ROUNDS} rounds of blocks`,
    );
    const clones: string[][] = [
      ['turns', 'bare', 'rep', 'rep/bare', 'bare block', 'block', 'block/bare', 'range', 'auto keeps'],
    ];
    for (const turns of CLONE_SIZES) {
      const r = await benchClone(db, await fixtureOf(turns), REPEATS, CLONE_ROUNDS);
      clones.push([
        String(turns),
        ms(r.bare),
        ms(r.rep),
        `${(r.rep / r.bare).toFixed(2)}x`,
        ms(r.bareBlock),
        ms(r.block),
        `${(r.block / r.bareBlock).toFixed(2)}x`,
        `${r.blockRange[0].toFixed(2)}-${r.blockRange[1].toFixed(2)}x`,
        r.autoPicks,
      ]);
    }
    print(clones);
    console.log(
      'bare = CREATE DATABASE ... TEMPLATE + DROP DATABASE, one after the other; rep = seed + teardown as a rep waits for them, the work behind it let finish between reps (a SUT slower than a clone);',
    );
    console.log(
      'block = reps back to back, until the work behind them has ended, per rep (what a rep costs the server); range = block/bare over the rounds; goal: block within 1.3x of bare',
    );
    console.log('');
  }
  if (SIZES.length > 0) await benchClientKeys(db, config.database.url, SIZES, REPEATS);
});
