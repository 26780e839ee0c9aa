import type { EntityManager } from '@mikro-orm/postgresql';
import { tracked, type TrackedEnvelope } from '@trpc/server';
import type { DraftChange, DraftChangesInput, LiveMessage, StandingsUpdate } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { mayReadStandings, standingsUpdateJson } from '../leaderboard/leaderboard.service.js';
import { draftChangesAfter } from './draft.repository.js';

/** Changes logged after `afterId`, rebuilt from the audit log (for a client that reconnects). */
export async function changesSince(em: EntityManager, afterId: number): Promise<DraftChange[]> {
  return draftChangesAfter(em, afterId, 500);
}

/** What a stream needs besides the hub: the standings for a page that watches them. */
export type StreamDeps = Pick<AppDeps, 'events' | 'draftStatus' | 'leaderboards' | 'benchmarks'>;

/**
 * The live stream of draft changes for one subscriber. Listens first, then replays what the client
 * missed since `lastEventId` (tRPC's SSE link sends it on reconnect), then forwards live changes; each
 * event carries its audit-log id, so nothing is delivered twice and a dropped connection catches up.
 * When the input names a standings page, that page follows each change (and a catch-up) once ranked,
 * while the caller may read it. (HTTP clients are served by the fan-out in draft.sse.ts, same rules.)
 */
export async function* draftChangeStream(
  deps: StreamDeps,
  em: EntityManager,
  participantId: string,
  input: DraftChangesInput,
  signal: AbortSignal | undefined,
  release: () => void = () => {},
): AsyncGenerator<TrackedEnvelope<LiveMessage>> {
  const done = new AbortController();
  const live = deps.events.changes(signal ? AbortSignal.any([signal, done.signal]) : done.signal);
  const watch = input?.standings;
  /** The watched page as of `eventId`, unless a newer change already moved the draft on. */
  const standings = async (eventId: number) => {
    if (!watch || !(await mayReadStandings(em, watch.group_id, participantId))) return undefined;
    const update = JSON.parse(await standingsUpdateJson(deps, watch, participantId, eventId)) as StandingsUpdate;
    return deps.events.lastHeardEventId > eventId ? undefined : tracked(String(eventId), update);
  };
  try {
    let lastSent = Number(input?.lastEventId ?? 0);
    if (lastSent > 0) {
      const missed = await changesSince(em, lastSent);
      for (const change of missed) {
        lastSent = change.event_id;
        yield tracked(String(change.event_id), change);
      }
      const caughtUp = missed.length > 0 ? await standings(lastSent) : undefined;
      if (caughtUp) yield caughtUp;
    }
    for await (const change of live) {
      if (change.event_id <= lastSent) continue;
      lastSent = change.event_id;
      yield tracked(String(change.event_id), change);
      const update = await standings(change.event_id);
      if (update) yield update;
    }
  } finally {
    // The stream ended (the client left, or the hub closed): stop listening and give its place back.
    done.abort();
    release();
  }
}
