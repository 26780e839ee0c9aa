/** The game's rules end to end over REST: groups, passwords, invites, picks, privacy, the lock, standings. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rankEntries, type Entry } from '@first-round/shared/scoring';
import { MESSAGES } from '@first-round/shared/messages';
import { JOIN_LIMITS } from '../../src/modules/groups/join-limits.js';
import type { GroupDto, Leaderboard, LeaderboardRow, PlayerDto } from '@first-round/shared/schemas';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { globalOddsFromTables, withGlobalOdds } from '../support/global-odds.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import {
  createGroup,
  eventually,
  expectError,
  expectStatus,
  joinGroup,
  operatorReset,
  operatorStart,
  savePicks,
  sha256hex,
  tableCounts,
  uniqueName,
} from './helpers.js';

let t: TestApp;
let admin: TestUser;
let board: PlayerDto[];
let ids: number[];

beforeAll(async () => {
  // The NOTIFY listener runs, as in production, so leaderboard caches hear every draft change.
  t = await createTestApp({ startEvents: true });
  admin = await t.signUp('rulesop', ADMIN_EMAIL);
  board = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
  ids = board.map((p) => p.id);
});
afterAll(async () => t?.close());
afterEach(async () => {
  t.clock.set(new Date());
  await operatorReset(t);
});

const get = (url: string, user?: TestUser) => t.request('GET', url, { user });
const post = (url: string, user?: TestUser, body?: unknown) => t.request('POST', url, { user, body });

describe('creating groups', () => {
  it('makes the creator the owner; names are unique case-insensitively and trimmed', async () => {
    const user = await t.signUp();
    const name = uniqueName('Unique');
    const created = await createGroup(t, user, { name: `  ${name}  ` });
    expect(created).toMatchObject({ name, member_count: 1, is_public: false, picks_public: false, has_password: false });
    expect(expectStatus(await get(`/api/groups/${created.id}/membership`, user), 200)).toMatchObject({ is_owner: true, use_global_picks: true, entry_mode: 'linked' });
    const other = await t.signUp();
    expectError(await post('/api/groups', other, { name: name.toUpperCase() }), 409, MESSAGES.groupExists);
    expectError(await post('/api/groups/create-simple', other, { name: ` ${name.toLowerCase()}` }), 409, MESSAGES.groupExists);
    expectError(await post('/api/groups', other, { name: '   ' }), 422, /Group name is required/);
  });
});

describe('password groups', () => {
  it('stores only an scrypt hash, refuses a wrong or missing password, admits the right one once', async () => {
    const owner = await t.signUp();
    const group = await createGroup(t, owner, { password: 'open sesame' });
    expect(group.has_password).toBe(true);
    const [row] = await t.db.query<{ password_hash: string }>(`select password_hash from groups where id = $1`, [group.id]);
    expect(row!.password_hash).toMatch(/^scrypt\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]+$/);
    expect(row!.password_hash).not.toContain('open sesame');

    const joiner = await t.signUp();
    expectError(await post('/api/groups/join', joiner, { group_id: group.id, password: 'open sesame!' }), 403, MESSAGES.wrongGroupPassword(JOIN_LIMITS.wrongPasswordsPerGroup - 1));
    expectError(await post('/api/groups/join', joiner, { group_id: group.id }), 403, MESSAGES.wrongGroupPassword(JOIN_LIMITS.wrongPasswordsPerGroup - 2));
    expectError(await post('/api/groups/join', joiner, { group_id: group.id, password: '' }), 403, MESSAGES.wrongGroupPassword(JOIN_LIMITS.wrongPasswordsPerGroup - 3));
    expect(await joinGroup(t, joiner, group.id, 'open sesame')).toMatchObject({ success: true, already_member: false });
    // Joining again is a success and adds no second row (a member needs no password).
    expect(await joinGroup(t, joiner, group.id)).toMatchObject({ success: true, already_member: true });
    expect(await t.db.query(`select 1 from group_membership where group_id = $1 and participant_id = $2`, [group.id, joiner.id])).toHaveLength(1);
    expect(expectStatus(await get(`/api/groups/${group.id}/member-count`, joiner), 200)).toMatchObject({ member_count: 2 });
  });

  it('does not let anyone join or leave the global group', async () => {
    const user = await t.signUp();
    expectError(await post('/api/groups/join', user, { group_id: 1 }), 404);
    expectError(await post('/api/groups/1/leave', user), 400);
  });
});

describe('leaving', () => {
  it('keeps an owner with members; a member leaves with their group picks; the last one deletes the group', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const group = await createGroup(t, owner);
    await joinGroup(t, member, group.id);
    await savePicks(t, owner, [ids[0]!], group.id);
    await savePicks(t, member, [ids[1]!], group.id);
    expectStatus(await post('/api/groups/join-links', owner, { group_id: group.id }), 200);

    expectError(await post(`/api/groups/${group.id}/leave`, owner), 409);
    expect(expectStatus(await post(`/api/groups/${group.id}/leave`, member), 200)).toEqual({ success: true, group_deleted: false });
    expect(await t.db.query(`select 1 from pick where group_id = $1 and participant_id = $2`, [group.id, member.id])).toEqual([]);
    // No longer a member: the private group answers as no group does.
    expectError(await post(`/api/groups/${group.id}/leave`, member), 404, MESSAGES.groupNotFound);

    expect(expectStatus(await post(`/api/groups/${group.id}/leave`, owner), 200)).toEqual({ success: true, group_deleted: true });
    for (const table of ['groups', 'group_membership', 'pick', 'join_link']) {
      const column = table === 'groups' ? 'id' : 'group_id';
      expect(await t.db.query(`select 1 from ${table} where ${column} = $1`, [group.id]), table).toEqual([]);
    }
    expectError(await get(`/api/groups/${group.id}`, owner), 404);
  });
});

describe('join links', () => {
  it('members make them (unless the owner turns it off), for 1 to 720 hours or until picks lock; only the sha256 of a 128-bit+ token is stored', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const outsider = await t.signUp();
    const group = await createGroup(t, owner);
    await joinGroup(t, member, group.id);
    expectStatus(await post('/api/groups/join-links', member, { group_id: group.id, expiration_hours: 24 }), 200);
    expectError(await post('/api/groups/join-links', outsider, { group_id: group.id, expiration_hours: 24 }), 404, MESSAGES.groupNotFound);
    expectStatus(await post(`/api/groups/${group.id}/members-can-invite`, owner, { members_can_invite: false }), 200);
    expectError(await post('/api/groups/join-links', member, { group_id: group.id, expiration_hours: 24 }), 403, MESSAGES.membersCannotInvite);
    expectError(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: 0 }), 422);
    expectError(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: 721 }), 422);
    for (const hours of [1, 720]) {
      const link = expectStatus<{ token: string; expires_at: string; expiration_hours: number }>(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: hours }), 200);
      expect(link.expiration_hours).toBe(hours);
      expect(Math.abs(new Date(link.expires_at).getTime() - Date.now() - hours * 3_600_000)).toBeLessThan(60_000);
    }
    // Without hours: until picks lock.
    const link = expectStatus<{ token: string; expires_at: string; until_picks_lock: boolean }>(await post('/api/groups/join-links', owner, { group_id: group.id }), 200);
    expect(link).toMatchObject({ expires_at: t.deps.draft.deadline.toISOString(), until_picks_lock: true });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(link.token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const rows = await t.db.query<{ token_hash: string }>(`select * from join_link where group_id = $1`, [group.id]);
    expect(rows.map((r) => r.token_hash)).toContain(sha256hex(link.token));
    expect(JSON.stringify(rows)).not.toContain(link.token);
  });

  it('resolves without sign-in, joins once, and is refused when unknown or expired', async () => {
    const owner = await t.signUp();
    const group = await createGroup(t, owner, { password: 'links skip this' });
    const link = expectStatus<{ token: string }>(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: 1 }), 200);
    expect(expectStatus(await get(`/api/groups/join-links/${link.token}`), 200)).toMatchObject({ group_id: group.id, group_name: group.name });
    expectError(await get(`/api/groups/join-links/${link.token.slice(0, -1)}`), 404, MESSAGES.joinLinkInvalid);

    const joiner = await t.signUp();
    expect(expectStatus(await post(`/api/groups/join-with-link/${link.token}`, joiner), 200)).toMatchObject({ group_id: group.id, already_member: false });
    expect(expectStatus(await post(`/api/groups/join-with-link/${link.token}`, joiner), 200)).toMatchObject({ group_id: group.id, already_member: true });
    expect(await t.db.query(`select 1 from group_membership where group_id = $1 and participant_id = $2`, [group.id, joiner.id])).toHaveLength(1);

    t.clock.advance(61 * 60_000);
    const late = await t.signUp();
    expectError(await get(`/api/groups/join-links/${link.token}`), 404, MESSAGES.joinLinkInvalid);
    expectError(await post(`/api/groups/join-with-link/${link.token}`, late), 404, MESSAGES.joinLinkInvalid);
    expect(await t.db.query(`select 1 from group_membership where group_id = $1 and participant_id = $2`, [group.id, late.id])).toEqual([]);
  });
});

describe('picks', () => {
  it('takes 1 to 32 distinct existing players and replaces the whole set', async () => {
    const user = await t.signUp();
    const before = await tableCounts(t);
    expectError(await post('/api/picks/', user, { picks: [] }), 422, /Number of picks must be between/);
    expectError(await post('/api/picks/', user, { picks: ids.slice(0, 33) }), 422, /Number of picks must be between/);
    expectError(await post('/api/picks/', user, { picks: [ids[0], ids[1], ids[0]] }), 422);
    expectError(await post('/api/picks/', user, { picks: [ids[0], 987654] }), 422, /987654/);
    expect((await tableCounts(t)).pick).toBe(before.pick);

    expect((await savePicks(t, user, ids.slice(0, 32))).picks).toEqual(ids.slice(0, 32));
    expect((await savePicks(t, user, [ids[40]!, ids[35]!])).picks).toEqual([ids[35], ids[40]]);
    expect(expectStatus(await get('/api/picks/my-picks', user), 200)).toEqual({ picks: [ids[35], ids[40]], group_id: 1, use_global_picks: false, odds: expect.objectContaining({ survive: expect.any(Number) }) });
    expect(await t.db.query(`select 1 from pick where participant_id = $1`, [user.id])).toHaveLength(2);
  });

  it('needs membership for group picks; saving them turns off reusing global picks', async () => {
    const owner = await t.signUp();
    const outsider = await t.signUp();
    const group = await createGroup(t, owner);
    expectError(await post('/api/picks/', outsider, { picks: [ids[0]], group_id: group.id }), 404, MESSAGES.groupNotFound);
    expectError(await post('/api/picks/', outsider, { picks: [ids[0]], group_id: 2_000_000 }), 404);

    await savePicks(t, owner, [ids[3]!, ids[2]!]);
    const reuse = expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: true }), 200);
    expect(reuse).toMatchObject({ use_global_picks: true });
    // The group entry is now the global picks.
    expect(expectStatus(await get(`/api/picks/my-picks?group_id=${group.id}`, owner), 200)).toEqual({ picks: [ids[2], ids[3]], group_id: group.id, use_global_picks: true, odds: expect.objectContaining({ survive: expect.any(Number) }) });
    expect(expectStatus<{ has_picks: boolean }[]>(await get(`/api/groups/${group.id}/members`, owner), 200)[0]!.has_picks).toBe(true);

    await savePicks(t, owner, [ids[9]!], group.id);
    expect(expectStatus(await get(`/api/groups/${group.id}/membership`, owner), 200)).toMatchObject({ use_global_picks: false });
    expect(expectStatus(await get(`/api/picks/my-picks?group_id=${group.id}`, owner), 200)).toEqual({ picks: [ids[9]], group_id: group.id, use_global_picks: false, odds: expect.objectContaining({ survive: expect.any(Number) }) });
    // Global picks are untouched by group saves.
    expect(expectStatus(await get('/api/picks/global-picks', owner), 200)).toMatchObject({ picks: [ids[2], ids[3]] });
    // Following My Picks again drops the group's own picks; turning reuse off then forks a copy of My Picks.
    expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: true }), 200);
    expect(expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: false }), 200)).toMatchObject({ use_global_picks: false });
    expect(expectStatus(await get(`/api/picks/my-picks?group_id=${group.id}`, owner), 200)).toMatchObject({ picks: [ids[2], ids[3]] });
  });
});

describe('after the start', () => {
  async function refusals(owner: TestUser, group: GroupDto) {
    const before = await tableCounts(t);
    expectError(await post('/api/picks/', owner, { picks: [ids[0]] }), 409, MESSAGES.picksLocked);
    expectError(await post('/api/picks', owner, { picks: [ids[0]], group_id: group.id }), 409, MESSAGES.picksLocked);
    expectError(await post('/api/groups', owner, { name: uniqueName() }), 409, MESSAGES.groupsLocked);
    expectError(await post('/api/groups/create-simple', owner, { name: uniqueName() }), 409, MESSAGES.groupsLocked);
    expectError(await post('/api/groups/join-links', owner, { group_id: group.id, expiration_hours: 24 }), 409, MESSAGES.joinLinksLocked);
    expectError(await post(`/api/groups/${group.id}/use-global-picks`, owner, { use_global_picks: true }), 409, MESSAGES.picksLocked);
    expect(await tableCounts(t)).toEqual(before);
    expect(expectStatus(await get('/api/picks/my-picks', owner), 200)).toMatchObject({ picks: [ids[5]] });
  }

  it('refuses picks, groups, invites and reuse once the operator starts the draft', async () => {
    const owner = await t.signUp();
    const group = await createGroup(t, owner);
    await savePicks(t, owner, [ids[5]!]);
    expect(expectStatus(await post('/api/draft/start', admin), 200)).toMatchObject({ kind: 'start' });
    expect(expectStatus(await get('/api/draft/status'), 200)).toMatchObject({ draftHasStarted: true });
    await refusals(owner, group);
  });

  it('refuses the same once the deadline passes, without the operator', async () => {
    const owner = await t.signUp();
    const group = await createGroup(t, owner);
    await savePicks(t, owner, [ids[5]!]);
    t.clock.set(new Date(t.deps.draft.deadline.getTime() + 1000));
    expect(expectStatus(await get('/api/draft/status'), 200)).toMatchObject({ draftHasStarted: true, started_at: null });
    await refusals(owner, group);
  });
});

describe('privacy', () => {
  it('hides other participants’ picks before the start; after it, only inside picks-public groups', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const outsider = await t.signUp();
    const open = await createGroup(t, owner, { picks_public: true });
    const closed = await createGroup(t, owner, { picks_public: false });
    for (const g of [open, closed]) await joinGroup(t, member, g.id);
    await joinGroup(t, outsider, closed.id);
    await savePicks(t, owner, [ids[0]!, ids[1]!]);
    await savePicks(t, owner, [ids[2]!], open.id);
    await savePicks(t, owner, [ids[3]!], closed.id);
    await savePicks(t, member, [ids[4]!]);
    expectStatus(await post(`/api/groups/${open.id}/use-global-picks`, member, { use_global_picks: true }), 200);

    // Before the start: no path shows another participant's picks.
    for (const g of [open, closed, { id: 1 }]) {
      expectError(await get(`/api/groups/${g.id}/picks/${owner.id}`, member), 403);
    }
    const members = expectStatus<Record<string, unknown>[]>(await get(`/api/groups/${open.id}/members`, member), 200);
    expect(members.map((m) => [m.participant_id, m.has_picks])).toEqual([
      [owner.id, true],
      [member.id, true],
    ]);
    expect(JSON.stringify(members)).not.toMatch(/"picks"/);
    expect(expectStatus(await get(`/api/groups/${open.id}/leaderboard`, member), 200)).toMatchObject({ draft_started: false, rankings: [] });
    expect(expectStatus(await get('/api/groups/1/leaderboard', outsider), 200)).toMatchObject({ draft_started: false, rankings: [] });
    // Everyone still sees their own.
    expect(expectStatus(await get(`/api/groups/${open.id}/picks/${member.id}`, member), 200)).toMatchObject({ picks: [ids[4]], use_global_picks: true });

    await operatorStart(t);
    // Picks-public group: members read each other's entries (a reusing member's entry is their global picks).
    expect(expectStatus(await get(`/api/groups/${open.id}/picks/${owner.id}`, member), 200)).toMatchObject({ picks: [ids[2]], group_id: open.id });
    expect(expectStatus(await get(`/api/groups/${open.id}/picks/${member.id}`, owner), 200)).toMatchObject({ picks: [ids[4]] });
    // Not a member of the open group (a private group answers as no group does), a closed group, the
    // global group, or someone outside the group.
    expectError(await get(`/api/groups/${open.id}/picks/${owner.id}`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`/api/groups/${closed.id}/picks/${owner.id}`, member), 403);
    expectError(await get(`/api/groups/${closed.id}/picks/${owner.id}`, outsider), 403);
    expectError(await get(`/api/groups/1/picks/${owner.id}`, member), 403);
    expectError(await get(`/api/groups/${open.id}/picks/${outsider.id}`, member), 404);
    // The outsider's own calls only ever return the outsider's (empty) entries.
    expect(expectStatus(await get(`/api/picks/my-picks?group_id=${closed.id}`, outsider), 200)).toMatchObject({ picks: [] });
    expect(expectStatus(await get('/api/picks/global-picks', outsider), 200)).toMatchObject({ picks: [] });
  });
});

describe('leaderboards', () => {
  interface Who {
    user: TestUser;
    picks: number[];
  }
  const draftedRound = new Map<number, number>();
  let roundComplete = false;

  const withoutOdds = ({ odds: _odds, ...row }: LeaderboardRow) => row;

  /** Expected standings from the reference rules, with the board's ranks and the recorded results. */
  function expected(entries: Who[]) {
    const rankOf = new Map(board.map((p) => [p.id, p.rank]));
    const list: Entry[] = entries.map(({ user, picks }) => ({
      participantId: user.id,
      participantName: user.username,
      picks: picks.map((id) => ({ rank: rankOf.get(id)!, draftRound: draftedRound.get(id) ?? null })),
    }));
    const filled = [...draftedRound.values()].filter((r) => r === 1).length;
    return rankEntries(list, { roundOnePicks: t.deps.draft.roundOnePicks, filledSlots: filled, roundOneCompleteMarked: roundComplete });
  }

  it('is members-only (group 1 for everyone), empty before the start, then ranks as the rules say and follows each pick', async () => {
    const [a, b, c, d, e, outsider] = await Promise.all(Array.from({ length: 6 }, () => t.signUp()));
    const group = await createGroup(t, a!);
    for (const u of [b!, c!, d!, e!]) await joinGroup(t, u, group.id);
    // d makes the group's entry their own while they have no picks, and makes none there.
    expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, d, { use_global_picks: false }), 200);
    // Group entries: a and c tie on hits, b plays global picks, d has none, e picks a player who slides.
    const groupEntries: Who[] = [
      { user: a!, picks: [ids[0]!, ids[1]!] },
      { user: b!, picks: [ids[0]!, ids[2]!, ids[6]!] },
      { user: c!, picks: [ids[1]!, ids[0]!] },
      { user: e!, picks: [ids[0]!, ids[150]!] },
    ];
    const globalEntries: Who[] = [
      { user: a!, picks: [ids[2]!] },
      { user: b!, picks: [ids[0]!, ids[2]!, ids[6]!] },
      { user: d!, picks: [ids[6]!, ids[1]!] },
      { user: outsider!, picks: [ids[0]!] },
    ];
    // The global board is everyone's: start it from these entries only (earlier tests left global picks).
    await t.db.query(`delete from pick where group_id = 1`);
    // Deleted behind the app's back: the instance's book is read whole again, as after a resync.
    await t.deps.book.reload();
    for (const { user, picks } of globalEntries) await savePicks(t, user, picks);
    for (const { user, picks } of groupEntries) if (user !== b) await savePicks(t, user, picks, group.id);
    expectStatus(await post(`/api/groups/${group.id}/use-global-picks`, b, { use_global_picks: true }), 200);

    expectError(await get(`/api/groups/${group.id}/leaderboard`, outsider), 404, MESSAGES.groupNotFound);
    expectError(await get(`/api/groups/${group.id}/leaderboard`), 401);
    expectError(await get('/api/groups/2000000/leaderboard', outsider), 404);
    expect(expectStatus(await get(`/api/groups/${group.id}/leaderboard`, d), 200)).toEqual({ group_id: group.id, draft_started: false, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] });

    await operatorStart(t);
    const check = async () => {
      const mine = expectStatus<Leaderboard>(await get(`/api/groups/${group.id}/leaderboard`, a), 200);
      expect(mine.draft_started).toBe(true);
      // The rules' rows; the odds beside them are a forecast (held to the shared model by group-odds.test.ts).
      expect(mine.rankings.map(withoutOdds)).toEqual(expected(groupEntries));
      expect(mine.me && withoutOdds(mine.me)).toEqual(expected(groupEntries).find((r) => r.participant_id === a!.id) ?? null);
      // d has no entry in the group: ranked nowhere, no row of their own.
      expect(expectStatus<Leaderboard>(await get(`/api/groups/${group.id}/leaderboard`, d), 200).me).toBeNull();
      expect(mine.entries).toBe(groupEntries.length);
      expect(mine.alive).toBe(expected(groupEntries).filter((r) => !r.busted).length);
      const global = expectStatus<Leaderboard>(await get('/api/groups/1/leaderboard', outsider), 200);
      // The global rows with the odds the shared model gives each among every global entry (none once final).
      const globalOdds = await globalOddsFromTables(t.db, t.deps.draft.roundOnePicks);
      expect(global.rankings).toEqual(withGlobalOdds(expected(globalEntries), globalOdds));
      expect(global.me).toEqual(withGlobalOdds(expected(globalEntries), globalOdds).find((r) => r.participant_id === outsider!.id));
    };
    await check();
    expect(expected(groupEntries).every((r) => r.correct_picks === 0)).toBe(true);

    const results: [number, number][] = [
      [1, ids[2]!],
      [2, ids[0]!],
      [3, ids[6]!],
      [4, ids[1]!],
    ];
    for (const [slot, player] of results) {
      expectStatus(await post('/api/draft/picks', admin, { slot, player_id: player }), 200);
      draftedRound.set(player, 1);
      await check();
    }
    // b: three hits; a and c: two, tied on the same worst hit and so sharing a rank; e still alive.
    const standings = expected(groupEntries);
    const [tie1, tie2] = [a!.id, c!.id].sort();
    expect(standings.map((r) => [r.participant_id, r.rank, r.correct_picks])).toEqual([
      [b!.id, 1, 3],
      [tie1, 2, 2],
      [tie2, 2, 2],
      [e!.id, 4, 1],
    ]);

    // Round one ends without e's second pick: e is busted and scores 0.
    expectStatus(await post('/api/draft/complete-round', admin), 200);
    roundComplete = true;
    await check();
    expect(expected(groupEntries).find((r) => r.participant_id === e!.id)).toMatchObject({ busted: true, correct_picks: 0 });

    // Undo reopens the round; then an undone pick leaves the standings again.
    expectStatus(await post('/api/draft/undo', admin), 200);
    roundComplete = false;
    await check();
    expectStatus(await post('/api/draft/undo', admin), 200);
    draftedRound.delete(ids[1]!);
    await check();
    draftedRound.clear();
  });

  it('reflects a pick recorded elsewhere (another process) within 2 s through NOTIFY', async () => {
    const user = await t.signUp();
    await savePicks(t, user, [ids[10]!]);
    await operatorStart(t);
    const row = async () => expectStatus<Leaderboard>(await get('/api/groups/1/leaderboard', user), 200).rankings.find((r) => r.participant_id === user.id);
    expect(await row()).toMatchObject({ correct_picks: 0, busted: false });
    // Straight to the database service, as the operator's command line would: only NOTIFY tells the cache.
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'cli', 1, ids[10]!);
    await eventually(async () => expect(await row()).toMatchObject({ correct_picks: 1, tiebreak_rank: board[10]!.rank }));
  });
});
