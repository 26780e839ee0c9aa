import pg from 'pg';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { DRAFT_CHANNEL } from '../../server/src/events/topics.js';
import type { PushServiceStandIn, ReceivedPush } from '../../server/src/testing/push-service.js';
import { nextPickPlayer } from './bench-live.js';

/*
 * The push part of the draft bench (`--push-subscriptions N`): N devices, each a subscription at the push
 * service stand-in (server/src/testing/push-service.ts, which checks VAPID and decrypts every payload), of
 * players who all hold the player about to be picked; then the time from the pick until every device's push
 * arrived.
 */

/**
 * Gives `count` players (existing ones, first by id) `playerId` in their global entry and, unless `service` is
 * undefined (the control run: the same standings, no pushes), one subscribed device each.
 */
export async function preparePushBench(db: pg.Client, service: PushServiceStandIn | undefined, count: number, playerId: number): Promise<void> {
  const ids = (await db.query<{ id: string }>(`select id from participant order by id limit $1`, [count])).rows.map((r) => r.id);
  if (ids.length < count) throw new Error(`--push-subscriptions ${count}: only ${ids.length} players`);
  await db.query(`insert into pick (participant_id, group_id, player_id) select unnest($1::text[]), $2, $3 on conflict do nothing`, [ids, GLOBAL_GROUP_ID, playerId]);
  if (!service) return;
  const devices = ids.map(() => service.device().subscription);
  await db.query(
    `insert into push_subscription (participant_id, endpoint, p256dh, auth)
     select * from unnest($1::text[], $2::text[], $3::text[], $4::text[])`,
    [ids, devices.map((d) => d.endpoint), devices.map((d) => d.keys.p256dh), devices.map((d) => d.keys.auth)],
  );
}

export interface PushBenchResult {
  devices: number;
  /** Milliseconds from the pick (its call, or its NOTIFY heard) until the first, half and every device's push arrived. */
  first: number;
  p50: number;
  all: number;
}

/**
 * Waits until `count` pushes (those `counts` says are this pick's) arrived after `pickedAt` (a Date.now()), at
 * most `timeoutMs`.
 */
export async function measurePushBench(
  service: PushServiceStandIn,
  count: number,
  pickedAt: number,
  timeoutMs = 60_000,
  counts: (push: ReceivedPush) => boolean = () => true,
): Promise<PushBenchResult> {
  const start = Date.now();
  const ours = () => {
    service.settle();
    return service.received.filter(counts);
  };
  while (ours().length < count) {
    if (Date.now() - start > timeoutMs) throw new Error(`only ${ours().length} of ${count} pushes within ${timeoutMs} ms (refused: ${service.refused.length})`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const times = ours()
    .map((p) => p.at - pickedAt)
    .sort((a, b) => a - b);
  return { devices: count, first: times[0]!, p50: times[Math.floor(times.length / 2)]!, all: times.at(-1)! };
}

/** The first live pick's player (the load generator records it first). */
async function firstLivePick(db: pg.Client) {
  const player = await nextPickPlayer(db);
  if (!player) throw new Error('--push-subscriptions: no player left on the board');
  return player;
}

/**
 * `--push-control`: the standings of a `--push-subscriptions N` run (the same N players hold the first live
 * pick's player) with no device subscribed. A push run's pages differ from a plain run's in what they show
 * (those N readers' own rows move at every pick they hold), so the pushes' effect on the pages is measured
 * against this run, not against a plain one.
 */
export async function preparePushControl(db: pg.Client, count: number) {
  const player = await firstLivePick(db);
  await preparePushBench(db, undefined, count, player.id);
  return player;
}

/**
 * The bench's push part around a server in another process (`npm run bench:draft -- --push-subscriptions N`):
 * the next pick's player (the best-ranked still on the board: the one the load generator records first)
 * goes into N players' entries, each with a device at the stand-in; the pick's time is when this process
 * hears the draft's NOTIFY for it (moments after its commit, as the server's sender hears it). `result()`
 * waits for that pick's N pushes ('✓ <player>') and times them from then.
 */
export async function startPushBench(db: pg.Client, databaseUrl: string, service: PushServiceStandIn, count: number) {
  const player = await firstLivePick(db);
  await preparePushBench(db, service, count, player.id);
  // The picks recorded before the server started are history here: claimed, so its sender does not catch up
  // on them at start (it would, after a real restart) and load the machine while the pages connect.
  await db.query(`insert into push_fanout (event_id) select id from draft_event on conflict do nothing`);
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  let pickedAt: number | undefined;
  listener.on('notification', (message) => {
    const change = JSON.parse(message.payload ?? '{}') as { kind?: string; player?: { id?: number } };
    if (pickedAt === undefined && change.kind === 'pick' && change.player?.id === player.id) pickedAt = Date.now();
  });
  await listener.query(`listen ${DRAFT_CHANNEL}`);
  return {
    player,
    async result(timeoutMs = 120_000): Promise<PushBenchResult> {
      try {
        const start = Date.now();
        while (pickedAt === undefined) {
          if (Date.now() - start > timeoutMs) throw new Error(`--push-subscriptions: the pick of ${player.player_name} was not heard`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const title = `✓ ${player.player_name} — `;
        return await measurePushBench(service, count, pickedAt, timeoutMs, (p) => String((p.payload as { title?: unknown }).title).startsWith(title));
      } finally {
        await listener.end().catch(() => {});
      }
    },
  };
}
