/**
 * Loads under way, one per key, shared by every reader that asks meanwhile: a hundred pages asking for
 * the same ranking start one. A load is shared while `isCurrent(key, stamp)` holds for the stamp it
 * started with (the versions it was loaded at): one that began before a change is not handed to a reader
 * who asks after it. Each load removes itself when it settles, so at most one per key is held.
 */
export class SingleFlight<K, V, S = undefined> {
  private readonly flights = new Map<K, { stamp: S; promise: Promise<V> }>();

  constructor(private readonly isCurrent: (key: K, stamp: S) => boolean = () => true) {}

  /** The load of `key` under way if still current, else `load()`, started now and shared from here on. */
  run(key: K, stamp: S, load: () => Promise<V>): Promise<V> {
    const flight = this.flights.get(key);
    if (flight && this.isCurrent(key, flight.stamp)) return flight.promise;
    const promise = load().finally(() => {
      if (this.flights.get(key)?.promise === promise) this.flights.delete(key);
    });
    this.flights.set(key, { stamp, promise });
    return promise;
  }

  /** The next reader of `key` starts a load of its own (the one under way still answers its readers). */
  forget(key: K): void {
    this.flights.delete(key);
  }

  clear(): void {
    this.flights.clear();
  }
}
