// The `database` strategy's part of `npm run bench:scratch` (real Postgres only): turnkit's clone-per-rep against a
// bare `CREATE DATABASE ... TEMPLATE` + `DROP DATABASE` of the same fixture's template, measured in the same run,
// two ways:
//  - per rep, interleaved pair by pair, the work behind the reps let finish between reps (untimed), as in a run
//    whose SUT takes longer than a clone: what a rep waits for;
//  - per rep in blocks of back-to-back reps with nothing between them, turnkit's block timed until its work behind
//    the reps has ended too (`session.idle()`): what a rep costs the server, the figure the goal is about.
// Then which strategy `auto` settles on for that fixture (after its probes).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sampleGameConfig } from '../src/config/sample-config.js';
import type { Db } from '../src/db/connect.js';
import type { Fixture } from '../src/fixture/format.js';
import { ScratchSession } from '../src/scratch/scratch-session.js';

/** One fixture's figures, milliseconds per rep (medians; blocks: median over rounds of block time / reps). */
export interface CloneResult {
  bare: number;
  rep: number;
  bareBlock: number;
  block: number;
  blockRange: [number, number];
  autoPicks: string;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Measures the database strategy against bare CREATE DATABASE ... TEMPLATE + DROP for one fixture. */
export async function benchClone(db: Db, fixture: Fixture, repeats: number, rounds: number): Promise<CloneResult> {
  const game = sampleGameConfig.game as never;
  const session = new ScratchSession(db, { game, strategy: 'database' });
  const auto = new ScratchSession(db, { game, strategy: 'auto' });
  try {
    // Warm-up, not counted: the template, and two clones, so that the next ones are made ahead as in a run.
    for (let rep = 0; rep < 2; rep++) await (await session.seed(fixture)).teardown();
    await session.idle();
    const template = (
      await db.pool.query<{ name: string }>(
        `SELECT database_name AS name FROM turnkit.scratch_campaigns WHERE strategy = 'template' AND fixture = $1
         ORDER BY created_at DESC LIMIT 1`,
        [fixture.name],
      )
    ).rows[0]!.name;
    const bare = async (): Promise<void> => {
      const name = `turnkit_bare_${randomBytes(4).toString('hex')}`;
      await db.pool.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
      await db.pool.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    };
    const rep = async (): Promise<void> => (await session.seed(fixture)).teardown().then(() => undefined);
    const bares: number[] = [];
    const reps: number[] = [];
    for (let i = 0; i < repeats; i++) {
      // Alternating which goes first, so neither always follows the other's checkpoint.
      const pair = [
        async () => bares.push(await timed(bare)),
        async () => {
          reps.push(await timed(rep));
          await session.idle();
        },
      ];
      for (const step of i % 2 === 0 ? pair : pair.reverse()) await step();
    }
    const bareBlocks: number[] = [];
    const blocks: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const pair = [
        async () =>
          bareBlocks.push(
            (await timed(async () => {
              for (let i = 0; i < repeats; i++) await bare();
            })) / repeats,
          ),
        async () =>
          blocks.push(
            (await timed(async () => {
              for (let i = 0; i < repeats; i++) await rep();
              await session.idle();
            })) / repeats,
          ),
      ];
      for (const step of round % 2 === 0 ? pair : pair.reverse()) await step();
    }
    // auto: its four probes (two of each), then what it keeps to.
    const picks: string[] = [];
    for (let i = 0; i < 8; i++) {
      const scratch = await auto.seed(fixture);
      if (i >= 4) picks.push(scratch.strategy);
      await scratch.teardown();
    }
    return {
      bare: median(bares),
      rep: median(reps),
      bareBlock: median(bareBlocks),
      block: median(blocks),
      blockRange: [
        Math.min(...blocks.map((b, i) => b / bareBlocks[i]!)),
        Math.max(...blocks.map((b, i) => b / bareBlocks[i]!)),
      ],
      autoPicks: [...new Set(picks)].join('+'),
    };
  } finally {
    await session.close();
    await auto.close();
  }
}
