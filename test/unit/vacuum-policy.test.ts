import { describe, expect, it } from 'vitest';
import { VacuumPolicy } from '../../src/scratch/vacuum-policy.js';

// A rep as the session counts it: enter before its seed, leave after its teardown, with the SUT's time between.
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('VacuumPolicy', () => {
  it('never vacuums while a campaign is live, with 12 reps in flight, and vacuums every N reps and at the end', async () => {
    let live = 0;
    let left = 0;
    const vacuums: { tables: string[]; liveThen: number; reps: number }[] = [];
    const policy = new VacuumPolicy(
      async (tables) => {
        vacuums.push({ tables, liveThen: live, reps: left });
        left = 0;
        // A vacuum takes a while: reps that try to start meanwhile must wait for it.
        for (let i = 0; i < 5; i++) {
          await tick();
          expect(live).toBe(0);
        }
      },
      (error) => {
        throw error;
      },
      50,
    );
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 230) {
        const rep = next++;
        await policy.enter();
        live++;
        for (let i = 0; i < 1 + (rep % 7); i++) await tick();
        live--;
        left++;
        policy.leave([rep % 2 === 0 ? '"public"."turns"' : '"public"."campaigns"']);
      }
    };
    await Promise.all(Array.from({ length: 12 }, worker));
    expect(policy.busy).toBe(false);
    await policy.settle();
    expect(vacuums.every((vacuum) => vacuum.liveThen === 0)).toBe(true);
    // Every 50 reps a drain: the reps in flight then (at most 11 more) finish before the vacuum; the rest at the end.
    const between = vacuums.slice(0, -1);
    expect(between.length).toBeGreaterThanOrEqual(3);
    for (const vacuum of between) expect(vacuum.reps).toBeGreaterThanOrEqual(50);
    for (const vacuum of between) expect(vacuum.reps).toBeLessThan(50 + 12);
    expect(vacuums.at(-1)!.reps).toBeLessThan(62);
    expect(vacuums.reduce((sum, vacuum) => sum + vacuum.reps, 0)).toBe(230);
    expect(vacuums[0]!.tables.sort()).toEqual(['"public"."campaigns"', '"public"."turns"']);
  });

  it('does not vacuum at the end while a campaign is still live (a campaign seeded by hand outlives its session)', async () => {
    const vacuums: string[][] = [];
    const policy = new VacuumPolicy(
      async (tables) => void vacuums.push(tables),
      () => {},
      10,
    );
    await policy.enter();
    policy.leave(['"public"."turns"']);
    await policy.enter();
    await policy.settle();
    expect(vacuums).toEqual([]);
    expect(policy.busy).toBe(true);
  });

  it('reports a failed vacuum and lets the waiting reps go on', async () => {
    const errors: string[] = [];
    const policy = new VacuumPolicy(
      async () => {
        throw new Error('disk full');
      },
      (error) => errors.push((error as Error).message),
      1,
    );
    await policy.enter();
    policy.leave(['"public"."turns"']);
    await policy.enter();
    expect(errors).toEqual(['disk full']);
    policy.leave([]);
    await policy.settle();
    expect(errors).toEqual(['disk full', 'disk full']);
  });
});
