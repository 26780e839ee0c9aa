import type { EntityManager } from '@mikro-orm/postgresql';
import type { PushPayload, PushPreferences } from '@first-round/shared/schemas';
import { raw } from '@mikro-orm/core';
import { sql } from '../../db/sql.js';
import { DraftEventSchema } from '../draft/draft.entities.js';
import { GroupMembershipSchema } from '../groups/groups.entities.js';
import { isRoundOnePick, listBoard } from '../players/players.repository.js';
import { PushDeliverySchema, PushFanoutSchema, PushPreferenceSchema, PushSubscriptionSchema } from './push.entities.js';

/*
 * The push module's data access. Writes are native (nativeUpdate, the query builder), which the identity
 * map does not see, so entity reads pass `refresh: true`.
 */

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
  // Raw: an advisory lock, which the ORM has no words for.
  await sql(tx, `select pg_advisory_xact_lock(hashtext('first-round:push-devices'), hashtext($1))`, [participantId]);
  const saved: unknown[] = await tx
    .createQueryBuilder(PushSubscriptionSchema)
    .insert({ participantId, endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, delaySeconds: sub.delaySeconds })
    .onConflict('endpoint')
    .merge({ p256dh: sub.p256dh, auth: sub.auth, delaySeconds: sub.delaySeconds, subscribedAt: raw('now()') })
    .where({ participantId })
    .returning('id')
    .execute('all');
  if (saved.length === 0) return false;
  const older = await tx.find(PushSubscriptionSchema, { participantId }, { fields: ['id'], orderBy: { subscribedAt: 'desc', id: 'desc' }, offset: keep, refresh: true });
  if (older.length > 0) await tx.nativeDelete(PushSubscriptionSchema, { id: { $in: older.map((s) => s.id) } });
  return true;
}

/** Removes the player's subscription at `endpoint`: true when there was one (another player's is never touched). */
export async function removeOwnSubscription(em: EntityManager, participantId: string, endpoint: string): Promise<boolean> {
  return (await em.nativeDelete(PushSubscriptionSchema, { participantId, endpoint })) > 0;
}

/** Sets the delay of the player's subscription at `endpoint`: true when there was one. */
export async function setOwnDelay(em: EntityManager, participantId: string, endpoint: string, delaySeconds: number): Promise<boolean> {
  return (await em.nativeUpdate(PushSubscriptionSchema, { participantId, endpoint }, { delaySeconds })) > 0;
}

export async function ownSubscription(em: EntityManager, participantId: string, endpoint: string): Promise<{ delaySeconds: number } | undefined> {
  const row = await em.findOne(PushSubscriptionSchema, { participantId, endpoint }, { fields: ['delaySeconds'], refresh: true });
  return row ? { delaySeconds: row.delaySeconds } : undefined;
}

/** The push service said the device is gone (404/410): whoever's it was. */
export async function removeGoneSubscription(em: EntityManager, endpoint: string): Promise<void> {
  await em.nativeDelete(PushSubscriptionSchema, { endpoint });
}

/** The player's push settings: every kind on when they never changed one (no row). */
export async function readPreferences(em: EntityManager, participantId: string): Promise<PushPreferences> {
  const row = await em.findOne(PushPreferenceSchema, { participantId }, { refresh: true });
  return row ? { busted: row.busted, final: row.final, reminder: row.reminder } : { busted: true, final: true, reminder: true };
}

export async function savePreferences(em: EntityManager, participantId: string, prefs: PushPreferences): Promise<PushPreferences> {
  const settings = { busted: prefs.busted, final: prefs.final, reminder: prefs.reminder };
  await em
    .createQueryBuilder(PushPreferenceSchema)
    .insert({ participantId, ...settings })
    .onConflict('participantId')
    .merge({ ...settings, updatedAt: raw('now()') })
    .execute();
  return settings;
}

// ---------------------------------------------------------------- what a change tells (push.fanout.ts)

/** Every subscribed device, with its player and their settings: the ones a draft change may tell something. */
export async function subscribedDevices(em: EntityManager): Promise<(DeviceSubscription & { participantId: string; busted: boolean; final: boolean })[]> {
  const devices: (DeviceSubscription & { participantId: string })[] = await em
    .createQueryBuilder(PushSubscriptionSchema)
    .select(['participantId', 'endpoint', 'p256dh', 'auth', 'delaySeconds'])
    .execute('all');
  const prefs: { participantId: string; busted: boolean; final: boolean }[] = await em
    .createQueryBuilder(PushPreferenceSchema)
    .select(['participantId', 'busted', 'final'])
    .execute('all');
  const byPlayer = new Map(prefs.map((p) => [p.participantId, p]));
  return devices.map((d) => ({ ...d, busted: byPlayer.get(d.participantId)?.busted ?? true, final: byPlayer.get(d.participantId)?.final ?? true }));
}

/** Whether `playerId` is still the pick at `slot` (an undone pick tells nobody anything). */
export async function pickStands(em: EntityManager, playerId: number, slot: number): Promise<boolean> {
  return isRoundOnePick(em, playerId, slot);
}

/** Every membership of a subscribed player, with the group's name and whether the entry there is linked to My Picks. */
export async function subscriberMemberships(em: EntityManager): Promise<{ participantId: string; groupId: number; groupName: string; useGlobalPicks: boolean }[]> {
  // A subquery, which MikroORM runs as such ($in takes it; its types know only values).
  const subscribers = em.createQueryBuilder(PushSubscriptionSchema).select('participantId').getKnexQuery() as unknown as string[];
  const rows = await em.find(
    GroupMembershipSchema,
    { participantId: { $in: subscribers } },
    { populate: ['group'], fields: ['participantId', 'useGlobalPicks', 'group.id', 'group.name'], refresh: true },
  );
  return rows.map((r) => ({ participantId: r.participantId, groupId: r.group.id, groupName: r.group.name, useGlobalPicks: r.useGlobalPicks }));
}

/** The board's names, by player id. */
export async function playerNames(em: EntityManager): Promise<Map<number, string>> {
  return new Map((await listBoard(em)).map((p) => [p.id, p.player_name]));
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
  const claimed: unknown[] = await tx.createQueryBuilder(PushFanoutSchema).insert({ eventId }).onConflict('eventId').ignore().returning('eventId').execute('all');
  return claimed.length > 0;
}

/** Writes pushes to send (`dueAt` a Date.now() value) and answers them as the sender queues them. */
export async function insertDeliveries(tx: EntityManager, eventId: number | null, pushes: readonly { endpoint: string; payload: PushPayload; dueAt: number }[]): Promise<DeliveryRow[]> {
  if (pushes.length === 0) return [];
  // Raw: a fan-out's pushes in one statement (unnest), answered with their devices' keys.
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
  const devices = await tx.find(PushSubscriptionSchema, { participantId }, { fields: ['endpoint'], refresh: true });
  if (devices.length > 0) await tx.insertMany(PushDeliverySchema, devices.map((d) => ({ endpoint: d.endpoint, eventId: null, payload, dueAt: new Date() })));
  return devices.length;
}

/** Every push waiting: what a sender taking over starts from. */
export function pendingDeliveries(em: EntityManager): Promise<DeliveryRow[]> {
  // Raw: the whole queue with each push's device, in one read.
  return sql<DeliveryRow>(em, `select ${DELIVERY_COLUMNS} from push_delivery d join push_subscription s on s.endpoint = d.endpoint order by d.due_at, d.id`);
}

/** Pushes done with (taken by the push service, its device gone, or given up on). */
export async function deleteDeliveries(em: EntityManager, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await em.nativeDelete(PushDeliverySchema, { id: { $in: [...ids] } });
}

/** A push to try again later: a sender taking over goes on with the same backoff. */
export async function retryDelivery(em: EntityManager, id: number, attempt: number, dueAt: number): Promise<void> {
  await em.nativeUpdate(PushDeliverySchema, { id }, { attempt, dueAt: new Date(dueAt) });
}

/**
 * Drops the waiting pushes an undo or a reset took back: of the pick at `slot` before change `eventId` (an
 * undo), or of every change before it (slot null: a reset). Answers their ids.
 */
export async function dropDeliveriesOf(em: EntityManager, eventId: number, slot: number | null): Promise<number[]> {
  // Raw: delete … returning, one statement that answers exactly the pushes it took back.
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
  const claimed = em.createQueryBuilder(PushFanoutSchema).select('eventId').getKnexQuery();
  const rows: { id: number }[] = await em
    .createQueryBuilder(DraftEventSchema)
    .select('id')
    .where({ kind: { $in: ['pick', 'complete_round'] }, createdAt: { $gt: raw('now() - make_interval(secs => ?)', [withinSeconds]) }, id: { $nin: claimed } })
    .orderBy({ id: 'asc' })
    .execute('all');
  return rows.map((r) => Number(r.id));
}
