import type { DraftChangesInput, LeaderboardInput } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { tooManyRequests } from '../../errors.js';
import { after } from '../../cache/maybe-promise.js';
import { LiveHub, type Channel, type LiveSubscription, type SharedPage } from '../../live/hub.js';
import { mayReadStandings, ownStandingJson, standingsMineJson, standingsPageJson, standingsView, type StandingsView } from './leaderboard.service.js';

/** At most this many live streams per player on one instance: several tabs and devices, with room for reconnects. */
export const MAX_STREAMS_PER_USER = 20;

/** Watched pages whose newest page is kept for the streams that open next (a page's key: group, size, filter). */
const MAX_KEPT_PAGES = 1_000;

export type LiveDeps = Pick<AppDeps, 'events' | 'orm' | 'log' | 'draftStatus' | 'leaderboards' | 'benchmarks' | 'liveFanOut'>;

/** A watched page's `standings_page` message as of one change, and the view it was made from (the readers' own parts come from it). */
interface PlayersPage extends SharedPage {
  view: StandingsView;
}

/** Whether two views of a page are made of the very same cached pieces (so their pages are the same bytes). */
function sameView(a: StandingsView, b: StandingsView): boolean {
  if (!a.started || !b.started) return a.started === b.started;
  return a.standings === b.standings && a.rows === b.rows && a.page === b.page && a.benchmarks === b.benchmarks;
}

/**
 * The players' channel: a signed-in player holds one of their MAX_STREAMS_PER_USER places per stream; a
 * stream that names the standings page on its screen gets that page (`standings_page`, shared by its
 * watchers) after every change and when it opens, with the reader's own row and place (`standings_me`)
 * before it whenever they changed (the client keeps the last one: shared/src/live-standings.ts): together
 * the answer leaderboard.group gives. A group's standings go only to its members.
 */
function playersChannel(deps: LiveDeps): Channel<LeaderboardInput, PlayersPage> {
  /**
   * Each watched page's newest page: the streams opening between two changes share its frame when it is
   * of the same change and made from the same cached pieces (no 18 KB of JSON put together for each).
   */
  const kept = new Map<string, PlayersPage>();
  const pageOf = (watch: LeaderboardInput, view: StandingsView, eventId: number): PlayersPage => {
    const key = JSON.stringify(watch);
    const last = kept.get(key);
    if (last && last.eventId === eventId && sameView(last.view, view)) return last;
    if (kept.size >= MAX_KEPT_PAGES) kept.clear();
    const page = { eventId, json: standingsPageJson(view, watch, eventId), view };
    kept.set(key, page);
    return page;
  };
  return {
    name: 'live',
    places: {
      perKey: MAX_STREAMS_PER_USER,
      fullForKey: (limit) => tooManyRequests(`Too many live connections for this account (${limit}). Close some tabs and try again.`),
    },
    openingPage: true,
    keyOf: (watch) => JSON.stringify(watch),
    membership: { mayRead: (em, watch, participantId) => mayReadStandings(em, watch.group_id, participantId), groupOf: (watch) => watch.group_id },
    rank: (watches) => Promise.all([...new Set(watches.map((w) => w.group_id))].map((groupId) => deps.leaderboards.get(groupId))),
    page: (watch, eventId) => after(standingsView(deps, watch), (view) => pageOf(watch, view, eventId)),
    own: (page, participantId) => ownStandingJson(page.view, participantId),
    ownMessage: (watch, eventId, own) => standingsMineJson(watch.group_id, eventId, own),
  };
}

/** `draft.changes`, every open page's live stream (the players' channel of the live hub, live/hub.ts). */
export class LiveStream extends LiveHub<LeaderboardInput, PlayersPage> {
  constructor(deps: LiveDeps, pingMs: number) {
    super(deps, pingMs, playersChannel(deps));
  }

  /** A stream for the player, watching the page the input names (if any), resuming after its last event id. */
  subscribe(participantId: string, input: DraftChangesInput, signal?: AbortSignal): LiveSubscription {
    return this.subscribeAs({ reader: participantId, watch: input?.standings, lastEventId: input?.lastEventId }, signal);
  }
}
