// npm run bench:rep — one rep's database work (seed, the read before the SUT, teardown with effects) as `turnkit run`
// does it, on the 23-turn sample fixture bench:peer uses: the statements and round trips a rep makes (counted at the
// pg client, so the same on both backends) and each one's median CPU time (this process's: on the embedded database
// the server runs in it, so that is the server's work, which the machine's load moves much less than wall time) and
// wall time (on a real server the part spent there). Uses DATABASE_URL when set (a scratch database there), else a
// fresh embedded database. BENCH_REPS (default 40) reps, the first 5 not counted; BENCH_BEGIN_EXTRA: SQL appended to
// every transaction's BEGIN (to try a setting, e.g. `SET LOCAL session_replication_role = replica`);
// BENCH_VACUUM_EVERY: the session's vacuumEvery; BENCH_DUMP: a file for the last reps' statements and values;
// BENCH_UNNAMED=1: every other rep sends its statements unnamed (the names scratch-transaction.ts gives them taken
// off at the client), for the two medians side by side in one process and one load.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { captureFromDb } from '../src/fixture/capture/capture.js';
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
const COMPARE = process.env.BENCH_UNNAMED === '1';
let unnamedRep = false;
const dumped: string[] = [];
const seen: { stage: Stage; text: string; ms: number; wall: number }[] = [];
const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const at = stage;
  if (!at) return original.apply(this, args);
  if (process.env.BENCH_BEGIN_EXTRA && typeof args[0] === 'string' && /^BEGIN(;|$)/.test(args[0]))
    args[0] = `${args[0]}; ${process.env.BENCH_BEGIN_EXTRA}`;
  if (unnamedRep && args[0] && typeof args[0] === 'object' && (args[0] as { name?: string }).name)
    args[0] = { ...(args[0] as object), name: undefined };
  const first = args[0] as string | { text?: string };
  const text = (typeof first === 'string' ? first : (first?.text ?? '?')).replace(/\s+/g, ' ').trim();
  const started = cpuMs();
  const startedWall = performance.now();
  const result = original.apply(this, args) as Promise<unknown>;
  if (process.env.BENCH_DUMP && at)
    dumped.push(
      `-- ${at}\n${typeof first === 'string' ? first : first?.text}\n-- values: ${JSON.stringify((first as { values?: unknown })?.values ?? args[1] ?? null).slice(0, 3000)}\n`,
    );
  const done = () => seen.push({ stage: at, text, ms: cpuMs() - started, wall: performance.now() - startedWall });
  if (result && typeof result.then === 'function') result.then(done, done);
  return result;
} as typeof pg.Client.prototype.query;

await withBenchDatabase(async (db, config) => {
  console.log(`rep profile on ${db.backend === 'embedded' ? 'the embedded database' : db.displayUrl}, ${REPS} reps`);
  const campaign = await createSampleCampaign(db, { turns: 40, seed: 11 });
  const fixture = (await captureFromDb(db, config, { scrub: { key: BENCH_SCRUB_KEY }, campaign, turns: { turn: 23 } }))
    .fixtures[0]!;
  const session = new ScratchSession(db, { game: config.game });
  const stages: Record<Stage, number[]> = { seed: [], before: [], teardown: [] };
  const perRep: (typeof seen)[] = [];
  const walls: Record<Stage, number[]> = { seed: [], before: [], teardown: [] };
  const unnamed: Record<Stage, number[]> = { seed: [], before: [], teardown: [] };
  const unnamedPerRep: (typeof seen)[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    unnamedRep = COMPARE && rep % 2 === 1;
    const from = seen.length;
    const timed = async <T>(at: Stage, fn: () => Promise<T>): Promise<T> => {
      stage = at;
      const started = cpuMs();
      const startedWall = performance.now();
      try {
        return await fn();
      } finally {
        if (unnamedRep) unnamed[at].push(cpuMs() - started);
        else {
          stages[at].push(cpuMs() - started);
          walls[at].push(performance.now() - startedWall);
        }
        stage = undefined;
      }
    };
    const scratch = await timed('seed', () => session.seed(fixture));
    const before = await timed('before', () => session.beforeSut(scratch, fixture));
    await timed('teardown', () => scratch.teardown({ effects: true, horizon: before.horizon }));
    if (rep >= WARM) (unnamedRep ? unnamedPerRep : perRep).push(seen.slice(from));
    else seen.length = from;
  }
  await session.close();
  const counted = perRep.length;
  // Warm-up reps are counted out by index, before the two kinds of reps were told apart.
  const warm = COMPARE ? Math.ceil(WARM / 2) : WARM;
  for (const at of ['seed', 'before', 'teardown'] as const) {
    const own = stages[at].slice(warm);
    const statements = perRep[0]!.filter((s) => s.stage === at);
    const wall = walls[at].slice(warm);
    console.log(
      `${at}: CPU median ${median(own).toFixed(1)} ms (${Math.min(...own).toFixed(1)}-${Math.max(...own).toFixed(1)}), wall ${median(wall).toFixed(1)} ms, ${statements.length} round trips a rep`,
    );
    if (COMPARE)
      console.log(
        `  unnamed (every other rep): CPU median ${median(unnamed[at].slice(WARM - warm)).toFixed(1)} ms, named / unnamed ${(median(own) / median(unnamed[at].slice(WARM - warm))).toFixed(2)}x`,
      );
    statements.forEach((statement, i) => {
      const of = (reps: (typeof seen)[], part: 'ms' | 'wall') =>
        median(reps.map((rep) => rep.filter((s) => s.stage === at)[i]?.[part] ?? 0));
      console.log(
        `  ${of(perRep, 'ms').toFixed(2).padStart(6)} CPU ${of(perRep, 'wall').toFixed(2).padStart(6)} wall ms` +
          (COMPARE ? ` (unnamed ${of(unnamedPerRep, 'ms').toFixed(2).padStart(6)} CPU)` : '') +
          `  ${statement.text.slice(0, 100)}`,
      );
    });
  }
  console.log(`${counted} reps counted`);
  if (process.env.BENCH_DUMP)
    (await import('node:fs')).writeFileSync(process.env.BENCH_DUMP, dumped.slice(-25).join('\n'));
  // In windows of ten reps of the kind measured (named, when compared), to see a trend over the run.
  const kept = stages.seed.length;
  for (let from = warm; from < kept; from += 10) {
    const window = (at: Stage) => median(stages[at].slice(from, from + 10)).toFixed(1);
    console.log(
      `  reps ${from}-${Math.min(kept, from + 10) - 1}${COMPARE ? ' (named)' : ''}: seed ${window('seed')}, before ${window('before')}, teardown ${window('teardown')} ms`,
    );
  }
});
