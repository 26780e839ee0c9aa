import type { Invalidation } from '../../cache/invalidation.js';
import type { ParticipantRow } from './participants.service.js';

/** What the cache needs from the instance's event hub. */
export interface CacheEvents {
  readonly isConnected: boolean;
  onInvalidate(listener: (message: Invalidation) => void): () => void;
  onResync(listener: () => void): () => void;
}

/**
 * Participant rows of signed-in callers, so an authenticated request does not read its own row every
 * time. A row changes only through participants.service, which announces it on the invalidation channel;
 * rows are served from memory only while that channel is heard (else a rename on another instance could
 * be missed), and dropped whole on a resync.
 *
 * `refreshed` remembers whose row this process has already brought up to date with the identity
 * provider (e-mail, first username): that is done once per process, not per request, channel or not.
 */
export class ParticipantCache {
  private readonly rows = new Map<string, ParticipantRow>();
  private readonly refreshed = new Set<string>();
  private static readonly MAX_ROWS = 200_000;

  constructor(private readonly events: CacheEvents) {
    events.onInvalidate((message) => {
      if (message.kind === 'participant') this.rows.delete(message.participant_id);
    });
    events.onResync(() => this.rows.clear());
  }

  get(participantId: string): ParticipantRow | undefined {
    return this.events.isConnected ? this.rows.get(participantId) : undefined;
  }

  wasRefreshed(participantId: string): boolean {
    return this.refreshed.has(participantId);
  }

  remember(row: ParticipantRow) {
    this.refreshed.add(row.id);
    if (!this.events.isConnected) return;
    if (this.rows.size >= ParticipantCache.MAX_ROWS) this.rows.delete(this.rows.keys().next().value!);
    this.rows.set(row.id, row);
  }
}
