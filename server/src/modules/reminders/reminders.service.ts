import crypto from 'node:crypto';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import { formatDeadline } from '@first-round/shared/deadline';
import { reminderHeadline, reminderText } from '@first-round/shared/push-words';
import type { AppDeps } from '../../deps.js';
import { hmac } from '../auth/keys.js';
import { isDraftStarted } from '../draft/draft.service.js';
import { setReminders } from '../users/participants.repository.js';
import { pushToPlayer } from '../push/push.service.js';
import type { ReminderKind } from './reminders.entities.js';
import { claimReminder, findMissingEntries, REMINDERS_LOCK, stillWantsReminders, type MissingEntry } from './reminders.repository.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The reminder due at `now`, if any: '24h' from 24 hours before the deadline, '1h' from one hour before,
 * none from the deadline on. Each window ends where the next begins, so a server that was down through the
 * 24-hour window (or started late) sends the 1-hour reminder only, never a stale '24 hours left'.
 */
export function dueReminder(now: Date, deadline: Date): ReminderKind | null {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return null;
  if (left <= HOUR_MS) return '1h';
  if (left <= 24 * HOUR_MS) return '24h';
  return null;
}

const LEFT: Record<ReminderKind, string> = { '24h': '24 hours left', '1h': '1 hour left' };

// ------------------------------------------------------------------------------------ unsubscribe

const unsubscribeValue = (participantId: string) => `reminders-unsubscribe:${participantId}`;

/** The signature of a player's unsubscribe link: an HMAC of their id under the server's key material. */
export function unsubscribeSignature(secret: Buffer, participantId: string): string {
  return hmac(secret, unsubscribeValue(participantId));
}

/** Whether `sig` is the player's signature (compared in constant time). */
export function isUnsubscribeSignature(secret: Buffer, participantId: string, sig: string): boolean {
  const expected = Buffer.from(unsubscribeSignature(secret, participantId));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * The unsubscribe link followed (a click, or a mail program's one-click POST): with the player's signature it
 * switches their reminders off and answers true; with anything else it changes nothing and answers false. No
 * sign-in and no expiry: the link can only ever switch that one player's reminders off.
 */
export async function unsubscribeWithLink(em: EntityManager, secret: Buffer, link: { participantId: string; sig: string }): Promise<boolean> {
  if (!link.participantId || !link.sig || !isUnsubscribeSignature(secret, link.participantId, link.sig)) return false;
  await setReminders(em, link.participantId, false);
  return true;
}

export function unsubscribeUrl(origin: string, secret: Buffer, participantId: string): string {
  const query = new URLSearchParams({ p: participantId, sig: unsubscribeSignature(secret, participantId) });
  return `${origin}/api/reminders/unsubscribe?${query.toString()}`;
}

// ------------------------------------------------------------------------------------ the message

/** One player's reminder: every entry of theirs not in, the global one first. */
export function renderReminder(input: { reminder: ReminderKind; deadline: Date; missing: Pick<MissingEntry, 'groupId' | 'groupName'>[]; origin: string; unsubscribe: string }) {
  const left = LEFT[input.reminder];
  const global = input.missing.some((m) => m.groupId === null);
  const subject = reminderHeadline(left, input.missing);
  const lines = [
    ...(global ? [`- Your First Round picks (the global leaderboard): ${input.origin}/select-players`] : []),
    ...input.missing.filter((m) => m.groupId !== null).map((m) => `- Your picks for ${m.groupName}: ${input.origin}/groups/${m.groupId}/picks`),
  ];
  const text = [
    `Picks lock ${formatDeadline(input.deadline)} (${left}). These entries of yours have no picks yet:`,
    '',
    ...lines,
    '',
    'Once the draft starts, picks cannot be made or changed.',
    '',
    `Stop these reminders: ${input.unsubscribe}`,
    'Or switch off "E-mail me before picks lock" in Settings.',
  ].join('\n');
  return { subject, text };
}

// ------------------------------------------------------------------------------------ a run

export type ReminderDeps = Pick<AppDeps, 'orm' | 'draft' | 'config' | 'mailer' | 'keys' | 'log' | 'events'>;

export interface ReminderRun {
  reminder: ReminderKind | null;
  /** Players reminded by this run (by mail, push or both). */
  sent: number;
  /** Mails that failed (their claim rolled back: the next run tries again). */
  failed: number;
  /** Why nothing was looked at. */
  skipped?: 'off' | 'not_due' | 'started' | 'locked';
}

/**
 * Sends the reminder due now to every player with an entry not in, once: by mail to those with e-mail
 * reminders on, and the 1-hour one by push to the subscribed devices of those with the push reminder on
 * (written with the claim). One instance at a time: the run
 * holds a transaction-scoped advisory lock on a connection of its own (another instance's run answers
 * 'locked' at once). Each player is one transaction: claim the reminder_sent row, then send (into the
 * outbox, or by SMTP); a failed send rolls the claim back, and a run stopped halfway leaves the rest
 * unclaimed for the next one.
 */
export async function runReminders(deps: ReminderDeps): Promise<ReminderRun> {
  if (!deps.config.REMINDERS) return { reminder: null, sent: 0, failed: 0, skipped: 'off' };
  const deadline = deps.draft.deadline;
  const reminder = dueReminder(deps.draft.now(), deadline);
  if (!reminder) return { reminder, sent: 0, failed: 0, skipped: 'not_due' };
  const knex = deps.orm.em.getKnex();
  return knex.transaction(async (lock: Knex.Transaction) => {
    const locked = (await lock.raw('select pg_try_advisory_xact_lock(hashtext(?)) as ok', [REMINDERS_LOCK])) as { rows: { ok: boolean }[] };
    if (!locked.rows[0]?.ok) return { reminder, sent: 0, failed: 0, skipped: 'locked' as const };
    const em = deps.orm.em.fork();
    if (await isDraftStarted(em, deps.draft)) return { reminder, sent: 0, failed: 0, skipped: 'started' as const };
    const byPlayer = new Map<string, MissingEntry[]>();
    // The last call goes by push too, to the devices of players who keep the push reminder on.
    const withPush = reminder === '1h' && deps.config.PUSH;
    for (const entry of await findMissingEntries(em, reminder, deadline, withPush)) {
      const list = byPlayer.get(entry.participantId) ?? [];
      list.push(entry);
      byPlayer.set(entry.participantId, list);
    }
    // Links in mail: the configured address (config.ts, publicOrigin).
    const origin = deps.config.publicOrigin;
    const run: ReminderRun = { reminder, sent: 0, failed: 0 };
    for (const [participantId, missing] of byPlayer) {
      // Still before the lock? (The draft may start, or the window close, while a long run is under way.)
      if (dueReminder(deps.draft.now(), deadline) !== reminder) break;
      try {
        const sent = await deps.orm.em.fork().transactional(async (tx) => {
          if (await isDraftStarted(tx, deps.draft)) return null;
          const wants = await stillWantsReminders(tx, participantId, withPush);
          if (!wants.mail && !wants.push) return false;
          if (!(await claimReminder(tx, participantId, reminder, deadline))) return false;
          const email = missing[0]!.email;
          if (wants.mail && email) {
            const unsubscribe = unsubscribeUrl(origin, deps.keys.hmacSecret, participantId);
            const { subject, text } = renderReminder({ reminder, deadline, missing, origin, unsubscribe });
            await deps.mailer.send(tx, {
              to: email,
              subject,
              text,
              headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
            });
          }
          // Claimed with the mail, so once, with it or not at all.
          if (wants.push) await pushToPlayer(tx, participantId, reminderText(missing));
          return true;
        });
        if (sent === null) return { ...run, skipped: 'started' as const };
        if (sent) run.sent++;
      } catch (error) {
        run.failed++;
        deps.log.warn({ err: (error as Error).message, reminder }, 'a reminder could not be sent; the next run tries again');
      }
    }
    if (run.sent > 0 || run.failed > 0) deps.log.info({ reminder, sent: run.sent, failed: run.failed }, 'reminders before the lock sent');
    return run;
  });
}

/** Checks every `REMINDER_CHECK_SECONDS` whether a reminder is due, and sends it (main.ts starts it unless REMINDERS=false). */
export function startReminderTimer(deps: ReminderDeps): () => void {
  if (!deps.config.REMINDERS) return () => {};
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await runReminders(deps);
    } catch (error) {
      deps.log.warn({ err: (error as Error).message }, 'reminder run failed; retrying at the next check');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), deps.config.REMINDER_CHECK_SECONDS * 1000);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
