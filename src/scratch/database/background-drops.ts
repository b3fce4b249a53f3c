/**
 * Drops of torn-down clones that run after the rep has its result, a few at once. Postgres 15 makes every
 * `DROP DATABASE` wait for a checkpoint it forces; drops that overlap share one (two at once took about half the
 * time of two in a row here), so letting them overlap is what makes them cheap, and running them behind the rep
 * takes them off its time. At most `limit` run at once: a teardown that finds them all busy waits for a slot, so
 * torn-down databases never pile up on the server.
 */
export class BackgroundDrops {
  private readonly running = new Set<Promise<void>>();

  /** `onError` hears a drop that failed (its registry entry stays, for gc). */
  constructor(
    private readonly limit: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts `drop` once a slot is free; resolves when it has started, not when it is done. */
  async start(drop: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const running: Promise<void> = drop()
      .catch((error: unknown) => this.onError(error))
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /** Resolves once every drop started so far (and any started meanwhile) has ended. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
