import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@first-round/shared/messages';
import { createTestApp, ADMIN_EMAIL, type TestApp, type TestUser } from '../support/test-app.js';
import { LOCAL_ISSUER } from '../../src/modules/auth/local-idp.service.js';

/** The auth and users routers (docs/api.md), through the REST adapter and through tRPC. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;
const get = (url: string, user: TestUser, headers?: Record<string, string>) => t.request('GET', url, { user, headers });
const post = (url: string, user: TestUser, body: unknown) => t.request('POST', url, { user, body });

async function expectTrpcError(promise: Promise<unknown>, code: string, message?: string | RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e as { code: string; message: string },
  );
  expect(error, 'expected the call to fail').not.toBeNull();
  expect(error!.code).toBe(code);
  if (typeof message === 'string') expect(error!.message).toContain(message);
  else if (message) expect(error!.message).toMatch(message);
}

describe('GET /auth/me', () => {
  it('returns the profile of the signed-up user, first login pending', async () => {
    const user = await t.signUp('ProfileUser', 'profile.user@example.com');
    for (const url of ['/api/auth/me', '/auth/me']) {
      const res = await get(url, user);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        id: user.id,
        participant_id: user.id,
        email: 'profile.user@example.com',
        screen_name: 'ProfileUser',
        is_first_login: true,
        is_admin: false,
      });
    }
    expect(user.id).toMatch(/^user_/);
    const caller = await t.caller(user);
    expect(await caller.auth.me()).toEqual((await get('/api/auth/me', user)).json());
  });

  it('marks the draft operator (ADMIN_EMAILS) as admin', async () => {
    const admin = await t.signUp('operator', ADMIN_EMAIL);
    expect((await get('/api/auth/me', admin)).json()).toMatchObject({ is_admin: true, email: ADMIN_EMAIL });
  });

  it('creates the participant on the first authenticated call, once', async () => {
    const user = await t.signUp('firstcall');
    expect(await t.db.query(`select 1 from participant where id = $1`, [user.id])).toHaveLength(0);
    await Promise.all([get('/api/auth/me', user), get('/api/users/me/status', user), get('/api/auth/me', user)]);
    expect(await t.db.query(`select 1 from participant where id = $1`, [user.id])).toHaveLength(1);
  });
});

describe('/users/me/status', () => {
  it('is true for a new user, and PATCH marks the first login done (REST)', async () => {
    const user = await t.signUp('statususer');
    const first = await get('/api/users/me/status', user);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ is_first_login: true });
    const patch = await t.request('PATCH', '/api/users/me/status', { user });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toEqual({ is_first_login: false });
    expect((await get('/users/me/status', user)).json()).toEqual({ is_first_login: false });
    expect((await get('/api/auth/me', user)).json()).toMatchObject({ is_first_login: false });
    // Doing it again is harmless.
    expect((await t.request('PATCH', '/users/me/status', { user })).json()).toEqual({ is_first_login: false });
  });

  it('the same through tRPC', async () => {
    const user = await t.signUp('statustrpc');
    const caller = await t.caller(user);
    expect(await caller.users.status()).toEqual({ is_first_login: true });
    expect(await caller.users.markFirstLoginDone()).toEqual({ is_first_login: false });
    expect(await caller.users.status()).toEqual({ is_first_login: false });
  });

  it('needs a signed-in caller', async () => {
    expect((await t.request('GET', '/api/users/me/status')).statusCode).toBe(401);
    expect((await t.request('PATCH', '/api/users/me/status')).statusCode).toBe(401);
  });
});

describe('POST /auth/update-screen-name', () => {
  it('trims and saves the name; the profile shows it', async () => {
    const user = await t.signUp('renamer');
    const res = await post('/api/auth/update-screen-name', user, { screen_name: '  New Name  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, screen_name: 'New Name' });
    expect((await get('/api/auth/me', user)).json()).toMatchObject({ screen_name: 'New Name' });
  });

  it('enforces 2–32 characters with a message naming the rule (422)', async () => {
    const user = await t.signUp('rulesuser');
    for (const [name, rule] of [
      ['x', 'at least 2 characters'],
      ['   x   ', 'at least 2 characters'],
      ['    ', 'at least 2 characters'],
      ['y'.repeat(33), 'at most 32 characters'],
    ] as const) {
      const res = await post('/api/auth/update-screen-name', user, { screen_name: name });
      expect(res.statusCode, name).toBe(422);
      const body = res.json() as { message: string; detail: string; code: string };
      // The rule as a player reads it: no field path in front ('screen_name: …' is for zod's own messages).
      expect(body.message).toBe(`Username must be ${rule}`);
      expect(body.detail).toBe(body.message);
      expect(body.code).toBe('INVALID_INPUT');
    }
    expect((await post('/api/auth/update-screen-name', user, {})).statusCode).toBe(422);
    expect((await post('/api/auth/update-screen-name', user, { screen_name: 'ab' })).json()).toMatchObject({ screen_name: 'ab' });
    expect((await post('/api/auth/update-screen-name', user, { screen_name: 'z'.repeat(32) })).json()).toMatchObject({ screen_name: 'z'.repeat(32) });

    const caller = await t.caller(user);
    await expectTrpcError(caller.auth.updateScreenName({ screen_name: 'q' }), 'BAD_REQUEST', 'Username must be at least 2 characters');
    await expectTrpcError(caller.auth.updateScreenName({ screen_name: 'q'.repeat(40) }), 'BAD_REQUEST', 'Username must be at most 32 characters');
    expect((await get('/api/auth/me', user)).json()).toMatchObject({ screen_name: 'z'.repeat(32) });
  });

  it('is unique case-insensitively (409), yet a user may change the case of their own name', async () => {
    const alice = await t.signUp('AliceName');
    const bob = await t.signUp('BobName');
    for (const name of ['alicename', 'ALICENAME', '  AliceName ']) {
      const res = await post('/api/auth/update-screen-name', bob, { screen_name: name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual({ detail: 'That username is already taken', message: 'That username is already taken', code: 'CONFLICT' });
    }
    await expectTrpcError((await t.caller(bob)).auth.updateScreenName({ screen_name: 'aliceNAME' }), 'CONFLICT', 'That username is already taken');
    expect((await get('/api/auth/me', bob)).json()).toMatchObject({ screen_name: 'BobName' });

    const own = await post('/api/auth/update-screen-name', alice, { screen_name: 'ALICENAME' });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ screen_name: 'ALICENAME' });
  });

  it('is one namespace with sign-up usernames: a new name is taken for sign-up, the old one is free again', async () => {
    const carol = await t.signUp('CarolOld');
    expect((await post('/api/auth/update-screen-name', carol, { screen_name: 'CarolNew' })).statusCode).toBe(200);
    const taken = await t.request('POST', '/idp/sign-up', { body: { email: 'someone@example.com', username: 'carolnew' } });
    expect(taken.statusCode).toBe(409);
    expect((taken.json() as { message: string }).message).toBe('That username is already taken');
    const dave = await t.signUp('DaveName');
    expect((await post('/api/auth/update-screen-name', dave, { screen_name: 'carolold' })).statusCode).toBe(200);
  });

  it('is also refused against a name a user holds before their first call', async () => {
    // Eve signed up but has not made an authenticated call yet, so she has no participant row.
    const eve = await t.signUp('EveEarly');
    const frank = await t.signUp('FrankName');
    expect((await post('/api/auth/update-screen-name', frank, { screen_name: 'eveearly' })).statusCode).toBe(409);
    expect((await get('/api/auth/me', eve)).json()).toMatchObject({ screen_name: 'EveEarly' });
  });
});

describe('diagnostics never reveal the token or the cookie', () => {
  it('GET /auth/auth-test reports success, the caller, headers and token facts only', async () => {
    const user = await t.signUp('diaguser', 'diag@example.com');
    const secret = user.cookie.slice('fr_session='.length);
    const signature = user.token.split('.')[2]!;
    const res = await get('/api/auth/auth-test', user, { cookie: user.cookie, origin: 'http://localhost:3000', 'user-agent': 'vitest' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as Json & { headers: Record<string, string>; token_info: Json };
    expect(body).toMatchObject({ success: true, user_id: user.id, email: 'diag@example.com' });
    expect(typeof body.message).toBe('string');
    expect(body.headers).toMatchObject({ origin: 'http://localhost:3000', 'user-agent': 'vitest' });
    expect(body.headers.authorization).not.toContain(user.token);
    expect(body.token_info).toMatchObject({ provider: 'local', length: user.token.length });
    expect(String(body.token_info.preview).length).toBeLessThanOrEqual(20);
    expect(body.token_info.expires_in_seconds).toBeGreaterThan(0);
    expect(body.token_info.expires_in_seconds).toBeLessThanOrEqual(60);

    const text = JSON.stringify(body);
    expect(text).not.toContain(user.token);
    expect(text).not.toContain(signature);
    expect(text).not.toContain(secret);
    expect(res.body).not.toContain(user.token);

    const viaTrpc = await (await t.caller(user)).auth.authTest();
    expect(viaTrpc).toMatchObject({ success: true, user_id: user.id });
    expect(JSON.stringify(viaTrpc)).not.toContain(user.token);
    expect(JSON.stringify(viaTrpc)).not.toContain(signature);
  });

  it('reports the token’s remaining life in real time, whatever the game clock says', async () => {
    const user = await t.signUp('diagclock');
    t.clock.advance(3 * 3600_000);
    try {
      const body = (await get('/api/auth/auth-test', user)).json() as { token_info: { expires_in_seconds: number } };
      expect(body.token_info.expires_in_seconds).toBeGreaterThan(0);
      expect(body.token_info.expires_in_seconds).toBeLessThanOrEqual(60);
    } finally {
      t.clock.advance(-3 * 3600_000);
    }
  });

  it('GET /auth/jwt-debug shows the decoded header and claims and a short preview, never the token', async () => {
    const user = await t.signUp('jwtdebug');
    const signature = user.token.split('.')[2]!;
    const res = await get('/api/auth/jwt-debug', user);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { header: Json; claims: Json; token_preview: string; token_length: number; provider: string; valid: boolean };
    expect(body.provider).toBe('local');
    expect(body.valid).toBe(true);
    expect(body.header).toMatchObject({ alg: 'RS256', kid: t.deps.keys.kid });
    expect(body.claims).toMatchObject({ sub: user.id, iss: LOCAL_ISSUER, azp: 'http://localhost:3000' });
    expect(String(body.claims.sid)).toMatch(/^sess_/);
    expect(typeof body.claims.exp).toBe('number');
    expect(body.token_length).toBe(user.token.length);
    expect(body.token_preview.length).toBeLessThanOrEqual(20);
    expect(res.body).not.toContain(user.token);
    expect(res.body).not.toContain(signature);

    const viaTrpc = await (await t.caller(user)).auth.jwtDebug();
    expect(viaTrpc.claims).toMatchObject({ sub: user.id });
    expect(JSON.stringify(viaTrpc)).not.toContain(user.token);
  });

  it('both need a valid token', async () => {
    for (const url of ['/api/auth/auth-test', '/api/auth/jwt-debug']) {
      const res = await t.request('GET', url, { headers: { authorization: 'Bearer abc.def.ghi' } });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('abc.def.ghi');
    }
  });
});

describe('POST /auth/migrate-participant-id', () => {
  let seq = 0;

  /**
   * A temp_ participant with global picks, a group it created and owns, and a pick in that group. `email`:
   * the address it was made with, which is what shows whose it is (none: no one can claim it).
   */
  async function tempAccount(email: string | null = null) {
    const tempId = `temp_${Date.now()}_${++seq}`;
    await t.db.query(`insert into participant (id, email, screen_name) values ($1, $2, null)`, [tempId, email]);
    const [group] = await t.db.query<{ id: number }>(
      `insert into groups (name, is_public, picks_public, created_by) values ($1, false, false, $2) returning id`,
      [`Temp group ${tempId}`, tempId],
    );
    await t.db.query(`insert into group_membership (group_id, participant_id, is_owner, use_global_picks) values ($1, $2, true, false)`, [group!.id, tempId]);
    const players = (await t.db.query<{ id: number }>(`select id from player order by rank limit 3`)).map((p) => p.id);
    expect(players).toHaveLength(3);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2), ($1, 1, $3), ($1, $4, $5)`, [
      tempId,
      players[0],
      players[1],
      group!.id,
      players[2],
    ]);
    return { tempId, groupId: group!.id, players };
  }

  /** Everything the migration may touch, for "nothing changed" comparisons. */
  async function snapshot(...ids: string[]) {
    return {
      participants: await t.db.query(`select id from participant where id = any($1) order by id`, [ids]),
      picks: await t.db.query(`select participant_id, group_id, player_id from pick where participant_id = any($1) order by 1, 2, 3`, [ids]),
      memberships: await t.db.query(
        `select group_id, participant_id, is_owner from group_membership where participant_id = any($1) order by 1, 2`,
        [ids],
      ),
      groups: await t.db.query(`select id, created_by from groups where created_by = any($1) order by id`, [ids]),
    };
  }

  it('moves a temp_ participant’s picks, memberships and groups onto the caller, merging duplicates', async () => {
    const user = await t.signUp('migrator');
    await get('/api/auth/me', user);
    // Made with the caller's address (in other capitals): theirs.
    const { tempId, groupId, players } = await tempAccount(user.email.toUpperCase());
    // The caller already has one of the same global picks: merged, not doubled.
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2)`, [user.id, players[0]]);

    const res = await post('/api/auth/migrate-participant-id', user, { temp_id: tempId, clerk_id: user.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, moved_picks: 2, moved_memberships: 1 });
    expect(typeof (res.json() as Json).message).toBe('string');

    const global = (await get('/api/picks/my-picks', user)).json() as { picks: number[] };
    expect([...global.picks].sort()).toEqual([players[0], players[1]].sort());
    const inGroup = (await get(`/api/picks/my-picks?group_id=${groupId}`, user)).json() as { picks: number[] };
    expect(inGroup.picks).toEqual([players[2]]);
    const membership = await get(`/api/groups/${groupId}/membership`, user);
    expect(membership.statusCode).toBe(200);
    expect(membership.json()).toMatchObject({ is_owner: true });

    const after = await snapshot(tempId);
    expect(after).toEqual({ participants: [], picks: [], memberships: [], groups: [] });
    expect(await t.db.query(`select created_by from groups where id = $1`, [groupId])).toEqual([{ created_by: user.id }]);
  });

  it('works through tRPC too', async () => {
    const user = await t.signUp('migratortrpc');
    const { tempId } = await tempAccount(user.email);
    const caller = await t.caller(user);
    expect(await caller.auth.migrateParticipantId({ temp_id: tempId, clerk_id: user.id })).toMatchObject({ success: true, moved_picks: 3, moved_memberships: 1 });
    await expectTrpcError(caller.auth.migrateParticipantId({ temp_id: tempId, clerk_id: user.id }), 'NOT_FOUND');
  });

  it('refuses to move onto anyone but the caller (403), and changes nothing', async () => {
    const user = await t.signUp('notme');
    const other = await t.signUp('notmeother');
    await get('/api/auth/me', user);
    await get('/api/auth/me', other);
    const { tempId } = await tempAccount();
    const before = await snapshot(tempId, user.id, other.id);
    const res = await post('/api/auth/migrate-participant-id', user, { temp_id: tempId, clerk_id: other.id });
    expect(res.statusCode).toBe(403);
    expect((res.json() as { message: string }).message).toBeTruthy();
    await expectTrpcError((await t.caller(user)).auth.migrateParticipantId({ temp_id: tempId, clerk_id: other.id }), 'FORBIDDEN');
    expect(await snapshot(tempId, user.id, other.id)).toEqual(before);
  });

  it("refuses (403) a temp_ account that is not the caller's: made with another address, or with none; nothing moves", async () => {
    const thief = await t.signUp('tempthief');
    await get('/api/auth/me', thief);
    for (const email of [null, 'someone.else@example.com']) {
      // The takeover as it was reported: any temp_ id, the caller's own id as the target.
      const { tempId, groupId } = await tempAccount(email);
      const before = await snapshot(tempId, thief.id);
      const res = await post('/api/auth/migrate-participant-id', thief, { temp_id: tempId, clerk_id: thief.id });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.accountFixNotYours });
      await expectTrpcError((await t.caller(thief)).auth.migrateParticipantId({ temp_id: tempId, clerk_id: thief.id }), 'FORBIDDEN');
      expect(await snapshot(tempId, thief.id)).toEqual(before);
      // The group it owned is still its own, and hidden from the caller.
      expect(await t.db.query(`select participant_id, is_owner from group_membership where group_id = $1`, [groupId])).toEqual([{ participant_id: tempId, is_owner: true }]);
      expect((await get(`/api/groups/${groupId}`, thief)).statusCode).toBe(404);
    }
  });

  it('answers 404 for a temp_ id that does not exist', async () => {
    const user = await t.signUp('missingtemp');
    const res = await post('/api/auth/migrate-participant-id', user, { temp_id: 'temp_doesnotexist', clerk_id: user.id });
    expect(res.statusCode).toBe(404);
    expect((res.json() as { message: string }).message).toContain('temp_doesnotexist');
  });

  it('answers 400 for an id that is not temp_, so no real account can be taken over', async () => {
    const user = await t.signUp('thief');
    const victim = await t.signUp('victim');
    await get('/api/auth/me', user);
    await get('/api/auth/me', victim);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) select $1, 1, id from player order by rank limit 2`, [victim.id]);
    const before = await snapshot(victim.id, user.id);
    const res = await post('/api/auth/migrate-participant-id', user, { temp_id: victim.id, clerk_id: user.id });
    expect(res.statusCode).toBe(400);
    expect((res.json() as { message: string }).message).toContain('temp_');
    await expectTrpcError((await t.caller(user)).auth.migrateParticipantId({ temp_id: victim.id, clerk_id: user.id }), 'BAD_REQUEST');
    expect(await snapshot(victim.id, user.id)).toEqual(before);
  });

  it('answers 422 when a field is missing', async () => {
    const user = await t.signUp('nofields');
    expect((await post('/api/auth/migrate-participant-id', user, { temp_id: 'temp_x' })).statusCode).toBe(422);
    expect((await post('/api/auth/migrate-participant-id', user, { clerk_id: user.id })).statusCode).toBe(422);
    expect((await t.request('POST', '/api/auth/migrate-participant-id', { body: { temp_id: 'temp_x', clerk_id: 'user_x' } })).statusCode).toBe(401);
  });

  it('is one transaction: a failure at the last step leaves nothing half-moved', async () => {
    const user = await t.signUp('halfway');
    await get('/api/auth/me', user);
    const { tempId } = await tempAccount(user.email);
    const before = await snapshot(tempId, user.id);
    // Make the final step (deleting the temp participant) fail, after picks and memberships were copied.
    await t.db.query(`create or replace function fr_test_refuse_delete() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$`);
    await t.db.query(`create trigger fr_test_refuse_delete before delete on participant for each row execute function fr_test_refuse_delete()`);
    try {
      const res = await post('/api/auth/migrate-participant-id', user, { temp_id: tempId, clerk_id: user.id });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('refused by test');
      expect(await snapshot(tempId, user.id)).toEqual(before);
    } finally {
      await t.db.query(`drop trigger fr_test_refuse_delete on participant`);
    }
    // Once the obstacle is gone the same call succeeds.
    expect((await post('/api/auth/migrate-participant-id', user, { temp_id: tempId, clerk_id: user.id })).statusCode).toBe(200);
  });
});
