// Part of npm run bench:run — turnkit's own cost per turn of a rollout, measured against what it cannot avoid.
//  1. A 10-turn rollout with a SUT that answers at once and writes nothing (turnkit writes each turn's row,
//     game.turns.output, in the same statement as the turn's effects read), and one whose SUT writes its own turn row
//     (psql): turnkit's own time per turn = (the rep's total - its SUT calls - its waits for a SUT slot)
//     / 10, against
//     (the rep's seed + teardown) / 10 + one per-turn effects read (a bare TurnEffectsReader, measured in the same run:
//     the one statement read after a turn row is written). One rep in flight (repsInFlight: 1). Goal: within 1.3x.
//  2. A 5,000-turn campaign: one per-turn effects read against one walk of the whole campaign (what a rep's teardown
//     reads once), both on a seeded scratch campaign; a rollout reads the first per turn, never the second.
import { chmod, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { LoadedConfig } from '../src/config/load.js';
import { sampleGameConfig } from '../src/config/sample-config.js';
import type { Db } from '../src/db/connect.js';
import { captureFromDb } from '../src/fixture/capture.js';
import { serializeDocument, type Fixture } from '../src/fixture/format.js';
import { resolveGameGraph } from '../src/fixture/game-graph.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { TurnEffectsReader } from '../src/scratch/turn-effects.js';
import { namesStatements } from '../src/db/backend-traits.js';
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

  // The per-turn read alone, on a seeded campaign of the same fixture: half before the run, half after.
  const session = new ScratchSession(db, { game: config.game });
  const graph = resolveGameGraph(config, await session.currentCatalog());
  const reads: number[] = [];
  const measureReads = async (target: Fixture, count: number, into: number[]): Promise<void> => {
    const scratch = await session.seed(target);
    try {
      // Opened as a rollout opens its reader: statements named where the server keeps them (namesStatements).
      const reader = await TurnEffectsReader.open(db.pool, graph, scratch.key, undefined, {
        named: namesStatements(db),
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
  await measureReads(fixture, 10, reads);
  const writes = await rolloutRun(dir, url, 'writes', undefined);
  const answers = await rolloutRun(dir, url, 'answers', 'rollout.config.json');
  await measureReads(fixture, 10, reads);
  const read = median(reads);
  for (const [label, records] of [
    ['the SUT writes its own turns (psql)', writes],
    ['the SUT only answers, turnkit writes its turns (game.turns.output)', answers],
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
    console.log(
      `  own per turn / ((seed + teardown) / ${TURNS} + effects read) = ${own.toFixed(1)} / (${seedTeardown.toFixed(1)} / ${TURNS} + ${read.toFixed(1)}) = ${(own / baseline).toFixed(2)} (goal: within 1.3)`,
    );
  }

  if (process.env.BENCH_ROLLOUT_LONG === '0') return session.close();
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
