import { MAX_PUBLIC_STREAMS, MAX_PUBLIC_STREAMS_PER_IP } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { PublicChangesInput } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { notFound, tooManyRequests } from '../../errors.js';
import { after } from '../../cache/maybe-promise.js';
import { jsonText } from '../../responses/json-body.js';
import { LiveHub, type Channel, type LiveSubscription } from '../../live/hub.js';
import { publicStandingsUpdate } from './leaderboard.service.js';

export type PublicLiveDeps = Pick<AppDeps, 'events' | 'orm' | 'log' | 'draftStatus' | 'leaderboards' | 'benchmarks' | 'config' | 'liveFanOut'>;

export interface PublicStreamLimits {
  perIp: number;
  total: number;
}

/** What every spectator watches: the one public page. */
const TOP_100 = 'top100';

/**
 * The spectators' channel (/live, no sign-in): every draft change (all of them public: the picks recorded,
 * the start, an undo, a team; no actor, no entry) and after each the public top 100 re-ranked,
 * `leaderboard.public`'s answer as a `standings` message: one page for every spectator. Bounded for callers
 * nobody can name: `limits.perIp` streams per address and `limits.total` per instance (429 past either). No
 * page when a stream opens: a spectator's first page comes with the next change, or after its replay.
 */
function spectatorsChannel(deps: PublicLiveDeps, limits: PublicStreamLimits): Channel<typeof TOP_100> {
  return {
    name: 'public live',
    places: {
      perKey: limits.perIp,
      total: limits.total,
      fullForKey: (limit) => tooManyRequests(MESSAGES.publicStreamsPerIp(limit)),
      fullForAll: (limit) => tooManyRequests(MESSAGES.publicStreamsFull(limit)),
    },
    openingPage: false,
    keyOf: () => TOP_100,
    // The page ranks what it reads itself.
    rank: () => Promise.resolve(),
    page: (_watch, eventId) => after(publicStandingsUpdate(deps, eventId), (update) => ({ eventId, json: jsonText(update) })),
  };
}

/** `draft.publicChanges`, the spectators' live stream (the spectators' channel of the live hub, live/hub.ts). Off with PUBLIC_STANDINGS=false: 404, as leaderboard.public. */
export class PublicLiveStream extends LiveHub<typeof TOP_100> {
  private readonly publicStandings: boolean;

  constructor(
    deps: PublicLiveDeps,
    pingMs: number,
    limits: PublicStreamLimits = { perIp: MAX_PUBLIC_STREAMS_PER_IP, total: MAX_PUBLIC_STREAMS },
  ) {
    super(deps, pingMs, spectatorsChannel(deps, limits));
    this.publicStandings = deps.config.PUBLIC_STANDINGS;
  }

  /** A stream for a spectator at `ip`, holding one of the address's places and one of the instance's. */
  subscribe(ip: string, input: PublicChangesInput, signal?: AbortSignal): LiveSubscription {
    if (!this.publicStandings) throw notFound(MESSAGES.publicStandingsOff);
    return this.subscribeAs({ reader: ip, watch: TOP_100, lastEventId: input?.lastEventId }, signal);
  }
}
