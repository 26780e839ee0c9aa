import { CappedCache } from './capped.js';
import type { MaybePromise } from './maybe-promise.js';

/** What a versioned cache needs from the instance's event hub. */
export interface VersionSource {
  /** Moves on every draft change, board change and resync this instance hears. */
  readonly version: number;
  /** Whether changes are being heard at all: if not, nothing cached can be trusted. */
  readonly isConnected: boolean;
}

/**
 * One value that changes only with the draft (its state, the board): loaded once per version, shared by
 * concurrent readers, and read from the database every time while changes cannot be heard. A current
 * value is given as it is, not as a promise (cache/maybe-promise.ts). Kept by version in a CappedCache of
 * one: the current version's value, replaced by the next version's.
 */
export class Versioned<T extends NonNullable<unknown>> {
  private readonly values = new CappedCache<number, T>(1);
  private readonly running = new CappedCache<number, Promise<T>>(1);

  constructor(
    private readonly events: VersionSource,
    private readonly load: () => Promise<T>,
  ) {}

  get(): MaybePromise<T> {
    if (!this.events.isConnected) return this.load();
    const version = this.events.version;
    const hit = this.values.get(version);
    if (hit !== undefined) return hit;
    const running = this.running.get(version);
    if (running) return running;
    const promise = this.load()
      .then((value) => {
        // Kept only if nothing changed meanwhile: a change heard during the load may not be in it (and
        // an older version's value would push out the current one's).
        if (this.events.version === version) this.values.set(version, value);
        return value;
      })
      .finally(() => {
        if (this.running.peek(version) === promise) this.running.delete(version);
      });
    this.running.set(version, promise);
    return promise;
  }
}
