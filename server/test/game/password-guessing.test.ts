/**
 * Guessing a group's password with many accounts. The limit of 10 wrong passwords per player and group
 * let 14 new accounts make 140 guesses on one group in 18 s; the group now has a limit of its own across
 * all accounts (JOIN_LIMITS.wrongPasswordsPerGroupAllPlayers in 15 minutes). Past it every join by id with
 * a password is refused (429, as the per-player limit answers: tries_left 0, lockout 'group', retry_at and
 * Retry-After), the right password too: a lock that still checked passwords would still be guessed
 * through. Invite links and members are not held back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@first-round/shared/messages';
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
const PER_ACCOUNT = 5;

function expectGroupLocked(res: LightMyRequestResponse) {
  const body = expectError(res, 429, /^Too many wrong passwords for this group\. Try again in \d+ minutes? \(at .+\), or ask a member for an invite link\.$/);
  expect(body).toMatchObject({ code: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group' });
  const retryAt = Date.parse(String(body.retry_at));
  expect(retryAt).toBeGreaterThan(t.clock.now().getTime());
  expect(retryAt).toBeLessThanOrEqual(t.clock.now().getTime() + JOIN_LIMITS.wrongPasswordWindowMs + 60_000);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  return body;
}

describe('a group’s own limit on wrong passwords, across accounts', () => {
  it('is far below what many accounts could guess before, which is no more than the group limit', () => {
    expect(GROUP_LIMIT).toBeGreaterThan(JOIN_LIMITS.wrongPasswordsPerGroup);
    expect(GROUP_LIMIT).toBeLessThanOrEqual(30);
  });

  it('accounts guessing in turn share it: the tries left count down across them, then every account hears 429', async () => {
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
    // A fresh account: refused before any password is checked, and so is the right password.
    const [fresh, friend] = await accounts(2);
    const locked = expectGroupLocked(await join(fresh!, { group_id: group.id, password: 'another guess' }));
    expectGroupLocked(await join(friend!, { group_id: group.id, password: 'correct horse' }));
    // tRPC clients get the same numbers.
    const viaTrpc = await t.request('POST', '/trpc/groups.join', {
      user: friend,
      body: JSON.stringify({ group_id: group.id, password: 'correct horse' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaTrpc.statusCode).toBe(429);
    expect(Number(viaTrpc.headers['retry-after'])).toBeGreaterThan(0);
    expect((viaTrpc.json() as { error: { data: unknown } }).error.data).toMatchObject({ kind: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group', retry_at: locked.retry_at });
    // Nothing was evaluated past the limit.
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from group_join_failure where group_id = $1 and reason = 'wrong_password'`, [group.id]))[0]!.n).toBe(GROUP_LIMIT);

    // Members are not held back, and an invite link needs no password: the friend gets in with one.
    expect(expectStatus(await join(member, { group_id: group.id, password: 'anything' }), 200)).toMatchObject({ already_member: true });
    const link = expectStatus<{ token: string }>(await t.request('POST', '/api/groups/join-links', { user: owner, body: { group_id: group.id } }), 200);
    expect(expectStatus(await t.request('POST', `/api/groups/join-with-link/${link.token}`, { user: friend }), 200)).toMatchObject({ already_member: false });
    // Another group is not affected.
    const other = await createGroup(t, owner, { password: 'other' });
    expectStatus(await join(fresh!, { group_id: other.id, password: 'other' }), 200);

    // Once the window has passed, the group takes passwords again.
    t.clock.advance(JOIN_LIMITS.wrongPasswordWindowMs + 1000);
    const late = (await accounts(1))[0]!;
    expect(expectStatus(await join(late, { group_id: group.id, password: 'correct horse' }), 200)).toMatchObject({ already_member: false });
  });

  it('accounts guessing all at once: exactly the group limit of guesses are evaluated', async () => {
    const group = await createGroup(t, owner, { password: 'battery staple' });
    const guessers = await accounts(GROUP_LIMIT / PER_ACCOUNT + 2);
    const answers = await Promise.all(guessers.flatMap((g, a) => Array.from({ length: PER_ACCOUNT }, (_, i) => join(g, { group_id: group.id, password: `burst ${a}-${i}` }))));
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 403)).toHaveLength(GROUP_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(answers.length - GROUP_LIMIT);
    expect((await t.db.query<{ n: number }>(`select count(*)::int as n from group_join_failure where group_id = $1`, [group.id]))[0]!.n).toBe(GROUP_LIMIT);
  });
});
