/**
 * Guessing a group's password. One account gets a few wrong tries on a group, then waits
 * (JOIN_LIMITS.wrongPasswordsPerGroup in 15 minutes). Many accounts share the group's own bound
 * (JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers in an hour): past it an account that has guessed wrong on
 * the group waits (429, as the per-player limit answers: tries_left 0, lockout 'group', retry_at and
 * Retry-After), the right password too, while an account that has not still gets its one try, so a
 * guesser cannot lock the group for its members and many accounts get a guess each, no more. New
 * passwords are at least 8 characters. Invite links and members are not held back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { draftClock, retryWhen } from '@first-round/shared/join-words';
import { MESSAGES } from '@first-round/shared/messages';
import { hashPassword } from '../../src/modules/groups/password.js';
import { JOIN_LIMITS } from '../../src/modules/groups/join-limits.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { createGroup, expectError, expectStatus, joinGroup } from './helpers.js';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
  owner = await t.signUp('lockowner');
});
afterAll(async () => t?.close());

const join = (user: TestUser, body: Record<string, unknown>) => t.request('POST', '/api/groups/join', { user, body });
const accounts = async (n: number) => Promise.all(Array.from({ length: n }, () => t.signUp()));
const GROUP_LIMIT = JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers;
const PER_ACCOUNT = JOIN_LIMITS.wrongPasswordsPerGroup;

function expectGroupLocked(res: LightMyRequestResponse) {
  const body = expectError(res, 429, /^Too many wrong passwords for this group\. Try again in \d+ minutes? \(at .+\), or ask a member for an invite link\.$/);
  expect(body).toMatchObject({ code: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group' });
  const retryAt = Date.parse(String(body.retry_at));
  expect(retryAt).toBeGreaterThan(t.clock.now().getTime());
  expect(retryAt).toBeLessThanOrEqual(t.clock.now().getTime() + Math.max(JOIN_LIMITS.wrongPasswordWindowMs, JOIN_LIMITS.groupWrongPasswordWindowMs) + 60_000);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  return body;
}

describe('a group’s own limit on wrong passwords, across accounts', () => {
  it('is far below what many accounts could guess before, which is no more than the group limit: slower than 30 in 15 minutes', () => {
    expect(GROUP_LIMIT).toBeGreaterThan(JOIN_LIMITS.wrongPasswordsPerGroup);
    expect(JOIN_LIMITS.groupWrongPasswordWindowMs).toBeGreaterThan(JOIN_LIMITS.wrongPasswordWindowMs);
    expect(GROUP_LIMIT / JOIN_LIMITS.groupWrongPasswordWindowMs).toBeLessThanOrEqual(30 / (15 * 60_000));
    expect(GROUP_LIMIT % PER_ACCOUNT).toBe(0);
  });

  it('accounts guessing in turn share it: the tries left count down across them, then each account that guessed hears 429', async () => {
    const group = await createGroup(t, owner, { password: 'correct horse' });
    const member = await t.signUp();
    await joinGroup(t, member, group.id, 'correct horse');
    const guessers = await accounts(GROUP_LIMIT / PER_ACCOUNT);
    let made = 0;
    for (const guesser of guessers) {
      for (let i = 1; i <= PER_ACCOUNT; i++) {
        made++;
        const res = await join(guesser, { group_id: group.id, password: `guess ${made}` });
        // The tighter of the player's 10 for this group and the group's own, counted across accounts.
        const left = Math.min(JOIN_LIMITS.wrongPasswordsPerGroup - i, GROUP_LIMIT - made);
        const body = expectError(res, 403, left > 0 ? MESSAGES.wrongGroupPassword(left) : /^Wrong password for this group\. No tries left: try again in/);
        expect(body.tries_left).toBe(left);
        if (left === 0) expect(body).toMatchObject({ lockout: 'group' });
      }
    }
    // Every guesser: refused before any password is checked, and so is the right password.
    for (const guesser of guessers) expectGroupLocked(await join(guesser, { group_id: group.id, password: 'correct horse' }));
    // A fresh account gets its one try: a wrong guess is answered, and from then on it is refused too.
    const [fresh, friend] = await accounts(2);
    expect(expectError(await join(fresh!, { group_id: group.id, password: 'another guess' }), 403, /^Wrong password for this group\. No tries left/)).toMatchObject({
      tries_left: 0,
      lockout: 'group',
    });
    const locked = expectGroupLocked(await join(fresh!, { group_id: group.id, password: 'correct horse' }));
    // tRPC clients get the same numbers.
    const viaTrpc = await t.request('POST', '/trpc/groups.join', {
      user: fresh,
      body: JSON.stringify({ group_id: group.id, password: 'correct horse' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaTrpc.statusCode).toBe(429);
    expect(Number(viaTrpc.headers['retry-after'])).toBeGreaterThan(0);
    expect((viaTrpc.json() as { error: { data: unknown } }).error.data).toMatchObject({ kind: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group', retry_at: locked.retry_at });
    // Nothing was evaluated past the limit but the fresh account's one try.
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from group_join_failure where group_id = $1 and reason = 'wrong_password'`, [group.id]))[0]!.n).toBe(GROUP_LIMIT + 1);
    // An account that has not guessed wrong joins with the right password: the bound locks no friend out.
    expect(expectStatus(await join(friend!, { group_id: group.id, password: 'correct horse' }), 200)).toMatchObject({ already_member: false });

    // Members are not held back, and an invite link needs no password: the locked-out account gets in with one.
    expect(expectStatus(await join(member, { group_id: group.id, password: 'anything' }), 200)).toMatchObject({ already_member: true });
    const link = expectStatus<{ token: string }>(await t.request('POST', '/api/groups/join-links', { user: owner, body: { group_id: group.id } }), 200);
    expect(expectStatus(await t.request('POST', `/api/groups/join-with-link/${link.token}`, { user: fresh }), 200)).toMatchObject({ already_member: false });
    // Another group is not affected.
    const other = await createGroup(t, owner, { password: 'other group' });
    expectStatus(await join(guessers[0]!, { group_id: other.id, password: 'other group' }), 200);

    // Once the group's window has passed, it takes passwords from the guessers again.
    t.clock.advance(JOIN_LIMITS.groupWrongPasswordWindowMs + 1000);
    expect(expectStatus(await join(guessers[1]!, { group_id: group.id, password: 'correct horse' }), 200)).toMatchObject({ already_member: false });
    const late = (await accounts(1))[0]!;
    expect(expectStatus(await join(late, { group_id: group.id, password: 'correct horse' }), 200)).toMatchObject({ already_member: false });
  });

  it('accounts guessing all at once: exactly the group limit of guesses are evaluated, then at most the first of an account that had none', async () => {
    const group = await createGroup(t, owner, { password: 'battery staple' });
    const guessers = await accounts(GROUP_LIMIT / PER_ACCOUNT + 2);
    const answers = await Promise.all(guessers.flatMap((g, a) => Array.from({ length: PER_ACCOUNT }, (_, i) => join(g, { group_id: group.id, password: `burst ${a}-${i}` }))));
    const statuses = answers.map((r) => r.statusCode);
    // The guesses were decided one after another (the group's lock): in that order, the first GROUP_LIMIT
    // were anyone's, and each after them the first of its account.
    const evaluated = (await t.db.query<{ participant_id: string }>(`select participant_id from group_join_failure where group_id = $1 order by id`, [group.id])).map((r) => r.participant_id);
    expect(evaluated.length).toBeGreaterThanOrEqual(GROUP_LIMIT);
    const past = evaluated.slice(GROUP_LIMIT);
    for (const who of past) expect(evaluated.indexOf(who), who).toBeGreaterThanOrEqual(GROUP_LIMIT);
    expect(new Set(past).size).toBe(past.length);
    expect(statuses.filter((s) => s === 403)).toHaveLength(evaluated.length);
    expect(statuses.filter((s) => s === 429)).toHaveLength(answers.length - evaluated.length);
  });
});

describe('group passwords are at least 8 characters', () => {
  it('a new or changed password shorter than 8 is refused (422), over REST and tRPC; one set before still lets its holders in', async () => {
    for (const password of ['1234', '7 chars', '       x']) {
      expectError(await t.request('POST', '/api/groups', { user: owner, body: { name: `Short ${password.length}`, password } }), 422, MESSAGES.groupPasswordTooShort);
    }
    const group = await createGroup(t, owner, { password: '8 chars!' });
    expectError(await t.request('POST', `/api/groups/${group.id}/password`, { user: owner, body: { password: '1234' } }), 422, MESSAGES.groupPasswordTooShort);
    for (const [procedure, input] of [
      ['groups.setPassword', { group_id: group.id, password: '1234' }],
      ['groups.create', { name: 'Short tRPC', password: 'pin1' }],
    ] as const) {
      const res = await t.request('POST', `/trpc/${procedure}`, { user: owner, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, res.body).toBe(400);
      expect((res.json() as { error: { message: string; data: { kind: string } } }).error).toMatchObject({ message: MESSAGES.groupPasswordTooShort, data: { kind: 'INVALID_INPUT' } });
    }
    // A four-digit PIN set before the rule keeps working for those who know it.
    await t.db.query(`update groups set password_hash = $2 where id = $1`, [group.id, await hashPassword('4821')]);
    const friend = (await accounts(1))[0]!;
    expect(expectStatus(await join(friend, { group_id: group.id, password: '4821' }), 200)).toMatchObject({ already_member: false });
  });
});

describe("one account's wrong passwords for one group", () => {
  it('a few, then a wait (429 with when to come back); then it may try again', async () => {
    expect(JOIN_LIMITS.wrongPasswordsPerGroup).toBeLessThanOrEqual(5);
    const group = await createGroup(t, owner, { password: 'a few then a wait' });
    const [guesser] = await accounts(1);
    for (let i = 1; i <= JOIN_LIMITS.wrongPasswordsPerGroup; i++) {
      const body = expectError(await join(guesser!, { group_id: group.id, password: `guess ${i}` }), 403, /^Wrong password for this group\./);
      expect(body.tries_left).toBe(JOIN_LIMITS.wrongPasswordsPerGroup - i);
    }
    const locked = expectGroupLocked(await join(guesser!, { group_id: group.id, password: 'a few then a wait' }));
    expect(Date.parse(String(locked.retry_at))).toBeLessThanOrEqual(t.clock.now().getTime() + JOIN_LIMITS.wrongPasswordWindowMs);
    t.clock.advance(JOIN_LIMITS.wrongPasswordWindowMs + 1000);
    expect(expectStatus(await join(guesser!, { group_id: group.id, password: 'a few then a wait' }), 200)).toMatchObject({ already_member: false });
  });
});

describe("a group's bound across accounts does not lock the group for its members", () => {
  it('past it, an account with no wrong tries still joins with the right password; one wrong try past it locks that account only', async () => {
    const group = await createGroup(t, owner, { password: 'right password' });
    const [earlyMistake] = await accounts(1);
    expectError(await join(earlyMistake!, { group_id: group.id, password: 'typo' }), 403, /^Wrong password/);
    // Accounts guess until the group's bound is reached.
    const guessers = await accounts(Math.ceil(GROUP_LIMIT / JOIN_LIMITS.wrongPasswordsPerGroup));
    let made = 1;
    for (const guesser of guessers) {
      for (let i = 0; i < JOIN_LIMITS.wrongPasswordsPerGroup && made < GROUP_LIMIT; i++, made++) {
        expectError(await join(guesser, { group_id: group.id, password: `bound ${made}` }), 403, /^Wrong password/);
      }
    }
    // A guesser who still has tries of its own is held back now.
    expectGroupLocked(await join(guessers.at(-1)!, { group_id: group.id, password: 'right password' }));
    // An account that has not guessed wrong joins with the right password …
    const [friend, stranger] = await accounts(2);
    expect(expectStatus(await join(friend!, { group_id: group.id, password: 'right password' }), 200)).toMatchObject({ already_member: false });
    // … and a wrong one is one try: answered, then that account waits (with the right password too).
    const last = expectError(await join(stranger!, { group_id: group.id, password: 'one try' }), 403, /^Wrong password for this group\. No tries left/);
    expect(last).toMatchObject({ tries_left: 0, lockout: 'group' });
    expectGroupLocked(await join(stranger!, { group_id: group.id, password: 'right password' }));
    // A member-to-be who mistyped once meanwhile waits too, or asks for an invite link.
    expectGroupLocked(await join(earlyMistake!, { group_id: group.id, password: 'right password' }));
    // Once the group's window has passed it takes passwords from everyone again.
    t.clock.advance(JOIN_LIMITS.groupWrongPasswordWindowMs + 1000);
    expect(expectStatus(await join(earlyMistake!, { group_id: group.id, password: 'right password' }), 200)).toMatchObject({ already_member: false });
  });
});

describe('the lockout message', () => {
  it("names its clock's zone, as docs/api.md shows it", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/api.md'), 'utf8');
    const example = /\{ "detail": "(Too many wrong passwords[^"]*)",\s*"message": "…", "code": "TOO_MANY_REQUESTS", "tries_left": 0, "lockout": "group", "retry_at": "([^"]+)" \}/.exec(doc);
    expect(example, 'the example refusal in docs/api.md').not.toBeNull();
    const [, detail, retryAt] = example!;
    const minutes = Number(/Try again in (\d+) minutes/.exec(detail!)![1]);
    const now = new Date(Date.parse(retryAt!) - minutes * 60_000 + 30_000);
    expect(detail).toBe(MESSAGES.joinLockedOut('group', retryWhen(retryAt!, now, draftClock)));
    // And a real refusal says the same of its own retry_at: the time in the draft's zone, the zone named.
    const group = await createGroup(t, owner, { password: 'zone named' });
    const [guesser] = await accounts(1);
    for (let i = 1; i <= JOIN_LIMITS.wrongPasswordsPerGroup; i++) await join(guesser!, { group_id: group.id, password: `zone ${i}` });
    const body = expectGroupLocked(await join(guesser!, { group_id: group.id, password: 'zone named' }));
    expect(body.message).toBe(MESSAGES.joinLockedOut('group', retryWhen(String(body.retry_at), t.clock.now(), draftClock)));
    expect(body.message).toMatch(/\(at \d{1,2}:\d{2} [AP]M E[SD]T\)/);
  });
});
