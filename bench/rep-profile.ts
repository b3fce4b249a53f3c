// npm run bench:rep — one rep's database work (seed, the read before the SUT, teardown with effects) as `turnkit run`
// does it, on the 23-turn sample fixture bench:peer uses: the statements and round trips a rep makes (counted at the
// pg client, so the same on both backends) and each one's median time. Uses DATABASE_URL when set (a scratch
// database there), else a fresh embedded database. BENCH_REPS (default 40) reps, the first 5 not counted.
import pg from 'pg';
import { captureFromDb } from '../src/fixture/capture.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { BENCH_SCRUB_KEY, withBenchDatabase } from './bench-database.js';

const REPS = Number(process.env.BENCH_REPS ?? 40);
const WARM = 5;
// CPU time of this process (user + system), which the machine's load moves much less than wall time: on the
// embedded database the server's work is this process's too.
const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};
const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? 0;

// Every query a pg client sends, with its text's first words and its time; a batch of statements is one round trip.
type Stage = 'seed' | 'before' | 'teardown';
let stage: Stage | undefined;
const seen: { stage: Stage; text: string; ms: number }[] = [];
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const at = stage;
  if (!at) return original.apply(this, args);
  if (process.env.BENCH_REPLICA && typeof args[0] === 'string' && args[0].startsWith('BEGIN;'))
    args[0] = `${args[0]}; SET LOCAL session_replication_role = replica`;
  const first = args[0] as string | { text?: string };
  const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').trim();
  const started = cpuMs();
  const result = original.apply(this, args) as Promise<unknown>;
  const done = () => seen.push({ stage: at, text, ms: cpuMs() - started });
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
} as typeof pg.Client.prototype.query;

await withBenchDatabase(async (db, config) => {
  console.log(
    `rep profile on ${db.backend === 'embedded' ? 'the embedded database (PGlite)' : db.displayUrl}, ${REPS} reps`,
  );
  const campaign = await createSampleCampaign(db, { turns: 40, seed: 11 });
  const fixture = (await captureFromDb(db, config, { scrub: { key: BENCH_SCRUB_KEY }, campaign, turns: { turn: 23 } }))
    .fixtures[0]!;
  const vacuumEvery = process.env.BENCH_VACUUM_EVERY ? Number(process.env.BENCH_VACUUM_EVERY) : undefined;
  const session = new ScratchSession(db, { game: config.game, vacuumEvery });
  const stages: Record<Stage, number[]> = { seed: [], before: [], teardown: [] };
  const perRep: { stage: Stage; text: string; ms: number }[][] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const from = seen.length;
    const timed = async <T>(at: Stage, fn: () => Promise<T>): Promise<T> => {
      stage = at;
      const started = cpuMs();
      try {
        return await fn();
      } finally {
        stages[at].push(cpuMs() - started);
        stage = undefined;
      }
    };
    const scratch = await timed('seed', () => session.seed(fixture));
    const before = await timed('before', () => session.beforeSut(scratch, fixture));
    await timed('teardown', () => scratch.teardown({ effects: true, horizon: before.horizon }));
    if (rep >= WARM) perRep.push(seen.slice(from));
    else seen.length = from;
  }
  await session.close();
  const counted = perRep.length;
  for (const at of ['seed', 'before', 'teardown'] as const) {
    const own = stages[at].slice(WARM);
    const statements = perRep[0]!.filter((s) => s.stage === at);
    console.log(
      `${at}: median ${median(own).toFixed(1)} ms (${Math.min(...own).toFixed(1)}-${Math.max(...own).toFixed(1)}), ${statements.length} round trips a rep`,
    );
    statements.forEach((statement, i) => {
      const times = perRep.map((rep) => rep.filter((s) => s.stage === at)[i]?.ms ?? 0);
      console.log(`  ${median(times).toFixed(2).padStart(7)} ms  ${statement.text.slice(0, 110)}`);
    });
  }
  console.log(`${counted} reps counted`);
  for (let from = WARM; from < REPS; from += 10) {
    const window = (at: Stage) => median(stages[at].slice(from, from + 10)).toFixed(1);
    console.log(
      `  reps ${from}-${Math.min(REPS, from + 10) - 1}: seed ${window('seed')}, before ${window('before')}, teardown ${window('teardown')} ms`,
    );
  }
});
