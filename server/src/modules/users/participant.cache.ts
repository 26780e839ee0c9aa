import { CappedCache } from '../../cache/capped.js';
import type { Invalidation } from '../../events/topics.js';
import type { ParticipantRow } from './participants.service.js';

/** What the cache needs from the instance's event hub. */
export interface CacheEvents {
  readonly isConnected: boolean;
  onInvalidate(listener: (message: Invalidation) => void): () => void;
  onResync(listener: () => void): () => void;
}

/**
 * Rows kept, least recently used evicted first: the callers signed in lately, many times those active at
 * once on draft night (a row is a few hundred bytes). An evicted caller's row is read again.
 */
export const MAX_PARTICIPANT_ROWS = 200_000;

/**
 * Participant rows of signed-in callers, so an authenticated request does not read its own row every
 * time. A row changes only through the users module and the account service, which publish `participant`;
 * rows are served from memory only while that channel is heard (else a rename on another instance could
 * be missed), and dropped whole on a resync. A row read before a change to it was applied is not kept
 * (the read takes a `mark()` first): a rename committing while a caller's row is being read would
 * otherwise be undone in memory by that read.
 *
 * `refreshed` remembers whose row this process has already brought up to date with the identity
 * provider (e-mail, first username): that is done once per process, not per request, channel or not; a
 * caller evicted from it is brought up to date once more.
 */
export class ParticipantCache {
  private readonly rows = new CappedCache<string, ParticipantRow>(MAX_PARTICIPANT_ROWS);
  private readonly refreshed = new CappedCache<string, true>(MAX_PARTICIPANT_ROWS);

  constructor(private readonly events: CacheEvents) {
    events.onInvalidate((message) => {
      if (message.kind === 'participant') this.forgetParticipant(message.participant_id);
    });
    events.onResync(() => this.rows.clear());
  }

  get(participantId: string): ParticipantRow | undefined {
    return this.events.isConnected ? this.rows.get(participantId) : undefined;
  }

  wasRefreshed(participantId: string): boolean {
    return this.refreshed.get(participantId) !== undefined;
  }

  /** To take before reading a row that will be remembered. */
  mark(): number {
    return this.rows.mark();
  }

  /** Keeps `row`, unless it changed (was announced) since `mark` was taken: then what was read may be old. */
  remember(row: ParticipantRow, mark: number) {
    this.refreshed.set(row.id, true);
    if (!this.events.isConnected) return;
    this.rows.set(row.id, row, mark);
  }

  /** The participant's row changed (here or on another instance): it is read again, and a read in progress not kept. */
  forgetParticipant(participantId: string) {
    this.rows.invalidate(participantId);
  }
}
