// The heap a streamed capture's walk holds, step by step: a sample campaign of BENCH_WALK_TURNS turns (default
// 50,000), then the walk's own functions in the order captureFromDb calls them (collect the owned rows keys-only,
// turn order, turn groups, the slice at the latest turn, the shared rows, the fixture's shell, each table read
// again batch by batch), with the heap after a forced collection at each step. Run with node's --expose-gc:
// `node --expose-gc --import tsx bench/capture-walk-heap.ts` (DATABASE_URL for a real server).
import { buildFixture } from '../src/fixture/capture/build-fixture.js';
import { capturedTurnGroups, latestTurnOf } from '../src/fixture/turns/captured-turns.js';
import { collectOwned } from '../src/fixture/capture/collect-owned.js';
import { collectShared } from '../src/fixture/capture/collect-shared.js';
import { resolveGameGraph } from '../src/fixture/graph/game-graph.js';
import { sliceAtTurn } from '../src/fixture/turns/slice-turns.js';
import { decodedBatches } from '../src/fixture/capture/stream-rows.js';
import { structuralColumns } from '../src/fixture/graph/structural-columns.js';
import { orderTurns } from '../src/fixture/turns/turn-order.js';
import { introspect } from '../src/db/introspect.js';
import { createSampleCampaign } from '../src/sample/create-sample.js';
import { withBenchDatabase } from './bench-database.js';

const TURNS = Number(process.env.BENCH_WALK_TURNS ?? 50_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (node --expose-gc --import tsx bench/capture-walk-heap.ts)');

function heapMb(): string {
  gc!();
  gc!();
  return (process.memoryUsage().heapUsed / 1e6).toFixed(1);
}

await withBenchDatabase(async (db, config) => {
  const campaign = await createSampleCampaign(db, { turns: TURNS });
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const steps: [string, string][] = [['start', heapMb()]];
    const graph = resolveGameGraph(config, await introspect(client));
    // The sample's everywhere pass looks for the users' handles (a shared table: no owned column added).
    const keep = structuralColumns(graph, new Map([['users', ['handle']]]));
    const collected = await collectOwned(client, graph, campaign, keep);
    steps.push(['owned rows collected', heapMb()]);
    const order = orderTurns(graph, collected.get(graph.turns.name)!);
    steps.push(['turn order', heapMb()]);
    const groups = capturedTurnGroups(graph.turnModel, collected.get(graph.turns.name)!, order);
    steps.push(['turn groups', heapMb()]);
    const slice = sliceAtTurn(graph, collected, order, latestTurnOf(groups), groups);
    steps.push(['slice', heapMb()]);
    const { shared } = await collectShared(client, graph, slice);
    steps.push(['shared rows', heapMb()]);
    const origin = { database: 'bench', serverVersion: '', rootValue: campaign, latestTurn: 0, capturedAt: '' };
    const { lists } = buildFixture('walk', graph, slice, shared, origin);
    for (const list of lists)
      for await (const _batch of decodedBatches(client, list.collected, list.owned ? keep.get(list.table) : undefined));
    steps.push(['every table read again', heapMb()]);
    await client.query('ROLLBACK');
    console.log(`the walk's heap after a forced collection, ${TURNS} turns (MB)`);
    for (const [step, mb] of steps) console.log(`${step.padEnd(24)} ${mb.padStart(6)}`);
  } finally {
    client.release();
  }
});
