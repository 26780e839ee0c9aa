import type { Topic } from '../events/topics.js';
import type { MaybePromise } from './maybe-promise.js';
import { SingleFlight } from './single-flight.js';

/** What a versioned cache needs from the instance's topic bus. */
export interface VersionSource {
  /** Moves on every change of these topics this instance hears (and on a resync). */
  versionOf(topics: readonly Topic[]): number;
  /** Whether changes are being heard at all: if not, nothing cached can be trusted. */
  readonly isConnected: boolean;
}

/**
 * One value made from a few topics (the draft's state, the board): loaded once per version of those
 * topics, shared by concurrent readers, and read from the database every time while changes cannot be
 * heard. A current value is given as it is, not as a promise (cache/maybe-promise.ts).
 */
export class Versioned<T extends NonNullable<unknown>> {
  private value: { version: number; value: T } | undefined;
  private readonly loads = new SingleFlight<'value', T, number>((_, version) => version === this.version());

  constructor(
    private readonly events: VersionSource,
    private readonly topics: readonly Topic[],
    private readonly load: () => Promise<T>,
  ) {}

  get(): MaybePromise<T> {
    if (!this.events.isConnected) return this.load();
    const version = this.version();
    if (this.value?.version === version) return this.value.value;
    return this.loads.run('value', version, async () => {
      const value = await this.load();
      // Kept only if nothing changed meanwhile: a change heard during the load may not be in it.
      if (this.version() === version) this.value = { version, value };
      return value;
    });
  }

  private version() {
    return this.events.versionOf(this.topics);
  }
}
