import type { EntityManager } from '@mikro-orm/postgresql';
import { tracked } from '@trpc/server';
import type { DraftChange } from '@first-round/shared/schemas';
import { sql } from '../../db/sql.js';
import type { DraftEventHub } from './draft.events.js';

/** Changes logged after `afterId`, rebuilt from the audit log (for a client that reconnects). */
export async function changesSince(em: EntityManager, afterId: number): Promise<DraftChange[]> {
  const rows = await sql<{
    id: string;
    kind: DraftChange['kind'];
    slot: number | null;
    created_at: string | Date;
    player_id: number | null;
    rank: number | null;
    player_name: string | null;
    position: string | null;
    school: string | null;
    draft_round: number | null;
    draft_pick: number | null;
  }>(
    em,
    `select e.id, e.kind, e.slot, e.created_at, p.id as player_id, p.rank, p.player_name, p.position, p.school, p.draft_round, p.draft_pick
       from draft_event e left join player p on p.id = e.player_id
      where e.id > $1 order by e.id limit 500`,
    [afterId],
  );
  return rows.map((r) => ({
    event_id: Number(r.id),
    kind: r.kind,
    slot: r.slot ?? undefined,
    at: new Date(r.created_at).toISOString(),
    player:
      r.player_id === null
        ? undefined
        : { id: r.player_id, rank: r.rank!, player_name: r.player_name!, position: r.position!, school: r.school!, draft_round: r.draft_round, draft_pick: r.draft_pick },
  }));
}

/**
 * The live stream of draft changes for one subscriber. Listens first, then replays what the client
 * missed since `lastEventId` (tRPC's SSE link sends it on reconnect), then forwards live changes; each
 * event carries its audit-log id, so nothing is delivered twice and a dropped connection catches up.
 */
export async function* draftChangeStream(
  hub: DraftEventHub,
  em: EntityManager,
  lastEventId: string | null | undefined,
  signal: AbortSignal | undefined,
  release: () => void = () => {},
) {
  const queue: DraftChange[] = [];
  let wake: (() => void) | undefined;
  const off = hub.onChange((change) => {
    queue.push(change);
    wake?.();
  });
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort);
  const offClose = hub.onClose(onAbort);
  try {
    let lastSent = lastEventId && /^\d+$/.test(lastEventId) ? Number(lastEventId) : 0;
    if (lastSent > 0) {
      for (const change of await changesSince(em, lastSent)) {
        lastSent = change.event_id;
        yield tracked(String(change.event_id), change);
      }
    }
    while (!signal?.aborted && !hub.streamsClosed) {
      const change = queue.shift();
      if (change) {
        if (change.event_id <= lastSent) continue;
        lastSent = change.event_id;
        yield tracked(String(change.event_id), change);
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    // The stream ended on its own (or the hub closed): give its place back.
    release();
    off();
    offClose();
    signal?.removeEventListener('abort', onAbort);
  }
}
