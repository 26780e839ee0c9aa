/**
 * Reminders before the lock: 24 h and 1 h before the deadline, one e-mail per player listing
 * every entry not in, once per player and reminder even with two instances or repeated runs; never after
 * the start, never to players who unsubscribed; the unsubscribe link is signed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDto } from '@first-round/shared/schemas';
import { loadConfig } from '../src/config.js';
import { redactUrl } from '../src/redact-url.js';
import { dueReminder, runReminders, unsubscribeUrl } from '../src/modules/reminders/reminders.service.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { boardIds, createGroup, joinGroup, operatorReset, operatorStart, savePicks, uniqueName } from './game/helpers.js';

const HOUR = 60 * 60 * 1000;

let t: TestApp;
let t2: TestApp;
let players: number[];
let squad: GroupDto;
let deadline: Date;
/** No picks anywhere. */
let none: TestUser;
/** Global picks in; a member of the squad without picks there. */
let member: TestUser;
/** Global picks, and the squad's entry through use_global_picks: everything in. */
let everywhere: TestUser;
/** Owns the squad, picks there only: the global entry missing. */
let owner: TestUser;
/** Switched reminders off in Settings. */
let off: TestUser;
/** Unsubscribes with the link of the 24-hour reminder. */
let quitter: TestUser;

const at = (msBeforeDeadline: number) => {
  const when = new Date(deadline.getTime() - msBeforeDeadline);
  t.clock.set(when);
  t2.clock.set(when);
};

async function mailsTo(user: TestUser) {
  return t.db.query<{ subject: string; body: string }>(`select subject, body from idp_outbox where lower(to_address) = lower($1) and code is null order by id`, [user.email]);
}

beforeAll(async () => {
  t = await createTestApp();
  t2 = await createTestApp({ sameDatabaseAs: t });
  deadline = t.deps.draft.deadline;
  players = await boardIds(t);
  [none, member, everywhere, owner, off, quitter] = [
    await t.signUp('remindnone'),
    await t.signUp('remindmember'),
    await t.signUp('remindall'),
    await t.signUp('remindowner'),
    await t.signUp('remindoff'),
    await t.signUp('remindquit'),
  ];
  for (const user of [none, off, quitter]) await t.request('GET', '/api/auth/me', { user });
  squad = await createGroup(t, owner, { name: uniqueName('Sunday Squad') });
  await savePicks(t, owner, [players[0]!], squad.id);
  // The member made the squad's entry their own before having any picks, then made My Picks only: the
  // squad's entry is not in.
  await joinGroup(t, member, squad.id);
  expect((await t.request('POST', `/api/groups/${squad.id}/use-global-picks`, { user: member, body: { use_global_picks: false } })).statusCode).toBe(200);
  await savePicks(t, member, [players[1]!]);
  // Everywhere plays My Picks in the squad (joining links the entry): in everywhere.
  await savePicks(t, everywhere, [players[2]!]);
  await joinGroup(t, everywhere, squad.id);
  await (await t.caller(off)).users.setReminders({ reminders: false });
  // The member's participant row has no e-mail: the identity provider's address is used.
  await t.db.query(`update participant set email = null where id = $1`, [member.id]);
});
afterAll(async () => {
  await t2?.close();
  await t?.close();
});

describe('when a reminder is due', () => {
  it('24 h before, then 1 h before, nothing before or from the deadline on', () => {
    const d = new Date('2099-04-24T00:00:00Z');
    const before = (ms: number) => new Date(d.getTime() - ms);
    expect(dueReminder(before(25 * HOUR), d)).toBeNull();
    expect(dueReminder(before(24 * HOUR), d)).toBe('24h');
    expect(dueReminder(before(2 * HOUR), d)).toBe('24h');
    // Late: once the 1-hour window is reached, the 24-hour reminder is stale and never sent.
    expect(dueReminder(before(HOUR), d)).toBe('1h');
    expect(dueReminder(before(1), d)).toBe('1h');
    expect(dueReminder(d, d)).toBeNull();
    expect(dueReminder(new Date(d.getTime() + HOUR), d)).toBeNull();
  });

  it('REMINDERS and REMINDER_CHECK_SECONDS are read from the environment', () => {
    expect(loadConfig({}).REMINDERS).toBe(true);
    expect(loadConfig({ REMINDERS: 'false', REMINDER_CHECK_SECONDS: '30' })).toMatchObject({ REMINDERS: false, REMINDER_CHECK_SECONDS: 30 });
    expect(() => loadConfig({ REMINDER_CHECK_SECONDS: '0' })).toThrow(/REMINDER_CHECK_SECONDS/);
    expect(redactUrl('/api/reminders/unsubscribe?p=user_1&sig=abcdef')).toBe('/api/reminders/unsubscribe?p=user_1&sig=[redacted]');
  });

  it('sends nothing 25 hours before, or when REMINDERS=false', async () => {
    at(25 * HOUR);
    expect(await runReminders(t.deps)).toMatchObject({ sent: 0, skipped: 'not_due' });
    at(30 * 60 * 1000);
    expect(await runReminders({ ...t.deps, config: { ...t.deps.config, REMINDERS: false } })).toMatchObject({ sent: 0, skipped: 'off' });
    expect(await t.db.query(`select 1 from idp_outbox where code is null`)).toEqual([]);
  });
});

describe('the reminders', () => {
  it('24 hours before: every player with an entry not in, once, everything missing in one mail', async () => {
    at(23 * HOUR);
    const run = await runReminders(t.deps);
    expect(run).toMatchObject({ reminder: '24h', sent: 4, failed: 0 });
    expect((await mailsTo(none)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 24 hours left']);
    expect((await mailsTo(member)).map((m) => m.subject)).toEqual([`Your picks for ${squad.name} are not in: 24 hours left`]);
    const [ownerMail] = await mailsTo(owner);
    expect(ownerMail!.subject).toBe('Your First Round picks are not in: 24 hours left');
    expect(ownerMail!.body).toContain('Your First Round picks (the global leaderboard)');
    expect(ownerMail!.body).not.toContain(squad.name);
    expect(await mailsTo(everywhere)).toEqual([]);
    expect(await mailsTo(off)).toEqual([]);
    expect(await runReminders(t.deps)).toMatchObject({ reminder: '24h', sent: 0 });
  });

  it('a mail that cannot be sent is not recorded, and the next run sends it; a claim already recorded is not sent again', async () => {
    const failing = await t.signUp('remindfail');
    await t.request('GET', '/api/auth/me', { user: failing });
    const refused = { ...t.deps.mailer, send: async () => Promise.reject(new Error('SMTP 451: try again later')) };
    expect(await runReminders({ ...t.deps, mailer: refused })).toMatchObject({ reminder: '24h', sent: 0, failed: 1 });
    expect(await t.db.query(`select 1 from reminder_sent where participant_id = $1`, [failing.id])).toEqual([]);
    // As after a crash between two players: one recorded, one not; the next run sends only the other.
    const resumed = await t.signUp('remindresume');
    await t.request('GET', '/api/auth/me', { user: resumed });
    await t.db.query(`insert into reminder_sent (participant_id, reminder, deadline) values ($1, '24h', $2)`, [resumed.id, deadline]);
    expect(await runReminders(t.deps)).toMatchObject({ reminder: '24h', sent: 1, failed: 0 });
    expect((await mailsTo(failing)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 24 hours left']);
    expect(await mailsTo(resumed)).toEqual([]);
    // Out of the later counts: they have their picks in by the 1-hour reminder.
    for (const user of [failing, resumed]) await savePicks(t, user, [players[4]!]);
  });

  it('the unsubscribe link: a wrong signature is refused, the right one switches reminders off', async () => {
    const [mail] = await mailsTo(quitter);
    const link = /(http:\/\/\S+\/api\/reminders\/unsubscribe\?\S+)/.exec(mail!.body)![1]!;
    expect(link).toBe(unsubscribeUrl('http://localhost:3000', t.deps.keys.hmacSecret, quitter.id));
    const url = new URL(link);
    const forged = `/api/reminders/unsubscribe?p=${encodeURIComponent(quitter.id)}&sig=${'0'.repeat(64)}`;
    expect((await t.request('GET', forged)).statusCode).toBe(403);
    // Someone else's signature does not fit this player.
    const other = new URL(unsubscribeUrl('http://localhost:3000', t.deps.keys.hmacSecret, none.id)).searchParams.get('sig')!;
    expect((await t.request('GET', `/api/reminders/unsubscribe?p=${encodeURIComponent(quitter.id)}&sig=${other}`)).statusCode).toBe(403);
    expect((await t.request('GET', '/api/reminders/unsubscribe')).statusCode).toBe(403);
    expect(await (await t.caller(quitter)).users.reminders()).toEqual({ reminders: true });
    const res = await t.request('GET', `${url.pathname}${url.search}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('You will not get reminders any more');
    expect(await (await t.caller(quitter)).users.reminders()).toEqual({ reminders: false });
    // POST too (a mail program's one-click unsubscribe); a forged one changes nothing.
    await (await t.caller(quitter)).users.setReminders({ reminders: true });
    expect((await t.request('POST', forged)).statusCode).toBe(403);
    expect(await (await t.caller(quitter)).users.reminders()).toEqual({ reminders: true });
    expect((await t.request('POST', `${url.pathname}${url.search}`)).statusCode).toBe(200);
    expect(await (await t.caller(quitter)).users.reminders()).toEqual({ reminders: false });
  });

  it('1 hour before: once per player even when two instances run at the same time, and the group named', async () => {
    const late = await t.signUp('remindlate');
    await t.request('GET', '/api/auth/me', { user: late });
    at(30 * 60 * 1000);
    const runs = await Promise.all([runReminders(t.deps), runReminders(t2.deps), runReminders(t.deps)]);
    // none, member, owner, late (quitter unsubscribed, off switched off, everywhere has everything in).
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBe(4);
    expect(await runReminders(t2.deps)).toMatchObject({ reminder: '1h', sent: 0 });
    expect((await mailsTo(none)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 24 hours left', 'Your First Round picks are not in: 1 hour left']);
    const memberMails = await mailsTo(member);
    expect(memberMails.map((m) => m.subject)).toEqual([
      `Your picks for ${squad.name} are not in: 24 hours left`,
      `Your picks for ${squad.name} are not in: 1 hour left`,
    ]);
    expect(memberMails[1]!.body).toContain(`/groups/${squad.id}/picks`);
    expect(memberMails[1]!.body).toContain('/api/reminders/unsubscribe?p=');
    // Joined after the 24-hour reminder: the 1-hour one only, never a stale '24 hours left'.
    expect((await mailsTo(late)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 1 hour left']);
    expect(await mailsTo(everywhere)).toEqual([]);
    expect(await mailsTo(off)).toEqual([]);
    expect((await mailsTo(quitter)).map((m) => m.subject)).toEqual(['Your First Round picks are not in: 24 hours left']);
    expect(await t.db.query(`select reminder, count(*)::int as n from reminder_sent group by reminder order by reminder`)).toEqual([
      { reminder: '1h', n: 4 },
      { reminder: '24h', n: 6 },
    ]);
  });

  it('a player whose picks are in everywhere gets nothing, and nothing is sent after the start', async () => {
    const missingGroup = await t.signUp('remindstart');
    await savePicks(t, missingGroup, [players[3]!]);
    const alone = await t.signUp('remindstart2');
    await t.request('GET', '/api/auth/me', { user: alone });
    await operatorStart(t);
    try {
      expect(await runReminders(t.deps)).toMatchObject({ sent: 0, skipped: 'started' });
    } finally {
      await operatorReset(t);
    }
    at(-60 * 1000);
    expect(await runReminders(t.deps)).toMatchObject({ sent: 0, skipped: 'not_due' });
    expect(await mailsTo(alone)).toEqual([]);
    expect(await mailsTo(missingGroup)).toEqual([]);
  });
});
