/** How long background work yields to a fan-out at most: it goes on after this even if fan-outs keep coming. */
export const MAX_YIELD_MS = 3000;

/**
 * How long background work waits on after the last page is written. A page written is in the kernel, not
 * yet on a screen: the proxy in front (nginx on the same host, deploy/) still encrypts and relays some 90 MB
 * to 5,000 phones, and in `npm run bench:draft` the load generator still reads them, on the same cores.
 * Measured: with pushes going out at once the slowest page per pick was ~0.17 s later than in a run without
 * them; 300 ms later, as late as without (docs/benchmarks.md, "Push notifications at a pick").
 */
export const SETTLE_MS = 300;

/**
 * Whether a live fan-out (a change re-ranked and written to every open page) is under way on this instance,
 * or ended less than SETTLE_MS ago, so that work nobody is looking at as it happens (the push notifications)
 * waits for it instead of sharing the machine with it. At a pick with 5,000 subscribed devices, encrypting
 * and posting their pushes beside the pages' fan-out made that pick's pages twice as slow (docs/benchmarks.md,
 * "Push notifications at a pick"). The yield is bounded (MAX_YIELD_MS from the start of a busy spell), so
 * pushes are never starved.
 */
export class LiveFanOut {
  private active = 0;
  private busySince = 0;
  /** When the last fan-out's settling ends (0: none settling). */
  private settledAt = 0;
  private waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly settleMs = SETTLE_MS) {}

  /** A fan-out starts; the answer ends it (once, whatever happens). */
  begin(): () => void {
    // A new busy spell, unless this one follows another still settling (one spell, bounded as one).
    if (this.active === 0 && !this.busy) this.busySince = Date.now();
    this.active++;
    this.wakeWhenDue();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.active > 0) return;
      this.settledAt = Date.now() + this.settleMs;
      this.wakeWhenDue();
    };
  }

  /** Whether background work should wait: a fan-out is under way or settling, and it has not waited MAX_YIELD_MS already. */
  get busy(): boolean {
    const now = Date.now();
    return (this.active > 0 || now < this.settledAt) && now - this.busySince < MAX_YIELD_MS;
  }

  /** Resolves once not busy (at once when it is not). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * The one timer, set for when the busy spell can next end: its bound while a fan-out runs, else the end of
   * the settling (or the bound, if sooner). Then whoever waits is let go, unless still busy.
   */
  private wakeWhenDue() {
    const bound = this.busySince + MAX_YIELD_MS;
    const at = this.active > 0 ? bound : Math.min(this.settledAt, bound);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), Math.max(0, at - Date.now())).unref();
  }

  private release() {
    if (this.busy) return this.wakeWhenDue();
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
