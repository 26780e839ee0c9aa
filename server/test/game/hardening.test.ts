/**
 * Groups and names tried as an attacker would: guessing a group's password,
 * counting through group ids, and strings that are invisible, reversed or carry NUL characters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@first-round/shared/messages';
import { JOIN_LIMITS } from '../../src/modules/groups/join-limits.js';
import { createTestApp, latestOutboxCode, type TestApp, type TestUser } from '../support/test-app.js';
import { createGroup, expectError, expectStatus, joinGroup, tableCounts, uniqueName } from './helpers.js';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
  owner = await t.signUp('hardowner');
});
afterAll(async () => t?.close());

const join = (user: TestUser, body: Record<string, unknown>) => t.request('POST', '/api/groups/join', { user, body });
const MINUTE = 60_000;

describe('guessing a group password', () => {
  /** Wrong passwords one player may try on one group in 15 minutes. */
  const N = JOIN_LIMITS.wrongPasswordsPerGroup;
  it('says how many tries are left, then when the lock lifts (5 wrong passwords per player and group in 15 minutes), even for the right one', async () => {
    expect(N).toBe(5);
    // A clock half a minute past the hour, so the lock's time reads the same however long the hashes take.
    t.clock.set(new Date('2026-03-05T20:00:30Z'));
    const group = await createGroup(t, owner, { password: 'correct horse' });
    const guesser = await t.signUp('guesser');
    for (let i = 1; i < N; i++) {
      const body = expectError(await join(guesser, { group_id: group.id, password: `guess ${i}` }), 403, `Wrong password for this group. ${N - i} ${N - i === 1 ? 'try' : 'tries'} left.`);
      expect(body).toMatchObject({ code: 'FORBIDDEN', tries_left: N - i });
      expect(body).not.toHaveProperty('retry_at');
    }
    // The fifth is the last: it says so, and when the next try is allowed (the first wrong one ages out
    // 15 minutes after it; the clock time is rounded up to the minute).
    const last = expectError(
      await join(guesser, { group_id: group.id, password: `guess ${N}` }),
      403,
      'Wrong password for this group. No tries left: try again in 15 minutes (at 3:16 PM EST), or ask a member for an invite link.',
    );
    expect(last).toMatchObject({ tries_left: 0, lockout: 'group' });
    const retryAt = new Date(String(last.retry_at));
    expect(retryAt.getTime() - Date.parse('2026-03-05T20:15:30Z')).toBeGreaterThanOrEqual(0);
    expect(retryAt.getTime() - Date.parse('2026-03-05T20:15:30Z')).toBeLessThan(20_000);
    const locked = expectError(
      await join(guesser, { group_id: group.id, password: 'correct horse' }),
      429,
      'Too many wrong passwords for this group. Try again in 15 minutes (at 3:16 PM EST), or ask a member for an invite link.',
    );
    expect(locked).toMatchObject({ code: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group', retry_at: retryAt.toISOString() });
    // tRPC clients get the same numbers in the error's data.
    const viaTrpc = await t.request('POST', '/trpc/groups.join', {
      user: guesser,
      body: JSON.stringify({ group_id: group.id, password: 'correct horse' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(viaTrpc.statusCode).toBe(429);
    expect((viaTrpc.json() as { error: { data: unknown } }).error.data).toMatchObject({ kind: 'TOO_MANY_REQUESTS', tries_left: 0, lockout: 'group', retry_at: retryAt.toISOString() });
    // Someone else is not held back by the guesser.
    const friend = await t.signUp('friendly');
    expect(expectStatus<{ success: boolean }>(await join(friend, { group_id: group.id, password: 'correct horse' }), 200).success).toBe(true);
    t.clock.advance(10 * MINUTE);
    expectError(await join(guesser, { group_id: group.id, password: 'correct horse' }), 429, /Try again in 5 minutes \(at 3:16 PM EST\)/);
    t.clock.advance(5 * MINUTE + 20_000);
    expect(expectStatus<{ already_member: boolean }>(await join(guesser, { group_id: group.id, password: 'correct horse' }), 200).already_member).toBe(false);
  });

  it('evaluates no more than 5 of 50 simultaneous wrong guesses', async () => {
    const group = await createGroup(t, owner, { password: 'p4ssw0rd' });
    const guesser = await t.signUp('burstguesser');
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => join(guesser, { group_id: group.id, password: `try ${i}` })));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 403)).toHaveLength(N);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50 - N);
    // tRPC callers meet the same count.
    await expect((await t.caller(guesser)).groups.join({ group_id: group.id, password: 'p4ssw0rd' })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('counts on every instance: guesses spread over two servers share one limit', async () => {
    const key = t.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const second = await createTestApp({ seedBoard: false, sameDatabaseAs: t, env: { LOCAL_IDP_PRIVATE_KEY: key } });
    try {
      second.clock.set(t.clock.now());
      const group = await createGroup(t, owner, { password: 'two doors' });
      const guesser = await t.signUp('twodoors');
      const joinAt = (app: TestApp, password: string) => app.request('POST', '/api/groups/join', { user: guesser, body: { group_id: group.id, password } });
      for (let i = 0; i < 3; i++) expectError(await joinAt(t, `first ${i}`), 403, MESSAGES.wrongGroupPassword(N - 1 - i));
      expectError(await joinAt(second, 'second 0'), 403, MESSAGES.wrongGroupPassword(N - 4));
      expectError(await joinAt(second, 'second 1'), 403, /^Wrong password for this group\. No tries left/);
      expectError(await joinAt(second, 'two doors'), 429, /Too many wrong passwords for this group/);
      expectError(await joinAt(t, 'two doors'), 429, /Too many wrong passwords for this group/);
    } finally {
      await second.close();
    }
  });

  it('a right password is not a failure, and a member is never locked out of their own group', async () => {
    const group = await createGroup(t, owner, { password: 'let me in' });
    const player = await t.signUp('ninetries');
    for (let i = 0; i < N - 1; i++) expectError(await join(player, { group_id: group.id, password: `no ${i}` }), 403, MESSAGES.wrongGroupPassword(N - 1 - i));
    expect(expectStatus<{ already_member: boolean }>(await join(player, { group_id: group.id, password: 'let me in' }), 200).already_member).toBe(false);
    expectStatus(await t.request('POST', `/api/groups/${group.id}/leave`, { user: player }), 200);
    // Four failures so far, not five: one more wrong password is still checked, the next is refused.
    expectError(await join(player, { group_id: group.id, password: `no ${N - 1}` }), 403, /^Wrong password for this group\. No tries left: try again in 15 minutes/);
    expectError(await join(player, { group_id: group.id, password: 'let me in' }), 429, /Too many wrong passwords for this group/);

    // Over the per-player limit, a member re-joining their own group is still told they are in it.
    const member = await t.signUp('lockedmember');
    await joinGroup(t, member, group.id, 'let me in');
    for (let i = 0; i < 30; i++) expectError(await join(member, { group_id: 12_000_000 + i }), 404, MESSAGES.groupNotFound);
    expectError(await join(member, { group_id: 12_000_030 }), 429, /Too many failed attempts to join groups/);
    expect(expectStatus<{ already_member: boolean }>(await join(member, { group_id: group.id }), 200).already_member).toBe(true);
  });

  it('caps failed joins per player across groups and unknown ids (30 an hour), which also stops counting through ids', async () => {
    const prober = await t.signUp('prober');
    const groups = await Promise.all(Array.from({ length: 3 }, () => createGroup(t, owner, { password: 'locked out' })));
    let failures = 0;
    for (const g of groups) {
      for (let i = 0; i < 1; i++, failures++) expectError(await join(prober, { group_id: g.id, password: 'nope' }), 403);
    }
    for (let id = 11_000_000; failures < 27; id++, failures++) expectError(await join(prober, { group_id: id }), 404, MESSAGES.groupNotFound);
    // Tries left count the tighter limit: this group would allow 3 more, the player only 2 more anywhere.
    const fewer = expectError(await join(prober, { group_id: groups[0]!.id, password: 'nope' }), 403, 'Wrong password for this group. 2 tries left.');
    expect(fewer).toMatchObject({ tries_left: 2 });
    expectError(await join(prober, { group_id: 11_999_999 }), 404, MESSAGES.groupNotFound);
    const last = expectError(await join(prober, { group_id: groups[1]!.id, password: 'nope' }), 403, /^Wrong password for this group\. No tries left: try again in \d+ minutes \(at \d{1,2}:\d\d [AP]M E[SD]T\), or ask a member for an invite link\.$/);
    expect(last).toMatchObject({ tries_left: 0, lockout: 'player', retry_at: expect.any(String) });
    const open = await createGroup(t, owner);
    const locked = expectError(
      await join(prober, { group_id: open.id }),
      429,
      /^Too many failed attempts to join groups\. Try again in \d+ minutes \(at \d{1,2}:\d\d [AP]M E[SD]T\), or ask a member for an invite link\.$/,
    );
    expect(locked).toMatchObject({ tries_left: 0, lockout: 'player', retry_at: last.retry_at });
    t.clock.advance(60 * MINUTE + 1000);
    expectStatus(await join(prober, { group_id: open.id }), 200);
  });

  it('invite links are not limited: the link is the permission', async () => {
    const group = await createGroup(t, owner, { password: 'linkonly' });
    const invited = await t.signUp('invitedafter');
    for (let i = 0; i < 10; i++) await join(invited, { group_id: group.id, password: 'wrong' });
    expectError(await join(invited, { group_id: group.id, password: 'linkonly' }), 429);
    const link = expectStatus<{ token: string }>(await t.request('POST', '/api/groups/join-links', { user: owner, body: { group_id: group.id, expiration_hours: 24 } }), 200);
    expectStatus(await t.request('POST', `/api/groups/join-with-link/${link.token}`, { user: invited }), 200);
  });
});

describe('the OpenAPI document', () => {
  it('documents the join limit and the shapes path values must have', async () => {
    const doc = expectStatus<{ paths: Record<string, Record<string, { responses: Record<string, unknown>; parameters: { name: string; schema: object }[] }>> }>(
      await t.request('GET', '/api/openapi.json'),
      200,
    );
    expect(doc.paths['/api/groups/join']!.post!.responses['429']).toBeDefined();
    // The numbers a refusal carries beside its words.
    for (const field of ['tries_left', 'lockout', 'retry_at']) expect(JSON.stringify(doc.paths['/api/groups/join']!.post!.responses['403'])).toContain(`"${field}"`);
    const params = doc.paths['/api/groups/{id}/picks/{participantId}']!.get!.parameters;
    expect(params.find((p) => p.name === 'participantId')?.schema).toMatchObject({ pattern: '^(user|temp)_[A-Za-z0-9_-]+$' });
    expect(params.find((p) => p.name === 'id')?.schema).toMatchObject({ maximum: 2_147_483_647 });
  });
});

describe('group ids', () => {
  it('are random 8-digit numbers, not a count; the global group stays 1 and joining by id still works', async () => {
    const created = [];
    for (let i = 0; i < 12; i++) created.push(await createGroup(t, owner));
    const ids = created.map((g) => g.id);
    for (const id of ids) {
      expect(id).toBeGreaterThanOrEqual(10_000_000);
      expect(id).toBeLessThanOrEqual(99_999_999);
    }
    const sorted = [...ids].sort((a, b) => a - b);
    const steps = sorted.slice(1).map((id, i) => id - sorted[i]!);
    expect(steps.filter((s) => s === 1).length).toBeLessThan(3);
    const [global] = await t.db.query<{ id: number; name: string }>(`select id, name from groups where id = 1`);
    expect(global).toEqual({ id: 1, name: 'Global' });
    const joiner = await t.signUp('idjoiner');
    expect((await joinGroup(t, joiner, ids[3]!)).success).toBe(true);
  });
});

describe('hostile strings', () => {
  const NUL = 'Ad\u0000min';

  it('a NUL anywhere is refused with 422, signed out or in, and writes nothing', async () => {
    const user = await t.signUp('nulsender');
    const before = await tableCounts(t);
    const cases: [string, string, unknown][] = [
      ['POST', '/idp/sign-up', { email: 'nul@example.com', username: NUL }],
      ['POST', '/api/groups', { name: NUL }],
      ['POST', '/api/groups/create-simple', { name: NUL }],
      ['POST', '/api/auth/update-screen-name', { screen_name: NUL }],
      ['POST', '/api/auth/migrate-participant-id', { temp_id: 'temp_\u0000x', clerk_id: user.id }],
      ['POST', '/api/groups/join', { group_id: 12_345_678, password: 'a\u0000b' }],
    ];
    for (const [method, url, body] of cases) {
      const res = await t.request(method, url, { user, body });
      expect(res.statusCode, `${url} ${res.body}`).toBe(422);
    }
    // Path and query values, including query keys no route reads (the REST adapter scans them all).
    for (const url of [`/api/groups/12345678/picks/user_%00x`, `/api/groups/join-links/ab%00cd`, '/api/groups/user?note=%00', '/api/players?%00=1']) {
      const res = await t.request('GET', url, { user });
      expectError(res, 422, 'Text must not contain NUL characters');
    }
    expect(await tableCounts(t)).toEqual(before);
    // The verify step's username too, on a real code (the sign-up itself sends the code: a legitimate write).
    const email = 'nulverify@example.com';
    expectStatus(await t.request('POST', '/idp/sign-up', { body: { email } }), 200);
    const afterSignUp = await tableCounts(t);
    const verify = await t.request('POST', '/idp/verify', { body: { email, code: await latestOutboxCode(t, email), username: NUL } });
    expect(verify.statusCode, verify.body).toBe(422);
    expect(await tableCounts(t)).toEqual(afterSignUp);
  });

  it('in production too: a signed-out sign-up with a NUL or invisible username is 422 and writes nothing', async () => {
    const prod = await createTestApp({ seedBoard: false, env: { NODE_ENV: 'production', PUBLIC_URL: 'https://play.example.org' } });
    try {
      const before = await tableCounts(prod);
      for (const username of [NUL, 'Ad\u200bmin', 'evil\u202Egnp.exe']) {
        const res = await prod.request('POST', '/idp/sign-up', { body: { email: 'prodnul@example.com', username } });
        expect(res.statusCode, res.body).toBe(422);
        expect((res.json() as { message: string }).message).toMatch(/^Username must/);
      }
      expectError(await prod.request('GET', '/api/players?q=%00'), 422, 'Text must not contain NUL characters');
      expect(await tableCounts(prod)).toEqual(before);
    } finally {
      await prod.close();
    }
  });

  it('tRPC callers get the same refusal', async () => {
    const user = await t.signUp('nultrpc');
    const caller = await t.caller(user);
    await expect(caller.groups.createSimple({ name: NUL })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
    await expect(caller.groups.create({ name: 'Fine\u202Egnp.exe', is_public: false, picks_public: false })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('invisible and direction-changing characters cannot make one name look like another', async () => {
    const user = await t.signUp('invisibles');
    const blankLooking = ['Ad\u3164min', '\u3164\u3164', 'Ad\u2800min', 'Ad\u034Fmin', 'Ad\uE000min', 'Ad\uD800min'];
    for (const name of ['Ad\u200bmin', 'evil\u202Egnp.exe', '\u2066Admin\u2069', 'Ad\u00admin', 'A\u2028B', ...blankLooking]) {
      const screen = await t.request('POST', '/api/auth/update-screen-name', { user, body: { screen_name: name } });
      expectError(screen, 422, /Username must not contain invisible or control characters/);
      const group = await t.request('POST', '/api/groups', { user, body: { name } });
      expectError(group, 422, /Group name must not contain invisible or control characters/);
    }
    const signUp = await t.request('POST', '/idp/sign-up', { body: { email: 'zw@example.com', username: 'Ad\u200bmin' } });
    expect(signUp.statusCode).toBe(422);
    expect((signUp.json() as { message: string }).message).toMatch(/Username must not contain invisible or control characters/);
  });

  it('names are compared in one normal form: a decomposed é is the same name as a composed one', async () => {
    const composed = await t.signUp('cafe_owner');
    const decomposed = await t.signUp('cafe_rival');
    const name = uniqueName('Caf\u00e9');
    const first = expectStatus<{ name: string }>(await t.request('POST', '/api/groups', { user: composed, body: { name } }), 200);
    expect(first.name).toBe(name);
    expectError(await t.request('POST', '/api/groups', { user: decomposed, body: { name: name.normalize('NFD') } }), 409, MESSAGES.groupExists);
    const screen = expectStatus<{ screen_name: string }>(await t.request('POST', '/api/auth/update-screen-name', { user: composed, body: { screen_name: 'Jose\u0301' } }), 200);
    expect(screen.screen_name).toBe('Jos\u00e9');
    expectError(await t.request('POST', '/api/auth/update-screen-name', { user: decomposed, body: { screen_name: 'Jos\u00e9' } }), 409);
  });

  it('names stored before the rule still read back: only inputs are checked', async () => {
    const old = await t.signUp('oldtimer');
    expectStatus(await t.request('GET', '/api/auth/me', { user: old }), 200);
    const oldName = 'Old\u200bTimer\u202E';
    const oldGroup = `Legacy\u200b group ${old.id.slice(-6)}`;
    await t.db.query(`update participant set screen_name = $2 where id = $1`, [old.id, oldName]);
    await t.db.query(`update idp_user set username = $2 where id = $1`, [old.id, oldName]);
    const [row] = await t.db.query<{ id: number }>(
      `insert into groups (id, name, is_public, picks_public, created_by) values (23456789, $1, true, false, $2) returning id`,
      [oldGroup, old.id],
    );
    await t.db.query(`insert into group_membership (group_id, participant_id, is_owner) values ($1, $2, true)`, [row!.id, old.id]);
    expect(expectStatus<{ screen_name: string }>(await t.request('GET', '/api/auth/me', { user: old }), 200).screen_name).toBe(oldName);
    expect(expectStatus<{ name: string }[]>(await t.request('GET', '/api/groups/user', { user: old }), 200).map((g) => g.name)).toContain(oldGroup);
    expect(expectStatus<{ name: string }>(await t.request('GET', `/api/groups/${row!.id}`, { user: old }), 200).name).toBe(oldGroup);
    const members = expectStatus<{ screen_name: string | null }[]>(await t.request('GET', `/api/groups/${row!.id}/members`, { user: old }), 200);
    expect(members.map((m) => m.screen_name)).toEqual([oldName]);
    expectStatus(await t.request('GET', `/api/groups/${row!.id}/leaderboard`, { user: old }), 200);
    const visitor = await t.signUp('legacyvisitor');
    expect(expectStatus<{ name: string }[]>(await t.request('GET', '/api/groups/public-groups', { user: visitor }), 200).map((g) => g.name)).toContain(oldGroup);
    // Signing in again with the stored name works too (the name is not re-validated).
    expectStatus(await t.request('POST', '/idp/sign-in', { body: { email: old.email } }), 200);
    expectStatus(await t.request('POST', '/idp/verify', { body: { email: old.email, code: await latestOutboxCode(t, old.email) } }), 200);
  });
});
