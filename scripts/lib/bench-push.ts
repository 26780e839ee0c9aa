import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { sql } from '../../server/src/db/sql.js';
import type { PushServiceStandIn } from '../../server/src/testing/push-service.js';

/*
 * The push part of the draft bench (`--push-subscriptions N`): N devices, each a subscription at the push
 * service stand-in (server/src/testing/push-service.ts, which checks VAPID and decrypts every payload), of
 * players who all hold the player about to be picked; then the time from the pick until every device's push
 * arrived.
 */

/** Gives `count` players (existing ones, first by id) `playerId` in their global entry and one subscribed device each. */
export async function preparePushBench(em: EntityManager, service: PushServiceStandIn, count: number, playerId: number): Promise<void> {
  const ids = (await sql<{ id: string }>(em, `select id from participant order by id limit $1`, [count])).map((r) => r.id);
  if (ids.length < count) throw new Error(`--push-subscriptions ${count}: only ${ids.length} players`);
  await sql(em, `insert into pick (participant_id, group_id, player_id) select unnest($1::text[]), $2, $3 on conflict do nothing`, [ids, GLOBAL_GROUP_ID, playerId]);
  const devices = ids.map(() => service.device().subscription);
  await sql(
    em,
    `insert into push_subscription (participant_id, endpoint, p256dh, auth)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
    [ids, devices.map((d) => d.endpoint), devices.map((d) => d.keys.p256dh), devices.map((d) => d.keys.auth)],
  );
}

export interface PushBenchResult {
  devices: number;
  /** Milliseconds from the pick's call until the first, half and every device's push arrived. */
  first: number;
  p50: number;
  all: number;
}

/** Waits until `count` pushes arrived after `pickedAt` (a Date.now()), at most `timeoutMs`. */
export async function measurePushBench(service: PushServiceStandIn, count: number, pickedAt: number, timeoutMs = 60_000): Promise<PushBenchResult> {
  const start = Date.now();
  while (service.received.length < count) {
    if (Date.now() - start > timeoutMs) throw new Error(`only ${service.received.length} of ${count} pushes within ${timeoutMs} ms (refused: ${service.refused.length})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const times = service.received.map((p) => p.at - pickedAt).sort((a, b) => a - b);
  return { devices: count, first: times[0]!, p50: times[Math.floor(times.length / 2)]!, all: times.at(-1)! };
}
