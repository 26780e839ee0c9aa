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
 * value is given as it is, not as a promise (cache/maybe-promise.ts).
 */
export class Versioned<T> {
  private hit: { version: number; value: T } | undefined;
  private running: { version: number; promise: Promise<T> } | undefined;

  constructor(
    private readonly events: VersionSource,
    private readonly load: () => Promise<T>,
  ) {}

  get(): MaybePromise<T> {
    if (!this.events.isConnected) return this.load();
    const version = this.events.version;
    if (this.hit?.version === version) return this.hit.value;
    if (this.running?.version === version) return this.running.promise;
    const promise = this.load()
      .then((value) => {
        // Kept only if nothing changed meanwhile: a change heard during the load may not be in it.
        if (this.events.version === version) this.hit = { version, value };
        return value;
      })
      .finally(() => {
        if (this.running?.promise === promise) this.running = undefined;
      });
    this.running = { version, promise };
    return promise;
  }
}
