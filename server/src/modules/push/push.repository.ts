import type { EntityManager } from '@mikro-orm/postgresql';
import type { PushPayload, PushPreferences } from '@first-round/shared/schemas';
import { sql, sqlOne } from '../../db/sql.js';

/** One device's subscription as web-push sends to it. */
export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  delaySeconds: number;
}

/**
 * Stores the device's subscription for the player, inside `tx`: a new row, or the player's own row at that
 * endpoint updated (new keys and delay, subscribed again now). Answers false, writing nothing, when the
 * endpoint is another player's (the unique constraint decides a race for a new one). Then the player keeps
 * their `keep` most recently subscribed devices; the others go, their waiting pushes with them. A lock per
 * player (taken first) keeps two subscribes of one player from each trimming without seeing the other's row.
 */
export async function saveSubscription(
  tx: EntityManager,
  participantId: string,
  sub: { endpoint: string; p256dh: string; auth: string; delaySeconds: number },
  keep: number,
): Promise<boolean> {
  await sql(tx, `select pg_advisory_xact_lock(hashtext('first-round:push-devices'), hashtext($1))`, [participantId]);
  const saved = await sql(
    tx,
    `insert into push_subscription (participant_id, endpoint, p256dh, auth, delay_seconds) values ($1, $2, $3, $4, $5)
     on conflict on constraint push_subscription_endpoint_unique
     do update set p256dh = excluded.p256dh, auth = excluded.auth, delay_seconds = excluded.delay_seconds, subscribed_at = now()
     where push_subscription.participant_id = excluded.participant_id
     returning id`,
    [participantId, sub.endpoint, sub.p256dh, sub.auth, sub.delaySeconds],
  );
  if (saved.length === 0) return false;
  await sql(
    tx,
    `delete from push_subscription where participant_id = $1
        and id not in (select id from push_subscription where participant_id = $1 order by subscribed_at desc, id desc limit $2)`,
    [participantId, keep],
  );
  return true;
}

/** Removes the player's subscription at `endpoint`: true when there was one (another player's is never touched). */
export async function removeOwnSubscription(em: EntityManager, participantId: string, endpoint: string): Promise<boolean> {
  const rows = await sql(em, `delete from push_subscription where participant_id = $1 and endpoint = $2 returning id`, [participantId, endpoint]);
  return rows.length > 0;
}

/** Sets the delay of the player's subscription at `endpoint`: true when there was one. */
export async function setOwnDelay(em: EntityManager, participantId: string, endpoint: string, delaySeconds: number): Promise<boolean> {
  const rows = await sql(em, `update push_subscription set delay_seconds = $3 where participant_id = $1 and endpoint = $2 returning id`, [
    participantId,
    endpoint,
    delaySeconds,
  ]);
  return rows.length > 0;
}

export function ownSubscription(em: EntityManager, participantId: string, endpoint: string) {
  return sqlOne<{ delaySeconds: number }>(em, `select delay_seconds as "delaySeconds" from push_subscription where participant_id = $1 and endpoint = $2`, [
    participantId,
    endpoint,
  ]);
}

/** The push service said the device is gone (404/410): whoever's it was. */
export async function removeGoneSubscription(em: EntityManager, endpoint: string): Promise<void> {
  await sql(em, `delete from push_subscription where endpoint = $1`, [endpoint]);
}

/** The player's push settings: every kind on when they never changed one (no row). */
export async function readPreferences(em: EntityManager, participantId: string): Promise<PushPreferences> {
  const row = await sqlOne<PushPreferences>(em, `select busted, final, reminder from push_preference where participant_id = $1`, [participantId]);
  return row ?? { busted: true, final: true, reminder: true };
}

export async function savePreferences(em: EntityManager, participantId: string, prefs: PushPreferences): Promise<PushPreferences> {
  const [row] = await sql<PushPreferences>(
    em,
    `insert into push_preference (participant_id, busted, final, reminder) values ($1, $2, $3, $4)
     on conflict (participant_id) do update set busted = excluded.busted, final = excluded.final, reminder = excluded.reminder, updated_at = now()
     returning busted, final, reminder`,
    [participantId, prefs.busted, prefs.final, prefs.reminder],
  );
  return row!;
}

// ---------------------------------------------------------------- what a change tells (push.fanout.ts)

/** Every subscribed device, with its player and their settings: the ones a draft change may tell something. */
export function subscribedDevices(em: EntityManager) {
  return sql<DeviceSubscription & { participantId: string; busted: boolean; final: boolean }>(
    em,
    `select s.participant_id as "participantId", s.endpoint, s.p256dh, s.auth, s.delay_seconds as "delaySeconds",
            coalesce(p.busted, true) as busted, coalesce(p.final, true) as final
       from push_subscription s left join push_preference p on p.participant_id = s.participant_id`,
  );
}

/** Whether `playerId` is still the pick at `slot` (an undone pick tells nobody anything). */
export async function pickStands(em: EntityManager, playerId: number, slot: number): Promise<boolean> {
  return (await sqlOne(em, `select 1 from player where id = $1 and draft_round = 1 and draft_pick = $2`, [playerId, slot])) !== undefined;
}

/** Every membership of a subscribed player, with the group's name and whether the entry there is linked to My Picks. */
export function subscriberMemberships(em: EntityManager) {
  return sql<{ participantId: string; groupId: number; groupName: string; useGlobalPicks: boolean }>(
    em,
    `select m.participant_id as "participantId", m.group_id as "groupId", g.name as "groupName", m.use_global_picks as "useGlobalPicks"
       from group_membership m join groups g on g.id = m.group_id
      where m.participant_id in (select participant_id from push_subscription)`,
  );
}

/** The board's names, by player id. */
export async function playerNames(em: EntityManager): Promise<Map<number, string>> {
  return new Map((await sql<{ id: number; name: string }>(em, `select id, player_name as name from player`)).map((r) => [r.id, r.name]));
}

// ---------------------------------------------------------------- the durable queue (push.sender.ts)

/** A push waiting to go out, with its device's keys. */
export interface DeliveryRow {
  id: number;
  eventId: number | null;
  device: DeviceSubscription;
  payload: PushPayload;
  dueAt: number;
  attempt: number;
}

const DELIVERY_COLUMNS = `d.id::int as id, d.event_id::int as "eventId", d.payload, d.attempt,
  (extract(epoch from d.due_at) * 1000)::float8 as "dueAt",
  json_build_object('endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth, 'delaySeconds', s.delay_seconds) as device`;

/** Claims draft change `eventId` for fanning out: false when some sender already did (its pushes are written). */
export async function claimFanout(tx: EntityManager, eventId: number): Promise<boolean> {
  return (await sql(tx, `insert into push_fanout (event_id) values ($1) on conflict do nothing returning event_id`, [eventId])).length > 0;
}

/** Writes pushes to send (`dueAt` a Date.now() value) and answers them as the sender queues them. */
export async function insertDeliveries(tx: EntityManager, eventId: number | null, pushes: readonly { endpoint: string; payload: PushPayload; dueAt: number }[]): Promise<DeliveryRow[]> {
  if (pushes.length === 0) return [];
  return sql<DeliveryRow>(
    tx,
    `with d as (
       insert into push_delivery (endpoint, event_id, payload, due_at)
       select e, $1, p, to_timestamp(t / 1000.0) from unnest($2::text[], $3::jsonb[], $4::float8[]) as u(e, p, t)
       returning *
     )
     select ${DELIVERY_COLUMNS} from d join push_subscription s on s.endpoint = d.endpoint`,
    [eventId, pushes.map((p) => p.endpoint), pushes.map((p) => JSON.stringify(p.payload)), pushes.map((p) => p.dueAt)],
  );
}

/** Writes one push, due now, to each of the player's devices (the reminder); answers how many. */
export async function insertPlayerDeliveries(tx: EntityManager, participantId: string, payload: PushPayload): Promise<number> {
  const rows = await sql(
    tx,
    `insert into push_delivery (endpoint, payload, due_at) select endpoint, $2::jsonb, now() from push_subscription where participant_id = $1 returning id`,
    [participantId, JSON.stringify(payload)],
  );
  return rows.length;
}

/** Every push waiting: what a sender taking over starts from. */
export function pendingDeliveries(em: EntityManager): Promise<DeliveryRow[]> {
  return sql<DeliveryRow>(em, `select ${DELIVERY_COLUMNS} from push_delivery d join push_subscription s on s.endpoint = d.endpoint order by d.due_at, d.id`);
}

/** Pushes done with (taken by the push service, its device gone, or given up on). */
export async function deleteDeliveries(em: EntityManager, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await sql(em, `delete from push_delivery where id = any($1::bigint[])`, [ids]);
}

/** A push to try again later: a sender taking over goes on with the same backoff. */
export async function retryDelivery(em: EntityManager, id: number, attempt: number, dueAt: number): Promise<void> {
  await sql(em, `update push_delivery set attempt = $2, due_at = to_timestamp($3 / 1000.0) where id = $1`, [id, attempt, dueAt]);
}

/**
 * Drops the waiting pushes an undo or a reset took back: of the pick at `slot` before change `eventId` (an
 * undo), or of every change before it (slot null: a reset). Answers their ids.
 */
export async function dropDeliveriesOf(em: EntityManager, eventId: number, slot: number | null): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    em,
    slot === null
      ? `delete from push_delivery where event_id < $1 returning id::int as id`
      : `delete from push_delivery where event_id = (select max(id) from draft_event where kind = 'pick' and slot = $2 and id < $1) returning id::int as id`,
    slot === null ? [eventId] : [eventId, slot],
  );
  return rows.map((r) => r.id);
}

/** Recent picks and round-one completions no sender fanned out (it stopped first): a new sender does. */
export async function unclaimedRecentChanges(em: EntityManager, withinSeconds: number): Promise<number[]> {
  const rows = await sql<{ id: number }>(
    em,
    `select e.id::int as id from draft_event e
      where e.kind in ('pick', 'complete_round') and e.created_at > now() - make_interval(secs => $1)
        and not exists (select 1 from push_fanout f where f.event_id = e.id)
      order by e.id`,
    [withinSeconds],
  );
  return rows.map((r) => r.id);
}
