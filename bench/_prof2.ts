import { performance } from 'node:perf_hooks';
import { withBenchDatabase } from './bench-database.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { captureFromDb } from '../src/fixture/capture.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';
import { handSeed, handTeardown } from './scratch-baselines.js';
const N = Number(process.env.N ?? 500);
await withBenchDatabase(async (db, config) => {
  for (let i = 0; i < 3; i++) await createSampleCampaign(db, { turns: 1000, seed: 100 + i });
  const c = await createSampleCampaign(db, { turns: N + 1, seed: 50 });
  const fixture = (await captureFromDb(db, config, { campaign: c, turns: { turn: N + 1 } })).fixtures[0]!;
  const s = new ScratchSession(db, { game: config.game });
  const log: [string, number][] = [];
  const wrap = (q: any) => async (...args: any[]) => { const t = performance.now(); try { return await q(...args); } finally { const text = typeof args[0] === 'string' ? args[0] : args[0].text; log.push([text.replace(/\s+/g, ' ').slice(0, 70), performance.now() - t]); } };
  db.pool.on('acquire', (cl: any) => { if (!cl.__w) { cl.__w = true; const q = cl.query.bind(cl); cl.query = (...args: any[]) => (typeof args[args.length - 1] === 'function' ? q(...args) : wrap(q)(...args)); } });
  const agg = new Map<string, number[]>();
  const REPS = 15;
  for (let i = 0; i < REPS + 3; i++) {
    const cl = await db.pool.connect();
    log.length = 0;
    let t = performance.now(); const h = await handSeed(cl, fixture); const hs = performance.now() - t;
    t = performance.now(); await handTeardown(cl, h); const ht = performance.now() - t;
    const handLog = log.splice(0);
    cl.release();
    t = performance.now(); const x = await s.seed(fixture); const rs = performance.now() - t;
    const seedLog = log.splice(0);
    t = performance.now(); await x.teardown(); const rt = performance.now() - t;
    const tearLog = log.splice(0);
    if (i < 3) continue;
    const add = (k: string, v: number) => agg.set(k, [...(agg.get(k) ?? []), v]);
    add('TOTAL hand seed', hs); add('TOTAL hand teardown', ht); add('TOTAL remap seed', rs); add('TOTAL remap teardown', rt);
    add('SUMQ hand', handLog.reduce((a, b) => a + b[1], 0)); add('SUMQ remap seed', seedLog.reduce((a, b) => a + b[1], 0)); add('SUMQ remap tear', tearLog.reduce((a, b) => a + b[1], 0));
    for (const [q, d] of handLog) add('hand  ' + q, d);
    for (const [q, d] of seedLog) add('seed  ' + q, d);
    for (const [q, d] of tearLog) add('tear  ' + q, d);
  }
  const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)]!;
  for (const [k, v] of agg) console.log(med(v).toFixed(2).padStart(7), `x${v.length / REPS}`, k);
});
