/** After how many torn-down campaigns a session vacuums between reps (besides once as it closes). */
export const VACUUM_EVERY_REPS = 500;

/**
 * When a scratch session vacuums the tables its reps churn, on a database that does not do it itself (the embedded
 * one: PGlite has no autovacuum). Never while one of the session's campaigns is live: a vacuum between two of a rep's
 * statements would make that rep's timings (and the SUT's view of the database) pay for other reps' garbage, and on
 * the embedded server's one backend it would hold every connection meanwhile. So:
 *  - every `every` campaigns torn down, the session drains: seeds wait (`enter`) until the live campaigns are torn
 *    down, the vacuum runs, then the seeds go on; with reps in flight side by side that is one short stall per
 *    `every` reps, instead of a database that slows down by a few percent per thousand reps;
 *  - as the session closes (a run's end, every rep settled), whatever was churned since is vacuumed (`settle`).
 * `vacuum` is given the tables' SQL names; a failed vacuum is reported to `onError` and never fails a rep.
 */
export class VacuumPolicy {
  private live = 0;
  private churned = 0;
  private readonly tables = new Set<string>();
  private draining = false;
  private running: Promise<void> | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly vacuum: (tables: string[]) => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
    private readonly every: number = VACUUM_EVERY_REPS,
  ) {}

  /** Before a seed: waits while the session drains for a vacuum or one runs, then counts a live campaign. */
  async enter(): Promise<void> {
    while (this.draining || this.running) await new Promise<void>((wake) => this.waiters.push(wake));
    this.live++;
  }

  /** After a campaign is gone (torn down, or its seed failed and rolled back): the tables its rows churned. */
  leave(tables: Iterable<string>): void {
    this.live--;
    this.churned++;
    for (const table of tables) this.tables.add(table);
    if (this.churned >= this.every) this.draining = true;
    if (this.draining && this.live === 0) this.start();
  }

  /** At the session's end: vacuums what was churned since the last vacuum, when no campaign of it is live. */
  async settle(): Promise<void> {
    await this.running;
    if (this.live === 0 && this.churned > 0) {
      this.start();
      await this.running;
    }
  }

  /** Whether a campaign of the session is live now (seeded or seeding, not yet torn down). */
  get busy(): boolean {
    return this.live > 0;
  }

  private start(): void {
    const tables = [...this.tables];
    this.tables.clear();
    this.churned = 0;
    this.running = this.vacuum(tables)
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = undefined;
        this.draining = false;
        const waiters = this.waiters;
        this.waiters = [];
        for (const wake of waiters) wake();
      });
  }
}
