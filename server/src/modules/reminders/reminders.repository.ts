import type { EntityManager } from '@mikro-orm/postgresql';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { sql, sqlOne } from '../../db/sql.js';
import { entrySetGroupSql } from '../groups/entry-rule.js';
import { ReminderSentSchema, type ReminderKind } from './reminders.entities.js';

/*
 * The reminders module's data access: the reminder_sent table, the run's lock, and the one read across
 * modules that finds whose entries are not in (a set-based read over picks, memberships and participants
 * is SQL: one statement instead of a call per player and group).
 */

/** A player's missing entry: the global one (groupId null) or a group's. */
export interface MissingEntry {
  participantId: string;
  /** Null for a player reminded by push only (no address known). */
  email: string | null;
  groupId: number | null;
  groupName: string | null;
}

/** Who a player's reminder goes to: by mail (reminders on, an address), by push (`withPush`, the push reminder on, a device). */
const WANTS_MAIL = `p.email_reminders and coalesce(nullif(p.email, ''), u.email) is not null`;
const wantsPush = (withPush: string) => `${withPush}::boolean and coalesce(pp.reminder, true) and exists (select 1 from push_subscription ps where ps.participant_id = p.id)`;

/**
 * Every entry not in, of players who want this reminder by mail (e-mail reminders on, an address: their own,
 * else the built-in identity provider's) or by push (`withPush`: their push reminder on, a subscribed device),
 * and have not had this reminder for this deadline. An entry is in as the standings
 * count it (the one entry rule, shared/src/entries.ts): the global pick set; in a group, the member's set
 * there, or the global one when they reuse it (use_global_picks). Ordered by player, the global entry first, then group names.
 */
export function findMissingEntries(em: EntityManager, reminder: ReminderKind, deadline: Date, withPush = false): Promise<MissingEntry[]> {
  // Raw: every participant without an entry, found set-based (as many as the players).
  return sql<MissingEntry>(
    em,
    `with missing as (
       select p.id as participant_id, null::int as group_id, null::text as group_name
         from participant p
        where not exists (select 1 from pick k where k.participant_id = p.id and k.group_id = $1)
       union all
       select m.participant_id, g.id, g.name
         from group_membership m
         join groups g on g.id = m.group_id
        where not exists (select 1 from pick k
                           where k.participant_id = m.participant_id
                             and k.group_id = ${entrySetGroupSql('m.group_id', 'm.use_global_picks')})
     )
     select ms.participant_id as "participantId", coalesce(nullif(p.email, ''), u.email) as email,
            ms.group_id as "groupId", ms.group_name as "groupName"
       from missing ms
       join participant p on p.id = ms.participant_id
       left join idp_user u on u.id = p.id
       left join push_preference pp on pp.participant_id = p.id
      where ((${WANTS_MAIL}) or (${wantsPush('$4')}))
        and not exists (select 1 from reminder_sent s where s.participant_id = p.id and s.reminder = $2 and s.deadline = $3)
      order by ms.participant_id, ms.group_id nulls first, lower(ms.group_name)`,
    [GLOBAL_GROUP_ID, reminder, deadline, withPush],
  );
}

/**
 * Claims the player's reminder inside `tx`: true when this transaction recorded it, false when it was
 * recorded already (a racing instance's uncommitted claim makes this wait for its outcome).
 */
export async function claimReminder(tx: EntityManager, participantId: string, reminder: ReminderKind, deadline: Date): Promise<boolean> {
  const rows: unknown[] = await tx
    .createQueryBuilder(ReminderSentSchema)
    .insert({ participantId, reminder, deadline })
    .onConflict(['participantId', 'reminder', 'deadline'])
    .ignore()
    .returning('participantId')
    .execute('all');
  return rows.length > 0;
}

/**
 * How the player still wants this reminder, re-read inside the claim's transaction (they may just have
 * unsubscribed, or switched the push reminder off): by mail, by push (`withPush`), both or neither.
 */
export async function stillWantsReminders(tx: EntityManager, participantId: string, withPush = false): Promise<{ mail: boolean; push: boolean }> {
  // Raw: three tables' settings joined in one read inside the claim's transaction.
  const row = await sqlOne<{ mail: boolean; push: boolean }>(
    tx,
    `select coalesce(${WANTS_MAIL}, false) as mail, coalesce(${wantsPush('$2')}, false) as push
       from participant p left join idp_user u on u.id = p.id left join push_preference pp on pp.participant_id = p.id
      where p.id = $1`,
    [participantId, withPush],
  );
  return { mail: row?.mail === true, push: row?.push === true };
}

/** Reminders recorded for the player (tests, diagnostics). */
export function remindersSentTo(em: EntityManager, participantId: string) {
  return em.find(ReminderSentSchema, { participantId }, { orderBy: { sentAt: 'asc' }, refresh: true });
}

/** The lock that lets one instance run the reminders at a time; held until `tx` ends. */
export const REMINDERS_LOCK = 'first-round:reminders';
