import { describe, expect, it } from 'vitest';
import { BackgroundDrops } from '../../src/scratch/database/background-drops.js';

// Drops behind the reps: a few at once (so they share checkpoints), never more, errors heard, idle() waits for all.
describe('BackgroundDrops', () => {
  it('runs at most `limit` at once, makes the next start wait for a slot, and idle() waits for every one', async () => {
    const errors: unknown[] = [];
    const drops = new BackgroundDrops(2, (error) => errors.push(error));
    const release: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const done: number[] = [];
    const drop = (n: number) => async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => release.push(resolve));
      running--;
      done.push(n);
      if (n === 1) throw new Error('drop 1 failed');
    };
    await drops.start(drop(0));
    await drops.start(drop(1));
    let third = false;
    const starting = drops.start(drop(2)).then(() => {
      third = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    release.shift()!();
    await starting;
    expect(third).toBe(true);
    let idle = false;
    const waiting = drops.idle().then(() => {
      idle = true;
    });
    release.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    release.shift()!();
    await waiting;
    expect(idle).toBe(true);
    expect(most).toBe(2);
    expect(done.sort()).toEqual([0, 1, 2]);
    expect(errors.map((error) => (error as Error).message)).toEqual(['drop 1 failed']);
  });
});
