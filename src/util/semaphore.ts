/** At most `limit` holders at a time; the others wait in arrival order. */
export class Semaphore {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  /** A semaphore with `limit` permits. */
  constructor(private readonly limit: number) {}

  /** Runs `fn` while holding a permit, releasing it however `fn` ends. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.held >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    try {
      return await fn();
    } finally {
      // A waiter inherits the permit directly, so a newcomer can never overtake it.
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }
}
