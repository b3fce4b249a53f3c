// Part of npm run bench:run — turnkit's own cost per turn of a rollout, measured against what it cannot avoid.
//  1. A 10-turn rollout with a SUT that answers at once and writes nothing (turnkit writes each turn's row,
//     game.turns.output, in the same statement as the turn's effects read), and one whose SUT writes its own turn row
//     (psql): turnkit's own time per turn = (the rep's total - its SUT calls - its waits for a SUT slot)
//     / 10, against
//     (the rep's seed + teardown) / 10 + one turn of a minimal rollout written by hand (handRollout, measured in the
//     same run: none of turnkit's code after the seed). One rep in flight (repsInFlight: 1). Goal: within 1.3x.
//  2. A 5,000-turn campaign: one per-turn effects read against one walk of the whole campaign (what a rep's teardown
//     reads once), both on a seeded scratch campaign; a rollout reads the first per turn, never the second.
import { spawn } from 'node:child_process';
import { chmod, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LoadedConfig } from '../src/config/load.js';
import { sampleGameConfig } from '../src/config/sample-config.js';
import type { Db } from '../src/db/connect.js';
import { captureFromDb } from '../src/fixture/capture/capture.js';
import { serializeDocument, type Fixture } from '../src/fixture/format.js';
import { resolveGameGraph } from '../src/fixture/graph/game-graph.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { TurnEffectsReader } from '../src/scratch/effects/turn-effects.js';
import { runQuestion } from '../src/app/run-question.js';
import type { RepRecord } from '../src/run-dir/rep-record.js';
import { BENCH_SCRUB_KEY } from './bench-database.js';

const TURNS = 10;
const REPS = Number(process.env.BENCH_ROLLOUT_REPS ?? 8);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** Runs both rollout measurements in the benchmark's project folder and database; prints ratios. */
export async function benchRollout(db: Db, config: LoadedConfig, url: string | undefined): Promise<void> {
  const dir = config.baseDir;
  const campaign = await createSampleCampaign(db, { turns: 40, seed: 11 });
  const fixture = await capture(db, config, campaign, 23, TURNS);
  await writeFile(join(dir, 'fixtures/rollout.json'), serializeDocument({ ...fixture, name: 'rollout' }));
  const game = sampleGameConfig.game!;
  await writeFile(
    join(dir, 'rollout.config.json'),
    JSON.stringify({ ...sampleGameConfig, game: { ...game, turns: { ...game.turns, output: ['narration'] } } }),
  );
  await writeFile(join(dir, 'answers.sh'), '#!/bin/sh\ncat > /dev/null\necho "the mess hall is on deck 2"\n');
  await writeFile(
    join(dir, 'writes.sh'),
    `#!/bin/sh\ncat > /dev/null\npsql "$DATABASE_URL" -qc "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($TURNKIT_CAMPAIGN, $TURNKIT_TURN, 'x', 'the mess hall is on deck 2', now(), 0)"\necho "the mess hall is on deck 2"\n`,
  );
  for (const sut of ['answers', 'writes']) {
    await chmod(join(dir, `${sut}.sh`), 0o755);
    await writeFile(
      join(dir, `${sut}.yaml`),
      `id: ${sut}\nquestion: q?\nrubric: { path: rubric.md, version: 1 }\ntarget: 0.9\nreps: ${REPS}\nfixtures: [fixtures/rollout.json]\nsut: { type: command, command: [./${sut}.sh] }\ncaseFile: case.md\nturns: ${TURNS}\nchecks: { mustContain: [deck 2] }\n`,
    );
  }

  // The baseline: a minimal rollout written by hand (handRollout below), on a seeded campaign of the same fixture,
  // half its turns before the runs, half after.
  const session = new ScratchSession(db, { game: config.game });
  const hand = { writes: [] as number[], answers: [] as number[] };
  const handRollouts = async (): Promise<void> => {
    for (const sut of ['writes', 'answers'] as const)
      hand[sut].push(...(await handRollout(db, session, fixture, dir, sut, TURNS / 2)));
  };
  await handRollouts();
  const writes = await rolloutRun(dir, url, 'writes', undefined);
  const answers = await rolloutRun(dir, url, 'answers', 'rollout.config.json');
  await handRollouts();
  for (const [label, records, read] of [
    ['the SUT writes its own turns (psql)', writes, median(hand.writes)],
    ['the SUT only answers, turnkit writes its turns (game.turns.output)', answers, median(hand.answers)],
  ] as const) {
    // Beyond the SUT: its calls and the waits for a SUT slot (another rep's call) are not turnkit's time.
    const sum = (record: RepRecord, key: 'sutMs' | 'waitMs' | 'turnkitMs'): number =>
      record.turns!.reduce((total, turn) => total + (turn.timings[key] ?? 0), 0);
    const own = median(
      records.map((record) => (record.timings.totalMs - record.timings.sutMs - sum(record, 'waitMs')) / TURNS),
    );
    const seedTeardown = median(records.map((record) => record.timings.seedMs + record.timings.teardownMs));
    const part = (of: (record: RepRecord) => number): string => median(records.map(of)).toFixed(1);
    const baseline = seedTeardown / TURNS + read;
    console.log(`rollout, ${TURNS} turns x ${REPS} reps, ${label}: turnkit's own time per turn ${own.toFixed(1)} ms`);
    console.log(
      `  inside a rep (median ms): seed ${part((r) => r.timings.seedMs)}; turns: SUT ${part((r) => sum(r, 'sutMs'))}, waiting for a SUT slot ${part((r) => sum(r, 'waitMs'))}, turnkit ${part((r) => sum(r, 'turnkitMs'))}, player ${part((r) => r.turns!.reduce((t, turn) => t + turn.timings.playerMs, 0))}; rest of the rep (before the first turn, between turns) ${part((r) => r.timings.totalMs - r.timings.seedMs - r.timings.teardownMs - r.timings.sutMs - sum(r, 'waitMs') - sum(r, 'turnkitMs'))}; teardown ${part((r) => r.timings.teardownMs)}; total ${part((r) => r.timings.totalMs)}`,
    );
    // Each rep against its own seed + teardown too: a rep whose teardown waited on the machine is slow on both sides.
    const perRep = median(
      records.map(
        (record) =>
          (record.timings.totalMs - record.timings.sutMs - sum(record, 'waitMs')) /
          TURNS /
          ((record.timings.seedMs + record.timings.teardownMs) / TURNS + read),
      ),
    );
    console.log(
      `  own per turn / ((seed + teardown) / ${TURNS} + a hand-written turn) = ${own.toFixed(1)} / (${seedTeardown.toFixed(1)} / ${TURNS} + ${read.toFixed(1)}) = ${(own / baseline).toFixed(2)}; rep by rep, median ${perRep.toFixed(2)} (goal: within 1.3)`,
    );
  }

  if (process.env.BENCH_ROLLOUT_LONG === '0') return session.close();
  const graph = resolveGameGraph(config, await session.currentCatalog());
  const measureReads = async (target: Fixture, count: number, into: number[]): Promise<void> => {
    const scratch = await session.seed(target);
    try {
      const reader = await TurnEffectsReader.open(db.pool, graph, scratch.key, undefined, {
        named: true,
      });
      const turns = target.tables.turns!.rows.length;
      for (let i = 0; i < count; i++) {
        // What a rollout reads after a turn: the one statement that finds the rows written since the last read (a
        // turn row, as the SUT that writes would have inserted, untimed) and moves the horizon on.
        await db.pool.query(
          "INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) VALUES ($1, $2, 'x', 'y', now(), 0)",
          [scratch.key, turns + 1 + i],
        );
        const started = performance.now();
        await reader.read(db.pool);
        into.push(performance.now() - started);
      }
    } finally {
      await scratch.teardown();
    }
  };
  // A long game: the per-turn read against the walk a rep does once, at its teardown.
  const long = await createSampleCampaign(db, { turns: 5_000, seed: 12 });
  const longFixture = await capture(db, config, long, 4_990, 5);
  const longReads: number[] = [];
  await measureReads(longFixture, 10, longReads);
  const walks: number[] = [];
  for (let i = 0; i < 3; i++) {
    const scratch = await session.seed(longFixture);
    try {
      const started = performance.now();
      await session.effects(scratch, longFixture);
      walks.push(performance.now() - started);
    } finally {
      await scratch.teardown();
    }
  }
  await session.close();
  const rows = Object.values(longFixture.tables).reduce((sum, table) => sum + table.rows.length, 0);
  console.log(
    `5,000-turn campaign (${rows} rows in its fixture): per-turn effects read ${median(longReads).toFixed(1)} ms against a walk of the whole campaign ${median(walks).toFixed(1)} ms = ${(median(longReads) / median(walks)).toFixed(3)} (a rollout reads the first each turn; the walk once, at teardown)`,
  );
}

async function rolloutRun(
  dir: string,
  url: string | undefined,
  id: string,
  configPath: string | undefined,
): Promise<RepRecord[]> {
  // One rep in flight (one SUT call at a time and no second rep seeding beside it): what a rep's timings hold is its
  // own work, not another rep's holding the database.
  const result = await runQuestion({
    question: `${id}.yaml`,
    cwd: dir,
    databaseUrl: url,
    configPath,
    concurrency: 1,
    repsInFlight: 1,
  });
  if (result.errors > 0) throw new Error(`${result.errors} rollout rep(s) failed in ${result.dir}`);
  return repRecords(join(result.dir, 'reps', 'rollout'));
}

async function capture(db: Db, config: LoadedConfig, campaign: string, turn: number, ahead: number): Promise<Fixture> {
  return (await captureFromDb(db, config, { scrub: { key: BENCH_SCRUB_KEY }, campaign, turns: { turn }, ahead }))
    .fixtures[0]!;
}

async function repRecords(dir: string): Promise<RepRecord[]> {
  const records: RepRecord[] = [];
  for (const name of await readdir(dir))
    if (name.endsWith('.json')) records.push(JSON.parse(await readFile(join(dir, name), 'utf8')) as RepRecord);
  return records;
}

// The sample game's campaign tables, each with how a hand-written rollout finds the campaign's rows ($1) and their keys.
const HAND_TABLES: readonly (readonly [table: string, key: string, filter: string])[] = [
  ['campaigns', 't.id::text', 't.id = $1'],
  ['characters', 't.id::text', 't.campaign_id = $1'],
  ['decks', "t.campaign_id || ',' || t.deck_number", 't.campaign_id = $1'],
  ['locations', 't.id::text', 't.campaign_id = $1'],
  [
    'location_connections',
    "t.from_location_id || ',' || t.to_location_id",
    't.from_location_id IN (SELECT l.id FROM locations AS l WHERE l.campaign_id = $1)',
  ],
  ['turns', 't.id::text', 't.campaign_id = $1'],
  ['world_facts', 't.id::text', 't.campaign_id = $1'],
];

/**
 * A minimal rollout of the sample game written by hand, none of turnkit's code in it after the seed: the horizon read
 * once, then per turn the same SUT script turnkit runs (spawned as turnkit spawns it, untimed) and, timed, the one
 * statement a rollout cannot do without: per table, in one scan, the campaign's row count (for deletions) and the rows
 * written since the horizon (key and whole row), the next horizon, and for a SUT that only answers the insert of the
 * turn's row (committed without a WAL flush, as turnkit's is); then its rows parsed. Prepared on PostgreSQL (as a
 * careful hand-written rollout would be), unnamed on the embedded server (one session for every connection). It is
 * timed right after the SUT's process ends, as a rollout's read is (the first statement after a SUT call waits on the
 * scheduler more than one in a warm loop). Returns each turn's time, the horizon read's spread over the turns.
 */
async function handRollout(
  db: Db,
  session: ScratchSession,
  fixture: Fixture,
  dir: string,
  sut: 'writes' | 'answers',
  turns: number,
): Promise<number[]> {
  const scratch = await session.seed(fixture);
  const named = db.backend === 'postgres';
  const written =
    '(t.xmin::text::bigint - $2::bigint + 4294967296) % 4294967296 < 2147483648 AND t.xmin::text::bigint > 2';
  const reads = HAND_TABLES.map(
    ([table, key, filter], i) =>
      `SELECT ${i} AS i, count(*)::int AS n, jsonb_agg(jsonb_build_array(${key}, to_jsonb(t))) FILTER (WHERE ${written})::text AS r FROM ${table} AS t WHERE ${filter}`,
  );
  reads.push('SELECT -1, (pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296)::int, NULL');
  const insert =
    "WITH w AS (INSERT INTO turns (campaign_id, turn_number, player_input, narration, played_at, ship_minute) SELECT $1::bigint, $3::int, 'x', 'the mess hall is on deck 2', now(), 0 WHERE set_config('synchronous_commit', 'off', true) IS NOT NULL RETURNING to_jsonb(turns)::text AS r)\n";
  const text =
    (sut === 'answers' ? insert : '') +
    reads.join('\nUNION ALL\n') +
    (sut === 'answers' ? '\nUNION ALL SELECT -2, NULL, r FROM w' : '');
  const name = `bench_hand_${sut}`;
  const times: number[] = [];
  try {
    const opened = performance.now();
    let horizon = (
      await db.pool.query<{ h: string }>(
        'SELECT (pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296)::text AS h',
      )
    ).rows[0]!.h;
    const opening = performance.now() - opened;
    const first = fixture.input.turn;
    for (let turn = first; turn < first + turns; turn++) {
      await spawnSut(join(dir, `${sut}.sh`), {
        DATABASE_URL: scratch.databaseUrl,
        TURNKIT_CAMPAIGN: scratch.key,
        TURNKIT_TURN: String(turn),
      });
      const started = performance.now();
      const values = sut === 'answers' ? [scratch.key, horizon, turn] : [scratch.key, horizon];
      const { rows } = await db.pool.query<{ i: number; n: number; r: string | null }>(
        named ? { name, text, values } : { text, values },
      );
      for (const row of rows) {
        if (row.i === -1) horizon = String(row.n);
        else if (row.r !== null) JSON.parse(row.r);
      }
      times.push(performance.now() - started + opening / TURNS);
    }
  } finally {
    await scratch.teardown();
  }
  return times;
}

// A SUT script run as turnkit runs a command SUT: its own process, the campaign in its environment, a request on stdin.
function spawnSut(file: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, [], { env: { PATH: process.env.PATH, ...env }, stdio: ['pipe', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`))));
    child.stdin.end('{}\n');
  });
}
