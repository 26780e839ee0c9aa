import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { sql, sqlOne } from '../../db/sql.js';

/** One device's subscription as web-push sends to it. */
export interface DeviceSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  delaySeconds: number;
}

/**
 * Stores the device's subscription for the player. The endpoint is unique: a device that was someone else's
 * (signed out without unsubscribing, or a shared browser) becomes this player's, with the new keys and delay.
 */
export async function saveSubscription(
  em: EntityManager,
  participantId: string,
  sub: { endpoint: string; p256dh: string; auth: string; delaySeconds: number },
): Promise<void> {
  await sql(
    em,
    `insert into push_subscription (participant_id, endpoint, p256dh, auth, delay_seconds) values ($1, $2, $3, $4, $5)
     on conflict on constraint push_subscription_endpoint_unique
     do update set participant_id = excluded.participant_id, p256dh = excluded.p256dh, auth = excluded.auth,
                   delay_seconds = excluded.delay_seconds`,
    [participantId, sub.endpoint, sub.p256dh, sub.auth, sub.delaySeconds],
  );
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

/** A device to tell that one of its player's picks went, with the player's best entry holding that pick. */
export interface PickRecipient extends DeviceSubscription {
  /** Round-one players drafted so far in that entry (this one included). */
  hits: number;
  /** The entry's group (null: the global entry), for the link a tap opens. */
  groupId: number | null;
}

/**
 * Every subscribed device of every player who has `playerId` in an entry. One row per device: when the
 * player holds him in several entries, the one with the most hits (the global entry on a tie) speaks.
 */
export function pickRecipients(em: EntityManager, playerId: number): Promise<PickRecipient[]> {
  return sql<PickRecipient>(
    em,
    `with entries as (
       select k.participant_id, k.group_id,
              (select count(*)::int from pick h join player p on p.id = h.player_id
                where h.participant_id = k.participant_id and h.group_id = k.group_id and p.draft_round = 1) as hits
         from pick k
        where k.player_id = $1
     ), best as (
       select distinct on (participant_id) participant_id, group_id, hits
         from entries
        order by participant_id, hits desc, (group_id = $2) desc, group_id
     )
     select s.endpoint, s.p256dh, s.auth, s.delay_seconds as "delaySeconds", b.hits,
            case when b.group_id = $2 then null else b.group_id end as "groupId"
       from best b join push_subscription s on s.participant_id = b.participant_id`,
    [playerId, GLOBAL_GROUP_ID],
  );
}
