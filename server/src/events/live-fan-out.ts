/** How long background work yields to a fan-out at most: it goes on after this even if fan-outs keep coming. */
export const MAX_YIELD_MS = 3000;

/**
 * Whether a live fan-out (a change re-ranked and written to every open page) is under way on this instance,
 * so that work nobody is looking at as it happens (the push notifications) waits for it instead of sharing
 * the event loop with it. At a pick with 5,000 subscribed devices, encrypting and posting their pushes beside the pages'
 * fan-out made that pick's pages twice as slow (docs/benchmarks.md, "Push notifications at a pick"). The
 * yield is bounded (MAX_YIELD_MS from the start of a busy spell), so pushes are never starved.
 */
export class LiveFanOut {
  private active = 0;
  private busySince = 0;
  private waiting: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  /** A fan-out starts; the answer ends it (once, whatever happens). */
  begin(): () => void {
    if (this.active++ === 0) {
      this.busySince = Date.now();
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.release(), MAX_YIELD_MS).unref();
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.active === 0) this.release();
    };
  }

  /** Whether background work should wait: a fan-out is under way, and it has not waited MAX_YIELD_MS already. */
  get busy(): boolean {
    return this.active > 0 && Date.now() - this.busySince < MAX_YIELD_MS;
  }

  /** Resolves once not busy (at once when it is not). */
  idle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
