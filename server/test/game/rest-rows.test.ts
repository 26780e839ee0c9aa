/**
 * Every row of the REST table through real HTTP at `/api<path>` (a sample also at `<path>`), and every
 * tRPC procedure through a caller. A row or procedure added without a test here fails the key checks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DraftBoard, GroupDto, Leaderboard, MyGroupStandings, SeasonLeaderboard, SeasonSummary } from '@first-round/shared/schemas';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { restRoutes } from '../../src/rest/routes.js';
import { appRouter } from '../../src/trpc/root.js';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { ADMIN_EMAIL, createTestApp, pushDeviceKeys, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, insertPastSeason, joinGroup, operatorReset, operatorStart, queueFeedItem, savePicks, uniqueName } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let admin: TestUser;
/** Private, picks public, owned by `owner`, `member` in it. */
let group: GroupDto;
/** Public, owned by `owner`. */
let publicGroup: GroupDto;
let players: number[];

beforeAll(async () => {
  t = await createTestApp();
  [owner, member, outsider, admin] = [await t.signUp('rowsowner'), await t.signUp('rowsmember'), await t.signUp('rowsoutsider'), await t.signUp('rowsop', ADMIN_EMAIL)];
  players = await boardIds(t);
  group = await createGroup(t, owner, { picks_public: true });
  publicGroup = await createGroup(t, owner, { is_public: true });
  await joinGroup(t, member, group.id);
  // A closed season (the current one is 2025): the member topped the group, the owner missed once.
  await insertPastSeason(t, 2024, [
    { id: 1, name: 'Global', entries: [{ participantId: member.id, name: member.username, hits: [true, true] }] },
    {
      id: group.id,
      name: 'Rows 2024',
      entries: [
        { participantId: member.id, name: member.username, hits: [true, true] },
        { participantId: owner.id, name: owner.username, hits: [true, false] },
      ],
    },
  ]);
});
afterAll(async () => t?.close());
afterEach(async () => {
  await operatorReset(t);
});

const get = (url: string, user?: TestUser) => t.request('GET', url, { user });
const post = (url: string, body?: unknown, user?: TestUser) => t.request('POST', url, { user, body });
const sorted = (ids: number[]) => [...ids].sort((a, b) => players.indexOf(a) - players.indexOf(b));
/** An entry's odds while round one runs: a chance in words and its `pending` picks on the kill list (the numbers are the odds tests' business). */
const entryOdds = (pending: number) =>
  expect.objectContaining({ survive: expect.any(Number), survive_text: expect.stringMatching(/ to survive$/), kill_list: expect.toSatisfy((l: unknown[]) => l.length === pending) });

/** One test per row; `p` is the prefix ('/api' or ''). Each can run more than once. */
const ROWS: Record<string, (p: string) => Promise<void>> = {
  'GET /auth/me': async (p) => {
    expect(expectStatus(await get(`${p}/auth/me`, member), 200)).toEqual({
      id: member.id,
      participant_id: member.id,
      email: member.email,
      screen_name: member.username,
      is_first_login: true,
      is_admin: false,
    });
    expect(expectStatus(await get(`${p}/auth/me`, admin), 200)).toMatchObject({ id: admin.id, is_admin: true });
    expectError(await get(`${p}/auth/me`), 401, MESSAGES.authRequired);
    expectError(await t.request('GET', `${p}/auth/me`, { headers: { authorization: 'Bearer not-a-jwt' } }), 401, MESSAGES.authRequiredSignInAgain);
  },
  'GET /auth/auth-test': async (p) => {
    const res = await get(`${p}/auth/auth-test`, member);
    const body = expectStatus<{ success: boolean; user_id: string; email: string; headers: Record<string, string>; token_info: { provider: string; length: number } }>(res, 200);
    expect(body).toMatchObject({ success: true, user_id: member.id, email: member.email, token_info: { provider: 'local', length: member.token.length } });
    expect(body.headers.authorization).toBe('Bearer [redacted]');
    expect(res.body).not.toContain(member.token);
    expectError(await get(`${p}/auth/auth-test`), 401);
  },
  'POST /auth/update-screen-name': async (p) => {
    const user = await t.signUp();
    const name = `Renamed${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`;
    expect(expectStatus(await post(`${p}/auth/update-screen-name`, { screen_name: `  ${name}  ` }, user), 200)).toMatchObject({ id: user.id, screen_name: name });
    expect(expectStatus(await get(`${p}/auth/me`, user), 200)).toMatchObject({ screen_name: name });
    // Usernames are unique case-insensitively.
    expectError(await post(`${p}/auth/update-screen-name`, { screen_name: owner.username.toUpperCase() }, user), 409, MESSAGES.usernameTaken);
    expectError(await post(`${p}/auth/update-screen-name`, { screen_name: 'x' }, user), 422);
  },
  'POST /auth/migrate-participant-id': async (p) => {
    const user = await t.signUp();
    await get(`${p}/auth/me`, user);
    const temp = `temp_${Math.random().toString(36).slice(2)}`;
    // Made with the caller's address: theirs to move (another's would be 403).
    await t.db.query(`insert into participant (id, email) values ($1, $2)`, [temp, user.email]);
    await t.db.query(`insert into pick (participant_id, group_id, player_id) values ($1, 1, $2), ($1, 1, $3)`, [temp, players[3], players[4]]);
    const body = expectStatus(await post(`${p}/auth/migrate-participant-id`, { temp_id: temp, clerk_id: user.id }, user), 200);
    expect(body).toMatchObject({ success: true, moved_picks: 2, moved_memberships: 0 });
    expect(expectStatus<{ picks: number[] }>(await get(`${p}/picks/global-picks`, user), 200).picks).toEqual([players[3], players[4]]);
    expect(await t.db.query(`select id from participant where id = $1`, [temp])).toEqual([]);
    expectError(await post(`${p}/auth/migrate-participant-id`, { temp_id: temp, clerk_id: owner.id }, user), 403);
    expectError(await post(`${p}/auth/migrate-participant-id`, { temp_id: 'user_x', clerk_id: user.id }, user), 400);
  },
  'GET /auth/jwt-debug': async (p) => {
    const res = await get(`${p}/auth/jwt-debug`, member);
    const body = expectStatus<{ provider: string; claims: { sub: string }; token_preview: string; token_length: number }>(res, 200);
    expect(body).toMatchObject({ provider: 'local', valid: true, token_length: member.token.length, claims: { sub: member.id } });
    expect(body.token_preview.length).toBeLessThan(member.token.length);
    expect(res.body).not.toContain(member.token);
  },
  'GET /users/me/status': async (p) => {
    const user = await t.signUp();
    expect(expectStatus(await get(`${p}/users/me/status`, user), 200)).toEqual({ is_first_login: true });
    expectError(await get(`${p}/users/me/status`), 401);
  },
  'PATCH /users/me/status': async (p) => {
    const user = await t.signUp();
    expect(expectStatus(await t.request('PATCH', `${p}/users/me/status`, { user }), 200)).toEqual({ is_first_login: false });
    expect(expectStatus(await get(`${p}/users/me/status`, user), 200)).toEqual({ is_first_login: false });
  },
  'GET /users/me/reminders': async (p) => {
    const user = await t.signUp();
    expect(expectStatus(await get(`${p}/users/me/reminders`, user), 200)).toEqual({ reminders: true });
    expectError(await get(`${p}/users/me/reminders`), 401);
  },
  'PATCH /users/me/reminders': async (p) => {
    const user = await t.signUp();
    await get(`${p}/auth/me`, user);
    expect(expectStatus(await t.request('PATCH', `${p}/users/me/reminders`, { user, body: { reminders: false } }), 200)).toEqual({ reminders: false });
    expect(expectStatus(await get(`${p}/users/me/reminders`, user), 200)).toEqual({ reminders: false });
    expect(expectStatus(await t.request('PATCH', `${p}/users/me/reminders`, { user, body: { reminders: true } }), 200)).toEqual({ reminders: true });
    expectError(await t.request('PATCH', `${p}/users/me/reminders`, { user, body: { reminders: 'no' } }), 422);
    expectError(await t.request('PATCH', `${p}/users/me/reminders`, { body: { reminders: false } }), 401);
  },
  'GET /groups/user': async (p) => {
    const mine = expectStatus<GroupDto[]>(await get(`${p}/groups/user`, member), 200);
    expect(mine.map((g) => g.id)).toEqual([group.id]);
    expect(mine[0]).toMatchObject({ id: group.id, group_id: group.id, name: group.name, member_count: 2, is_public: false, picks_public: true });
    expect(expectStatus(await get(`${p}/groups/user`, outsider), 200)).toEqual([]);
  },
  'GET /groups/user-with-counts': async (p) => {
    const mine = expectStatus<GroupDto[]>(await get(`${p}/groups/user-with-counts`, owner), 200);
    expect(mine.map((g) => [g.id, g.member_count])).toEqual([
      [group.id, 2],
      [publicGroup.id, 1],
    ]);
  },
  'GET /groups/my-standings': async (p) => {
    const cards = expectStatus<MyGroupStandings>(await get(`${p}/groups/my-standings`, owner), 200);
    expect(cards.groups.map((g) => g.group_id).sort()).toEqual([group.id, publicGroup.id].sort());
    expect(cards.groups.find((g) => g.group_id === group.id)).toMatchObject({ members: 2 });
    // The owner never made picks for the public group: their entry there follows My Picks.
    expect(cards.groups.find((g) => g.group_id === publicGroup.id)).toMatchObject({ members: 1, use_global_picks: true, entry_mode: 'linked' });
    for (const g of cards.groups) expect(g.standing === null || cards.draft_started).toBe(true);
    expect(expectStatus<MyGroupStandings>(await get(`${p}/groups/my-standings`, outsider), 200).groups.map((g) => g.group_id)).not.toContain(group.id);
    expectError(await get(`${p}/groups/my-standings`), 401);
  },
  'GET /groups/public-groups': async (p) => {
    const listed = expectStatus<GroupDto[]>(await get(`${p}/groups/public-groups`, outsider), 200);
    expect(listed.map((g) => g.id)).toContain(publicGroup.id);
    expect(listed.map((g) => g.id)).not.toContain(group.id);
    expect(listed.map((g) => g.id)).not.toContain(GLOBAL_GROUP_ID);
    // Groups one already belongs to are under My Groups instead.
    expect(expectStatus<GroupDto[]>(await get(`${p}/groups/public-groups`, owner), 200).map((g) => g.id)).not.toContain(publicGroup.id);
  },
  'GET /groups/public-counts': async (p) => {
    const counts = expectStatus<{ entries: number; groups: number }>(await get(`${p}/groups/public-counts`), 200);
    expect(counts).toEqual({ entries: expect.any(Number), groups: expect.any(Number) });
    expect(counts.groups).toBeGreaterThanOrEqual(2);
  },
  'POST /groups/:id/password': async (p) => {
    const own = await createGroup(t, owner);
    expect(expectStatus(await post(`${p}/groups/${own.id}/password`, { password: 'open sesame' }, owner), 200)).toMatchObject({ id: own.id, has_password: true });
    expectError(await post(`${p}/groups/${own.id}/password`, { password: 'long enough' }, outsider), 404, MESSAGES.groupNotFound);
    expectError(await post(`${p}/groups/${own.id}/password`, { password: 'long enough' }), 401);
    expect(expectStatus(await post(`${p}/groups/${own.id}/password`, { password: null }, owner), 200)).toMatchObject({ has_password: false });
    await post(`/api/groups/${own.id}/leave`, undefined, owner);
  },
  'POST /groups/join-links': async (p) => {
    const body = expectStatus<{ token: string; group_id: number; expiration_hours: number; expires_at: string }>(
      await post(`${p}/groups/join-links`, { group_id: group.id, expiration_hours: 720 }, owner),
      200,
    );
    expect(body).toMatchObject({ group_id: group.id, expiration_hours: 720 });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Math.abs(new Date(body.expires_at).getTime() - (Date.now() + 720 * 3_600_000))).toBeLessThan(60_000);
    // Members invite too, unless the owner turns it off; outsiders never.
    expect(expectStatus(await post(`${p}/groups/join-links`, { group_id: group.id, expiration_hours: 24 }, member), 200)).toMatchObject({ group_id: group.id, until_picks_lock: false });
    expectError(await post(`${p}/groups/join-links`, { group_id: group.id }, outsider), 404, MESSAGES.groupNotFound);
  },
  'POST /groups/:id/members-can-invite': async (p) => {
    const own = await createGroup(t, owner);
    expect(expectStatus(await post(`${p}/groups/${own.id}/members-can-invite`, { members_can_invite: false }, owner), 200)).toMatchObject({ id: own.id, members_can_invite: false });
    expectError(await post(`${p}/groups/${own.id}/members-can-invite`, { members_can_invite: true }, outsider), 404, MESSAGES.groupNotFound);
    expectError(await post(`${p}/groups/${own.id}/members-can-invite`, { members_can_invite: true }), 401);
    expectError(await post(`${p}/groups/${own.id}/members-can-invite`, {}, owner), 422);
    expect(expectStatus(await post(`${p}/groups/${own.id}/members-can-invite`, { members_can_invite: true }, owner), 200)).toMatchObject({ members_can_invite: true });
    await post(`/api/groups/${own.id}/leave`, undefined, owner);
  },
  'GET /groups/join-links/:token': async (p) => {
    const link = expectStatus<{ token: string }>(await post('/api/groups/join-links', { group_id: group.id }, owner), 200);
    expect(expectStatus(await get(`${p}/groups/join-links/${link.token}`), 200)).toMatchObject({
      group_id: group.id,
      group_name: group.name,
      invited_by: owner.username,
      member_count: 2,
      member_names: [owner.username, member.username],
      draft_started: false,
    });
    expectError(await get(`${p}/groups/join-links/${link.token}x`), 404, MESSAGES.joinLinkInvalid);
  },
  'POST /groups/join-with-link/:token': async (p) => {
    const link = expectStatus<{ token: string }>(await post('/api/groups/join-links', { group_id: group.id, expiration_hours: 1 }, owner), 200);
    const joiner = await t.signUp();
    expect(expectStatus(await post(`${p}/groups/join-with-link/${link.token}`, undefined, joiner), 200)).toMatchObject({ success: true, group_id: group.id, already_member: false });
    expect(expectStatus(await post(`${p}/groups/join-with-link/${link.token}`, undefined, joiner), 200)).toMatchObject({ success: true, already_member: true });
    expect(await t.db.query(`select 1 from group_membership where group_id = $1 and participant_id = $2`, [group.id, joiner.id])).toHaveLength(1);
    expectError(await post(`${p}/groups/join-with-link/${link.token}`), 401);
    await post(`/api/groups/${group.id}/leave`, undefined, joiner);
  },
  'POST /share/links': async (p) => {
    const link = expectStatus<{ token: string; group_id: number; url: string; image_url: string }>(await post(`${p}/share/links`, { group_id: group.id }, member), 200);
    expect(link).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9_-]{22,}$/), group_id: group.id, url: `http://localhost:3000/s/${link.token}`, image_url: `http://localhost:3000/api/share/${link.token}.png` });
    expect(link.token).not.toContain(member.id);
    // The same entry, the same link; no body is the global entry.
    expect(expectStatus(await post(`${p}/share/links`, { group_id: group.id }, member), 200)).toEqual(link);
    expect(expectStatus<{ group_id: number }>(await post(`${p}/share/links`, undefined, member), 200).group_id).toBe(GLOBAL_GROUP_ID);
    expect((await get(link.image_url)).headers['content-type']).toBe('image/png');
    expectError(await post(`${p}/share/links`, { group_id: group.id }, outsider), 404, MESSAGES.groupNotFound);
    expectError(await post(`${p}/share/links`, { group_id: 2147483647 }, member), 404, MESSAGES.groupNotFound);
    expectError(await post(`${p}/share/links`, { group_id: group.id }), 401);
  },
  'POST /groups/create-simple': async (p) => {
    const name = uniqueName('Simple');
    const created = expectStatus<GroupDto>(await post(`${p}/groups/create-simple`, { name }, outsider), 200);
    expect(created).toMatchObject({ name, is_public: false, picks_public: false, has_password: false, member_count: 1 });
    expect(expectStatus(await get(`${p}/groups/${created.id}/membership`, outsider), 200)).toMatchObject({ is_owner: true, is_member: true });
    await post(`/api/groups/${created.id}/leave`, undefined, outsider);
  },
  'POST /groups/join': async (p) => {
    const joiner = await t.signUp();
    expect(expectStatus(await post(`${p}/groups/join`, { group_id: publicGroup.id }, joiner), 200)).toMatchObject({ success: true, group_id: publicGroup.id, already_member: false });
    expect(expectStatus(await post(`${p}/groups/join`, { group_id: publicGroup.id }, joiner), 200)).toMatchObject({ success: true, already_member: true });
    expectError(await post(`${p}/groups/join`, { group_id: 987654 }, joiner), 404, MESSAGES.groupNotFound);
    await post(`/api/groups/${publicGroup.id}/leave`, undefined, joiner);
  },
  'POST /groups': async (p) => {
    const name = uniqueName('Created');
    const created = expectStatus<GroupDto>(await post(`${p}/groups`, { name, is_public: true, picks_public: true, password: 'password' }, outsider), 200);
    expect(created).toMatchObject({ name, is_public: true, picks_public: true, has_password: true, member_count: 1 });
    expect(JSON.stringify(created)).not.toContain('scrypt');
    expectError(await post(`${p}/groups`, { name: name.toUpperCase() }, member), 409, MESSAGES.groupExists);
    await post(`/api/groups/${created.id}/leave`, undefined, outsider);
  },
  'GET /groups/:id': async (p) => {
    expect(expectStatus(await get(`${p}/groups/${group.id}`, member), 200)).toMatchObject({ id: group.id, name: group.name, member_count: 2, members_can_invite: true });
    // Public groups are open to every signed-in user; private ones to members (to anyone else: no such group).
    expect(expectStatus(await get(`${p}/groups/${publicGroup.id}`, outsider), 200)).toMatchObject({ id: publicGroup.id });
    expectError(await get(`${p}/groups/${group.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/groups/999999`, member), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/groups/${GLOBAL_GROUP_ID}`, member), 404);
    expectError(await get(`${p}/groups/${group.id}`), 401);
  },
  'POST /groups/:id/leave': async (p) => {
    const leaver = await t.signUp();
    const own = await createGroup(t, leaver);
    await joinGroup(t, member, own.id);
    expectError(await post(`${p}/groups/${own.id}/leave`, undefined, leaver), 409);
    expect(expectStatus(await post(`${p}/groups/${own.id}/leave`, undefined, member), 200)).toEqual({ success: true, group_deleted: false });
    expect(expectStatus(await post(`${p}/groups/${own.id}/leave`, undefined, leaver), 200)).toEqual({ success: true, group_deleted: true });
    expectError(await get(`${p}/groups/${own.id}`, leaver), 404);
  },
  'GET /groups/:id/member-count': async (p) => {
    expect(expectStatus(await get(`${p}/groups/${group.id}/member-count`, member), 200)).toEqual({ group_id: group.id, member_count: 2 });
    expectError(await get(`${p}/groups/${group.id}/member-count`, outsider), 404, MESSAGES.groupNotFound);
  },
  'GET /groups/:id/membership': async (p) => {
    // The public group's entry was never forked: it follows My Picks.
    expect(expectStatus(await get(`${p}/groups/${publicGroup.id}/membership`, owner), 200)).toEqual({
      group_id: publicGroup.id,
      participant_id: owner.id,
      is_member: true,
      is_owner: true,
      use_global_picks: true,
      entry_mode: 'linked',
      can_invite: true,
    });
    expect(expectStatus(await get(`${p}/groups/${group.id}/membership`, member), 200)).toMatchObject({ is_member: true, is_owner: false, can_invite: true });
    // Of a public group one is not in, the answer says so; a private one answers as no group does (404).
    expect(expectStatus(await get(`${p}/groups/${publicGroup.id}/membership`, outsider), 200)).toMatchObject({ is_member: false, is_owner: false, entry_mode: null, can_invite: false });
    expectError(await get(`${p}/groups/${group.id}/membership`, outsider), 404, MESSAGES.groupNotFound);
  },
  'GET /groups/:id/members': async (p) => {
    const members = expectStatus<Record<string, unknown>[]>(await get(`${p}/groups/${group.id}/members`, member), 200);
    expect(members.map((m) => [m.participant_id, m.participant_name, m.is_owner])).toEqual([
      [owner.id, owner.username, true],
      [member.id, member.username, false],
    ]);
    for (const m of members) expect(Object.keys(m).sort()).toEqual(['entry_mode', 'has_picks', 'is_owner', 'joined', 'participant_id', 'participant_name', 'screen_name']);
    expectError(await get(`${p}/groups/${group.id}/members`, outsider), 404, MESSAGES.groupNotFound);
  },
  'GET /groups/:id/leaderboard': async (p) => {
    await savePicks(t, owner, [players[0]!, players[1]!], group.id);
    await savePicks(t, member, [players[0]!], group.id);
    const before = { group_id: group.id, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] };
    expect(expectStatus(await get(`${p}/groups/${group.id}/leaderboard`, member), 200)).toEqual(before);
    expect(expectStatus(await get(`${p}/groups/1/leaderboard`, outsider), 200)).toEqual({ ...before, group_id: 1 });
    expectError(await get(`${p}/groups/${group.id}/leaderboard`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/groups/1/leaderboard`), 401);

    await operatorStart(t);
    expectStatus(await post('/api/draft/picks', { slot: 1, player_id: players[1] }, admin), 200);
    // Owner: 1 hit (rank 2) and 1 pending; member: 0 hits, 1 pending. A page at a time, with the caller's row.
    const full = expectStatus<Leaderboard>(await get(`${p}/groups/${group.id}/leaderboard`, member), 200);
    expect(full).toMatchObject({ draft_started: true, entries: 2, alive: 2 });
    expect(full.rankings.map((r) => [r.participant_id, r.rank, r.correct_picks])).toEqual([
      [owner.id, 1, 1],
      [member.id, 2, 0],
    ]);
    expect(full.me).toEqual(full.rankings[1]);
    const page = expectStatus<Leaderboard>(await get(`${p}/groups/${group.id}/leaderboard?limit=1&offset=1`, member), 200);
    expect(page).toMatchObject({ entries: 2, rankings: [full.rankings[1]], me: full.rankings[1] });
    expect(expectStatus<Leaderboard>(await get(`${p}/groups/${group.id}/leaderboard?limit=1&offset=0`, owner), 200)).toMatchObject({ rankings: [full.rankings[0]], me: full.rankings[0] });
    expectError(await get(`${p}/groups/${group.id}/leaderboard?limit=0`, member), 422);
    // A name search and a status, from the query string.
    const found = expectStatus<Leaderboard>(await get(`${p}/groups/${group.id}/leaderboard?search=${encodeURIComponent(member.username.toUpperCase())}&status=alive`, owner), 200);
    expect(found).toMatchObject({ rankings: [full.rankings[1]], matches: 1, entries: 2, me_position: null });
    expect(full).toMatchObject({ matches: 2, me_position: 1 });
    expectError(await get(`${p}/groups/${group.id}/leaderboard?status=gone`, member), 422);
  },
  'GET /groups/:id/draft-board': async (p) => {
    await savePicks(t, owner, [players[0]!, players[1]!], group.id);
    await savePicks(t, member, [players[1]!, players[2]!], group.id);
    expectError(await get(`${p}/groups/${group.id}/draft-board`, member), 409, MESSAGES.draftBoardBeforeStart);
    expectError(await get(`${p}/groups/${group.id}/draft-board`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/groups/${group.id}/draft-board`), 401, MESSAGES.authRequired);
    await operatorStart(t);
    expectStatus(await post('/api/draft/picks', { slot: 1, player_id: players[1] }, admin), 200);
    const board = expectStatus<DraftBoard>(await get(`${p}/groups/${group.id}/draft-board`, member), 200);
    expect(board).toMatchObject({ group_id: group.id, picks_visible: true, round_one_complete: false, entries: 2, alive: 2 });
    expect(board.slots).toHaveLength(32);
    expect(board.slots[0]).toMatchObject({ slot: 1, player: { id: players[1] }, had_by: expect.arrayContaining([{ participant_id: owner.id, participant_name: owner.username }]) });
    expect(board.slots[0]!.had_by).toHaveLength(2);
    expect(board.slots[1]).toEqual({ slot: 2, team: 'JAX', player: null, had_by: [], had_by_count: 0 });
    expect(board.waiting_on.map((w) => [w.player_id, w.needed_by.map((m) => m.participant_id)])).toEqual([
      [players[0], [owner.id]],
      [players[2], [member.id]],
    ]);
    expectError(await get(`${p}/groups/${group.id}/draft-board`, outsider), 404, MESSAGES.groupNotFound);
  },
  'POST /groups/:id/use-global-picks': async (p) => {
    expect(expectStatus(await post(`${p}/groups/${group.id}/use-global-picks`, { use_global_picks: true }, member), 200)).toMatchObject({
      group_id: group.id,
      is_member: true,
      use_global_picks: true,
      entry_mode: 'linked',
    });
    expect(expectStatus(await post(`${p}/groups/${group.id}/use-global-picks`, { use_global_picks: false }, member), 200)).toMatchObject({ use_global_picks: false, entry_mode: 'own' });
    expectError(await post(`${p}/groups/${group.id}/use-global-picks`, { use_global_picks: true }, outsider), 404, MESSAGES.groupNotFound);
  },
  'GET /groups/:id/picks/:participantId': async (p) => {
    await savePicks(t, owner, [players[0]!, players[5]!], group.id);
    expect(expectStatus(await get(`${p}/groups/${group.id}/picks/${owner.id}`, owner), 200)).toMatchObject({ picks: [players[0], players[5]] });
    expectError(await get(`${p}/groups/${group.id}/picks/${owner.id}`, member), 403);
    await operatorStart(t);
    expect(expectStatus(await get(`${p}/groups/${group.id}/picks/${owner.id}`, member), 200)).toMatchObject({ picks: [players[0], players[5]], group_id: group.id });
    expectError(await get(`${p}/groups/${group.id}/picks/${owner.id}`, outsider), 404, MESSAGES.groupNotFound);
  },
  'GET /picks/my-picks': async (p) => {
    const global = [players[9]!, players[2]!, players[30]!];
    const groupPicks = [players[7]!];
    await savePicks(t, member, global);
    await savePicks(t, member, groupPicks, group.id);
    expect(expectStatus(await get(`${p}/picks/my-picks`, member), 200)).toEqual({ picks: sorted(global), group_id: 1, use_global_picks: false, odds: entryOdds(3) });
    expect(expectStatus(await get(`${p}/picks/my-picks?group_id=${group.id}`, member), 200)).toEqual({ picks: groupPicks, group_id: group.id, use_global_picks: false, odds: entryOdds(1) });
    expectError(await get(`${p}/picks/my-picks?group_id=${group.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/picks/my-picks?group_id=abc`, member), 422);
  },
  'GET /picks/global-picks': async (p) => {
    const user = await t.signUp();
    expect(expectStatus(await get(`${p}/picks/global-picks`, user), 200)).toEqual({ picks: [], group_id: 1, use_global_picks: false, odds: null });
    await savePicks(t, user, [players[11]!, players[1]!]);
    expect(expectStatus(await get(`${p}/picks/global-picks`, user), 200)).toEqual({ picks: [players[1], players[11]], group_id: 1, use_global_picks: false, odds: entryOdds(2) });
  },
  'POST /picks/': async (p) => {
    const user = await t.signUp();
    expect(expectStatus(await post(`${p}/picks/`, { picks: [players[20]!, players[3]!] }, user), 200)).toEqual({ success: true, picks: [players[3], players[20]], group_id: 1 });
    expectError(await post(`${p}/picks/`, { picks: [] }, user), 422, /Number of picks must be between/);
  },
  'GET /players/': async (p) => {
    const list = expectStatus<{ id: number; rank: number; draft_round: number | null }[]>(await get(`${p}/players/`), 200);
    expect(list.map((x) => x.id)).toEqual(players);
    expect(list[0]).toMatchObject({ rank: 1, draft_round: null, draft_pick: null });
  },
  'GET /draft/status': async (p) => {
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({
      draftHasStarted: false,
      started_at: null,
      picks_made: 0,
      round_one_complete: false,
      round_one_picks: 32,
      deadline: new Date('2099-04-23T20:00:00-04:00').toISOString(),
    });
  },
  'POST /draft/start': async (p) => {
    expectError(await post(`${p}/draft/start`, undefined, owner), 403);
    expectError(await post(`${p}/draft/start`), 401);
    expect(expectStatus(await post(`${p}/draft/start`, undefined, admin), 200)).toMatchObject({ kind: 'start' });
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({ draftHasStarted: true });
    expectError(await post(`${p}/draft/start`, undefined, admin), 409);
  },
  'POST /draft/picks': async (p) => {
    expectError(await post(`${p}/draft/picks`, { slot: 1, player_id: players[0] }, admin), 409);
    await operatorStart(t);
    expect(expectStatus(await post(`${p}/draft/picks`, { slot: 1, player_id: players[0] }, admin), 200)).toMatchObject({
      kind: 'pick',
      slot: 1,
      player: { id: players[0], draft_round: 1, draft_pick: 1 },
    });
    expect(expectStatus<{ draft_round: number | null }[]>(await get('/api/players'), 200)[0]).toMatchObject({ draft_round: 1, draft_pick: 1 });
    expectError(await post(`${p}/draft/picks`, { slot: 1, player_id: players[1] }, admin), 409);
    expectError(await post(`${p}/draft/picks`, { slot: 2, player_id: players[0] }, admin), 409);
    expectError(await post(`${p}/draft/picks`, { slot: 33, player_id: players[1] }, admin), 400);
    expectError(await post(`${p}/draft/picks`, { slot: 2, player_id: 999999 }, admin), 404);
    expectError(await post(`${p}/draft/picks`, { slot: 2, player_id: players[1] }, member), 403);
  },
  'POST /draft/undo': async (p) => {
    await operatorStart(t);
    expectError(await post(`${p}/draft/undo`, undefined, admin), 409);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, players[4]!);
    expect(expectStatus(await post(`${p}/draft/undo`, undefined, admin), 200)).toMatchObject({ kind: 'undo', slot: 1, player: { id: players[4] } });
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({ picks_made: 0 });
  },
  'GET /draft/undo': async (p) => {
    expect(expectStatus(await get(`${p}/draft/undo`, admin), 200)).toEqual({ change: null });
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, players[4]!);
    expect(expectStatus(await get(`${p}/draft/undo`, admin), 200)).toEqual({
      change: { kind: 'undo', slot: 1, player_name: expect.any(String), team: null, team_before: null },
    });
    expectError(await get(`${p}/draft/undo`, member), 403);
    expectError(await get(`${p}/draft/undo`), 401);
  },
  'POST /draft/order': async (p) => {
    // Pick 31 went to PHI in a trade; given back to BUF, then the undo returns it.
    expect(expectStatus(await post(`${p}/draft/order`, { slot: 31, team: 'BUF' }, admin), 200)).toMatchObject({ kind: 'team', slot: 31, team: 'BUF', team_before: 'PHI' });
    expect(expectStatus<{ round_one_order: { slot: number; team: string }[] }>(await get(`${p}/draft/status`), 200).round_one_order[30]).toEqual({ slot: 31, team: 'BUF' });
    expectError(await post(`${p}/draft/order`, { slot: 31, team: 'BUF' }, admin), 409, 'Pick 31 already belongs to BUF (Buffalo Bills)');
    expectError(await post(`${p}/draft/order`, { slot: 31, team: 'PHI' }, member), 403);
    expect(expectStatus(await post(`${p}/draft/undo`, undefined, admin), 200)).toMatchObject({ kind: 'undo_team', slot: 31, team: 'PHI', team_before: 'BUF' });
  },
  'POST /draft/complete-round': async (p) => {
    expectError(await post(`${p}/draft/complete-round`, undefined, admin), 409);
    await operatorStart(t);
    expect(expectStatus(await post(`${p}/draft/complete-round`, undefined, admin), 200)).toMatchObject({ kind: 'complete_round' });
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({ round_one_complete: true });
    expectError(await post(`${p}/draft/complete-round`, undefined, admin), 409);
    // Undo reopens the round.
    expect(expectStatus(await post(`${p}/draft/undo`, undefined, admin), 200)).toMatchObject({ kind: 'reopen_round' });
  },
  'POST /draft/reset': async (p) => {
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, players[2]!);
    expect(expectStatus(await post(`${p}/draft/reset`, undefined, admin), 200)).toMatchObject({ kind: 'reset' });
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({ draftHasStarted: false, picks_made: 0 });
    expectError(await post(`${p}/draft/reset`, undefined, member), 403);
  },
  'GET /standings/public': async (p) => {
    // Signed out or in, the same page, and never the caller's own row (it is nobody's).
    const anonymous = expectStatus<{ group_id: number; me: unknown; rankings: unknown[] }>(await get(`${p}/standings/public`), 200);
    expect(anonymous).toMatchObject({ group_id: GLOBAL_GROUP_ID, me: null });
    expect(expectStatus(await get(`${p}/standings/public`, member), 200)).toEqual(anonymous);
  },
  'GET /draft/field': async (p) => {
    const user = await t.signUp();
    await savePicks(t, user, [players[30]!]);
    expectError(await get(`${p}/draft/field`, user), 409, MESSAGES.fieldBeforeStart);
    expectError(await get(`${p}/draft/field?group_id=${group.id}`, member), 409, MESSAGES.fieldBeforeStart);
    expectError(await get(`${p}/draft/field?group_id=${group.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/draft/field`), 401, MESSAGES.authRequired);
    await operatorStart(t);
    const field = expectStatus<{ player_id: number; picked_by: number; entries: number; share: number }[]>(await get(`${p}/draft/field`, outsider), 200);
    expect(field.find((r) => r.player_id === players[30])?.picked_by).toBeGreaterThanOrEqual(1);
    // Every row: the scope's entries, and the share rounded to 4 decimals; most picked first.
    for (const r of field) expect(r).toMatchObject({ entries: field[0]!.entries, share: Math.round((r.picked_by / r.entries) * 10_000) / 10_000 });
    expect(field.map((r) => r.picked_by)).toEqual(field.map((r) => r.picked_by).sort((x, y) => y - x));
    expect(expectStatus(await get(`${p}/draft/field?group_id=1`, outsider), 200)).toEqual(field);
    expect(expectStatus(await get(`${p}/draft/field?group_id=${group.id}`, member), 200)).toEqual(expect.any(Array));
    expectError(await get(`${p}/draft/field?group_id=${group.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/draft/field?group_id=0`, member), 422);
  },
  'GET /draft/feed': async (p) => {
    const id = await queueFeedItem(t, { slot: 20, suggested: players[19]! });
    const feed = expectStatus<{ configured: boolean; kind: string; lag_seconds: number | null; queue: { id: number; slot: number }[] }>(await get(`${p}/draft/feed`, admin), 200);
    expect(feed).toMatchObject({ configured: false, kind: 'generic', lag_seconds: null });
    expect(feed.queue).toContainEqual(expect.objectContaining({ id, slot: 20, suggested: expect.objectContaining({ id: players[19] }) }));
    expectError(await get(`${p}/draft/feed`, member), 403);
    expectError(await get(`${p}/draft/feed`), 401);
  },
  'POST /draft/feed/queue/:id/confirm': async (p) => {
    const id = await queueFeedItem(t, { slot: 21, suggested: players[20]! });
    expectError(await post(`${p}/draft/feed/queue/${id}/confirm`, {}, admin), 409);
    await operatorStart(t);
    expectError(await post(`${p}/draft/feed/queue/${id}/confirm`, {}, member), 403);
    const done = expectStatus<{ item: { status: string }; event_id: number }>(await post(`${p}/draft/feed/queue/${id}/confirm`, { player_id: players[21] }, admin), 200);
    expect(done.item.status).toBe('confirmed');
    expect(expectStatus(await get(`${p}/draft/status`), 200)).toMatchObject({ picks_made: 1 });
    expectError(await post(`${p}/draft/feed/queue/${id}/confirm`, {}, admin), 409);
  },
  'POST /draft/feed/queue/:id/dismiss': async (p) => {
    const id = await queueFeedItem(t, { slot: 22, suggested: null });
    expectError(await post(`${p}/draft/feed/queue/${id}/dismiss`, undefined, member), 403);
    expect(expectStatus<{ item: { status: string } }>(await post(`${p}/draft/feed/queue/${id}/dismiss`, undefined, admin), 200).item.status).toBe('dismissed');
    expectError(await post(`${p}/draft/feed/queue/${id}/dismiss`, undefined, admin), 409);
  },
  'GET /seasons': async (p) => {
    const seasons = expectStatus<SeasonSummary[]>(await get(`${p}/seasons`, outsider), 200);
    expect(seasons.map((s) => [s.year, s.current])).toEqual([
      [2025, true],
      [2024, false],
    ]);
    expect(seasons[0]?.deadline).toBe(t.config.deadline.toISOString());
    expect(seasons[1]).toMatchObject({ entries: 1, winners: [{ participant_id: member.id, participant_name: member.username }], winning_score: 2, my_rank: null });
    expect(expectStatus<SeasonSummary[]>(await get(`${p}/seasons?group_id=${group.id}`, owner), 200)[1]).toMatchObject({ entries: 2, winning_score: 2, my_rank: 2 });
    expectError(await get(`${p}/seasons?group_id=${group.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/seasons?group_id=abc`, owner), 422);
    expectError(await get(`${p}/seasons`), 401);
  },
  'GET /seasons/:year/leaderboard': async (p) => {
    const board = expectStatus<SeasonLeaderboard>(await get(`${p}/seasons/2024/leaderboard`, member), 200);
    expect(board).toMatchObject({ year: 2024, group_id: 1, group_name: 'Global', entries: 1, me: { rank: 1, correct_picks: 2 } });
    expect(board.me?.pick_list?.map((k) => k.hit)).toEqual([true, true]);
    // Others' global picks are theirs alone.
    expect(expectStatus<SeasonLeaderboard>(await get(`${p}/seasons/2024/leaderboard`, outsider), 200).rankings[0]?.pick_list).toBeNull();
    expectError(await get(`${p}/seasons/2023/leaderboard`, member), 404, MESSAGES.seasonNotFound(2023));
    expectError(await get(`${p}/seasons/2025/leaderboard`, member), 404, MESSAGES.seasonNotClosed(2025));
    expectError(await get(`${p}/seasons/twenty/leaderboard`, member), 422);
    expectError(await get(`${p}/seasons/2024/leaderboard`), 401);
  },
  'GET /seasons/:year/groups/:id/leaderboard': async (p) => {
    const board = expectStatus<SeasonLeaderboard>(await get(`${p}/seasons/2024/groups/${group.id}/leaderboard?limit=1`, owner), 200);
    // The name it had then; a page of one, and the caller's own row with its ✓ and ✗.
    expect(board).toMatchObject({ group_name: 'Rows 2024', entries: 2, rankings: [{ participant_id: member.id, rank: 1 }], me: { rank: 2, busted: true, hits: 1 } });
    expect(board.me?.pick_list?.map((k) => k.hit)).toEqual([true, false]);
    // The group's picks are public: members see each other's.
    expect(board.rankings[0]?.pick_list).toHaveLength(2);
    expectError(await get(`${p}/seasons/2024/groups/${group.id}/leaderboard`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/seasons/2024/groups/${publicGroup.id}/leaderboard`, owner), 404, MESSAGES.groupNotInSeason(2024));
    expectError(await get(`${p}/seasons/2024/groups/999999/leaderboard`, owner), 404, MESSAGES.groupNotFound);
    expectError(await get(`${p}/seasons/2024/groups/${group.id}/leaderboard?offset=-1`, owner), 422);
  },
  'GET /draft/events': async (p) => {
    await post(`${p}/draft/start`, undefined, admin);
    const events = expectStatus<{ kind: string; actor: string; id: number }[]>(await get(`${p}/draft/events`, admin), 200);
    expect(events[0]).toMatchObject({ kind: 'start', actor: ADMIN_EMAIL });
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => b - a));
    expectError(await get(`${p}/draft/events`, owner), 403);
  },
};

const rowKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

describe('REST rows at /api', () => {
  it('has a test for every row of the table, and no test for a row that is gone', () => {
    expect(Object.keys(ROWS).sort()).toEqual(restRoutes.map(rowKey).sort());
  });
  for (const route of restRoutes) {
    it(rowKey(route), () => ROWS[rowKey(route)]!('/api'));
  }

  it("answers as each row's auth says: 401 signed out unless public, 403 for a player on an operator's row", async () => {
    for (const route of restRoutes) {
      const url = `/api${route.path.replace(':id', String(group.id)).replace(':year', '2024').replace(':token', 'sometoken').replace(':participantId', member.id)}`;
      const body = route.method === 'GET' ? undefined : {};
      const signedOut = await t.request(route.method, url, { body });
      if (route.auth === 'public') {
        expect(signedOut.statusCode, `${rowKey(route)} → ${signedOut.body}`).not.toBe(401);
        expect(signedOut.statusCode, `${rowKey(route)} → ${signedOut.body}`).toBeLessThan(500);
      } else {
        expect(expectError(signedOut, 401, MESSAGES.authRequired).code, rowKey(route)).toBe('UNAUTHORIZED');
      }
      if (route.auth === 'admin') expect(expectError(await t.request(route.method, url, { user: member, body }), 403).code, rowKey(route)).toBe('FORBIDDEN');
    }
  });
});

describe('REST rows without the prefix', () => {
  const SAMPLE = ['GET /players/', 'GET /draft/status', 'GET /groups/:id/leaderboard', 'POST /groups/join', 'GET /picks/my-picks', 'POST /picks/', 'GET /groups/:id/members', 'POST /groups/join-links'];
  for (const key of SAMPLE) it(key, () => ROWS[key]!(''));

  it('answers both spellings of a path, with and without the trailing slash (the original contract writes /picks/ and /players/)', async () => {
    for (const p of ['/api', '']) {
      const user = await t.signUp();
      expect(expectStatus(await post(`${p}/picks`, { picks: [players[6]!] }, user), 200)).toEqual({ success: true, picks: [players[6]], group_id: 1 });
      expectError(await post(`${p}/picks`, { picks: [players[6]!] }), 401);
      expectError(await post(`${p}/picks`, { picks: [] }, user), 422, /Number of picks must be between/);
      expect(expectStatus(await post(`${p}/picks/`, { picks: [players[7]!] }, user), 200)).toEqual({ success: true, picks: [players[7]], group_id: 1 });
      expect(expectStatus<unknown[]>(await get(`${p}/players`, member), 200)).toHaveLength(players.length);
      expect(expectStatus<unknown[]>(await get(`${p}/players/`), 200)).toHaveLength(players.length);
      // And the other way round: a slash added to a path written without one.
      expect(expectStatus(await get(`${p}/draft/status/`), 200)).toMatchObject({ draftHasStarted: false });
      expect(expectStatus(await get(`${p}/picks/global-picks/`, user), 200)).toEqual({ picks: [players[7]], group_id: 1, use_global_picks: false, odds: entryOdds(1) });
    }
  });

  it('answers a browser navigation on an unprefixed path with the page, and /api with JSON', async () => {
    const page = await t.request('GET', `/groups/${group.id}`, { user: member, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const api = await t.request('GET', `/api/groups/${group.id}`, { user: member, headers: { accept: 'text/html' } });
    expect(expectStatus(api, 200)).toMatchObject({ id: group.id });
  });

  it('documents every row in /api/openapi.json', async () => {
    const doc = expectStatus<{ paths: Record<string, Record<string, unknown>> }>(await get('/api/openapi.json'), 200);
    for (const route of restRoutes) {
      const path = `/api${route.path.replace(/:(\w+)/g, '{$1}')}`;
      expect(doc.paths[path]?.[route.method.toLowerCase()], rowKey(route)).toBeDefined();
    }
  });
});

describe('every procedure through a caller', () => {
  type Caller = Awaited<ReturnType<TestApp['caller']>>;
  const PROCEDURES: Record<string, (c: Caller, admin: Caller) => Promise<void>> = {
    'auth.me': async (c) => expect(await c.auth.me()).toMatchObject({ id: member.id, is_admin: false }),
    'auth.authTest': async (c) => expect(await c.auth.authTest()).toMatchObject({ success: true, user_id: member.id }),
    'auth.jwtDebug': async (c) => expect(await c.auth.jwtDebug()).toMatchObject({ valid: true, claims: { sub: member.id } }),
    'auth.updateScreenName': async (c) => expect(await c.auth.updateScreenName({ screen_name: member.username })).toMatchObject({ screen_name: member.username }),
    'auth.migrateParticipantId': async (c) => {
      const temp = `temp_${Math.random().toString(36).slice(2)}`;
      await t.db.query(`insert into participant (id, email) values ($1, $2)`, [temp, member.email]);
      expect(await c.auth.migrateParticipantId({ temp_id: temp, clerk_id: member.id })).toMatchObject({ success: true, moved_picks: 0 });
    },
    'users.status': async (c) => expect(await c.users.status()).toHaveProperty('is_first_login'),
    'users.markFirstLoginDone': async (c) => expect(await c.users.markFirstLoginDone()).toEqual({ is_first_login: false }),
    'users.reminders': async (c) => expect(await c.users.reminders()).toEqual({ reminders: true }),
    'users.setReminders': async (c) => {
      expect(await c.users.setReminders({ reminders: false })).toEqual({ reminders: false });
      expect(await c.users.reminders()).toEqual({ reminders: false });
      expect(await c.users.setReminders({ reminders: true })).toEqual({ reminders: true });
    },
    'groups.mine': async (c) => expect((await c.groups.mine()).map((g) => g.id)).toContain(group.id),
    'groups.publicGroups': async (c) => expect((await c.groups.publicGroups()).map((g) => g.id)).toContain(publicGroup.id),
    'groups.get': async (c) => expect(await c.groups.get({ group_id: group.id })).toMatchObject({ name: group.name }),
    'groups.create': async (c) => {
      const created = await c.groups.create({ name: uniqueName(), is_public: false, picks_public: false });
      expect(created.member_count).toBe(1);
      await c.groups.leave({ group_id: created.id });
    },
    'groups.createSimple': async (c) => {
      const created = await c.groups.createSimple({ name: uniqueName() });
      expect(created).toMatchObject({ is_public: false, picks_public: false });
      await c.groups.leave({ group_id: created.id });
    },
    'groups.join': async (c) => expect(await c.groups.join({ group_id: group.id })).toMatchObject({ success: true, already_member: true }),
    'groups.leave': async (c) => {
      await c.groups.join({ group_id: publicGroup.id });
      expect(await c.groups.leave({ group_id: publicGroup.id })).toEqual({ success: true, group_deleted: false });
    },
    'groups.memberCount': async (c) => expect(await c.groups.memberCount({ group_id: group.id })).toEqual({ group_id: group.id, member_count: 2 }),
    'groups.membership': async (c) => expect(await c.groups.membership({ group_id: group.id })).toMatchObject({ is_member: true, is_owner: false, can_invite: true }),
    'groups.members': async (c) => expect(await c.groups.members({ group_id: group.id })).toHaveLength(2),
    'groups.draftBoard': async (c) => {
      await expect(c.groups.draftBoard({ group_id: group.id })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.draftBoardBeforeStart });
      await operatorStart(t);
      const board = await c.groups.draftBoard({ group_id: group.id });
      expect(board).toMatchObject({ group_id: group.id, picks_visible: true, round_one_complete: false });
      expect(board.slots.map((s) => s.slot)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    },
    'groups.useGlobalPicks': async (c) => expect(await c.groups.useGlobalPicks({ group_id: group.id, use_global_picks: false })).toMatchObject({ use_global_picks: false }),
    'groups.setPassword': async (c) => {
      // The member is no owner: refused; the owner may.
      await expect(c.groups.setPassword({ group_id: group.id, password: 'password' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const own = await createGroup(t, member);
      expect(await c.groups.setPassword({ group_id: own.id, password: 'password' })).toMatchObject({ has_password: true });
      await c.groups.leave({ group_id: own.id });
    },
    'groups.setMembersCanInvite': async (c) => {
      // The member is no owner: refused; the owner may.
      await expect(c.groups.setMembersCanInvite({ group_id: group.id, members_can_invite: false })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const own = await createGroup(t, member);
      expect(await c.groups.setMembersCanInvite({ group_id: own.id, members_can_invite: false })).toMatchObject({ members_can_invite: false });
      await c.groups.leave({ group_id: own.id });
    },
    'groups.publicCounts': async () => expect(await (await t.caller()).groups.publicCounts()).toEqual({ entries: expect.any(Number), groups: expect.any(Number) }),
    'joinLinks.create': async (c, a) => {
      const link = await c.joinLinks.create({ group_id: group.id, expiration_hours: 2 });
      expect(link).toMatchObject({ group_id: group.id, expiration_hours: 2, until_picks_lock: false });
      expect(await a.joinLinks.resolve({ token: link.token })).toMatchObject({ group_id: group.id, invited_by: member.username });
    },
    'joinLinks.resolve': async () => {
      const link = await (await t.caller(owner)).joinLinks.create({ group_id: group.id, expiration_hours: 2 });
      expect(await (await t.caller()).joinLinks.resolve({ token: link.token })).toMatchObject({ group_id: group.id, group_name: group.name });
    },
    'joinLinks.join': async (c) => {
      const link = await (await t.caller(owner)).joinLinks.create({ group_id: group.id, expiration_hours: 2 });
      expect(await c.joinLinks.join({ token: link.token })).toMatchObject({ success: true, already_member: true });
    },
    'picks.mine': async (c) => {
      await c.groups.useGlobalPicks({ group_id: group.id, use_global_picks: false });
      const saved = await c.picks.save({ picks: [players[4]!, players[3]!], group_id: group.id });
      expect(await c.picks.mine({ group_id: group.id })).toEqual({ picks: saved.picks, group_id: group.id, use_global_picks: false, odds: entryOdds(2) });
      expect(new Set(saved.picks)).toEqual(new Set([players[3], players[4]]));
    },
    'picks.global': async (c) => expect(await c.picks.global()).toMatchObject({ group_id: 1 }),
    'picks.save': async (c) => expect(await c.picks.save({ picks: [players[1]!, players[0]!] })).toEqual({ success: true, picks: [players[0], players[1]], group_id: 1 }),
    'picks.ofParticipant': async (c) => {
      // Before the start a player reads only their own entry (everyone's is hidden until the lock).
      await c.groups.useGlobalPicks({ group_id: group.id, use_global_picks: false });
      const saved = await c.picks.save({ picks: [players[5]!], group_id: group.id });
      expect(await c.picks.ofParticipant({ group_id: group.id, participant_id: member.id })).toEqual({ picks: saved.picks, group_id: group.id, use_global_picks: false });
      expect(saved.picks).toEqual([players[5]]);
    },
    'players.list': async (c) => expect(await c.players.list()).toHaveLength(players.length),
    'draft.status': async (c) => expect(await c.draft.status()).toMatchObject({ draftHasStarted: false }),
    'draft.start': async (_c, a) => expect(await a.draft.start()).toMatchObject({ kind: 'start' }),
    'draft.recordPick': async (_c, a) => {
      await operatorStart(t);
      expect(await a.draft.recordPick({ slot: 3, player_id: players[2]! })).toMatchObject({ kind: 'pick', slot: 3 });
    },
    'draft.undo': async (_c, a) => {
      await operatorStart(t);
      await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, players[0]!);
      expect(await a.draft.undo()).toMatchObject({ kind: 'undo', slot: 1 });
    },
    'draft.nextUndo': async (_c, a) => {
      await operatorStart(t);
      await a.draft.completeRound();
      expect(await a.draft.nextUndo()).toEqual({ change: { kind: 'reopen_round', slot: null, player_name: null, team: null, team_before: null } });
    },
    'draft.setTeam': async (_c, a) => {
      expect(await a.draft.setTeam({ slot: 2, team: 'cle' })).toMatchObject({ kind: 'team', slot: 2, team: 'CLE', team_before: 'JAX' });
      expect(await a.draft.undo()).toMatchObject({ kind: 'undo_team', slot: 2, team: 'JAX' });
    },
    'draft.completeRound': async (_c, a) => {
      await operatorStart(t);
      expect(await a.draft.completeRound()).toMatchObject({ kind: 'complete_round' });
    },
    'draft.reset': async (_c, a) => expect(await a.draft.reset()).toMatchObject({ kind: 'reset' }),
    'draft.feed': async (_c, a) => {
      const id = await queueFeedItem(t, { slot: 23, suggested: players[22]! });
      expect((await a.draft.feed()).queue.map((q) => q.id)).toContain(id);
    },
    'draft.feedConfirm': async (_c, a) => {
      await operatorStart(t);
      const id = await queueFeedItem(t, { slot: 24, suggested: players[23]! });
      expect(await a.draft.feedConfirm({ id })).toMatchObject({ item: { id, status: 'confirmed', slot: 24 } });
    },
    'draft.feedDismiss': async (_c, a) => {
      const id = await queueFeedItem(t, { slot: 25, suggested: null });
      expect(await a.draft.feedDismiss({ id })).toMatchObject({ item: { id, status: 'dismissed' }, event_id: null });
    },
    'draft.auditLog': async (_c, a) => {
      await operatorStart(t);
      const pick = await a.draft.recordPick({ slot: 7, player_id: players[6]! });
      await a.draft.undo();
      const [undo, recorded, ...earlier] = await a.draft.auditLog();
      // Newest first, each change as it was made: the undo names the pick it took back.
      const name = pick.player!.player_name;
      expect(recorded).toMatchObject({ id: pick.event_id, kind: 'pick', slot: 7, player_id: players[6], player_name: name, actor: admin.email });
      expect(undo).toMatchObject({ kind: 'undo', slot: 7, player_id: players[6], player_name: name, actor: admin.email });
      expect(undo!.id).toBeGreaterThan(recorded!.id);
      expect(earlier.map((e) => e.id)).toEqual([...earlier.map((e) => e.id)].sort((x, y) => y - x));
      expect(Date.parse(undo!.created_at)).toBeGreaterThanOrEqual(Date.parse(recorded!.created_at));
    },
    'draft.changes': async (c, a) => {
      await a.draft.start();
      const [latest] = await a.draft.auditLog();
      // A reconnecting client gets what it missed since its last event id.
      const stream = (await c.draft.changes({ lastEventId: String(latest!.id - 1) }))[Symbol.asyncIterator]();
      try {
        const first = await stream.next();
        expect(JSON.stringify(first.value)).toContain('"kind":"start"');
      } finally {
        await stream.return?.(undefined);
      }
    },
    'draft.publicChanges': async (_c, a) => {
      await a.draft.start();
      const [latest] = await a.draft.auditLog();
      // A signed-out caller: the change it missed, then the public top 100 after it.
      const stream = (await (await t.caller()).draft.publicChanges({ lastEventId: String(latest!.id - 1) }))[Symbol.asyncIterator]();
      try {
        expect(JSON.stringify((await stream.next()).value)).toContain('"kind":"start"');
        const page = JSON.stringify((await stream.next()).value);
        expect(page).toContain(`"${latest!.id}"`);
        expect(page).toContain('"kind":"standings"');
        expect(page).toContain('"me":null');
      } finally {
        await stream.return?.(undefined);
      }
    },
    'leaderboard.group': async (c) =>
      expect(await c.leaderboard.group({ group_id: group.id })).toEqual({ group_id: group.id, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] }),
    'leaderboard.public': async () =>
      expect(await (await t.caller()).leaderboard.public()).toEqual({ group_id: GLOBAL_GROUP_ID, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] }),
    'leaderboard.field': async (c) => {
      await expect(c.leaderboard.field({ group_id: group.id })).rejects.toMatchObject({ code: 'CONFLICT', message: MESSAGES.fieldBeforeStart });
      await operatorStart(t);
      expect(await c.leaderboard.field()).toEqual(expect.any(Array));
    },
    'share.createLink': async (c) => {
      const link = await c.share.createLink({ group_id: group.id });
      expect(link).toMatchObject({ group_id: group.id, url: `http://localhost:3000/s/${link.token}` });
      expect(await c.share.createLink({})).toMatchObject({ group_id: GLOBAL_GROUP_ID });
    },
    'seasons.list': async (c) => expect((await c.seasons.list({ group_id: group.id })).map((s) => s.year)).toEqual([2025, 2024]),
    'seasons.globalLeaderboard': async (c) => expect(await c.seasons.globalLeaderboard({ year: 2024 })).toMatchObject({ entries: 1, me: { participant_id: member.id } }),
    'seasons.groupLeaderboard': async (c) => {
      expect(await c.seasons.groupLeaderboard({ year: 2024, group_id: group.id })).toMatchObject({ group_name: 'Rows 2024', entries: 2 });
      await expect(c.seasons.groupLeaderboard({ year: 2030, group_id: group.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: MESSAGES.seasonNotFound(2030) });
    },
    'push.publicKey': async (c) => expect((await c.push.publicKey()).public_key).toMatch(/^[A-Za-z0-9_-]{87}$/),
    'push.status': async (c) => expect(await c.push.status({ endpoint: 'https://push.example.test/rows-none' })).toEqual({ subscribed: false, delay_seconds: null }),
    'push.subscribe': async (c, other) => {
      const device = { endpoint: 'https://fcm.googleapis.com/fcm/send/rows', keys: pushDeviceKeys() };
      expect(await c.push.subscribe({ ...device, delay_seconds: 45 })).toEqual({ ok: true });
      expect(await c.push.status({ endpoint: device.endpoint })).toEqual({ subscribed: true, delay_seconds: 45 });
      expect(await other.push.status({ endpoint: device.endpoint })).toEqual({ subscribed: false, delay_seconds: null });
    },
    'push.unsubscribe': async (c) => {
      await c.push.subscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-off', keys: pushDeviceKeys() });
      expect(await c.push.unsubscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-off' })).toEqual({ ok: true });
      expect(await c.push.unsubscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-off' })).toEqual({ ok: false });
    },
    'push.setDelay': async (c, other) => {
      await c.push.subscribe({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-delay', keys: pushDeviceKeys() });
      expect(await c.push.setDelay({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-delay', delay_seconds: 10 })).toEqual({ ok: true });
      await expect(other.push.setDelay({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-delay', delay_seconds: 0 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
      expect(await c.push.status({ endpoint: 'https://fcm.googleapis.com/fcm/send/rows-delay' })).toEqual({ subscribed: true, delay_seconds: 10 });
    },
    'push.preferences': async (c) => expect(await c.push.preferences()).toEqual({ busted: true, final: true, reminder: true }),
    'push.setPreferences': async (c, other) => {
      expect(await c.push.setPreferences({ busted: false, final: true, reminder: false })).toEqual({ busted: false, final: true, reminder: false });
      expect(await c.push.preferences()).toEqual({ busted: false, final: true, reminder: false });
      expect(await other.push.preferences()).toEqual({ busted: true, final: true, reminder: true });
      await c.push.setPreferences({ busted: true, final: true, reminder: true });
    },
    'leaderboard.myGroups': async (c) => {
      const cards = await c.leaderboard.myGroups();
      expect(cards.draft_started).toBe(false);
      expect(cards.groups.find((g) => g.group_id === group.id)).toMatchObject({ members: 2, standing: null });
    },
  };

  it('has a test for every procedure', () => {
    expect(Object.keys(PROCEDURES).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());
  });
  for (const name of Object.keys(PROCEDURES)) {
    it(name, async () => PROCEDURES[name]!(await t.caller(member), await t.caller(admin)));
  }
});
