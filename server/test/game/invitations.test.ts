/**
 * The invitation card a signed-out visitor sees (what it reveals and what it never does), the
 * invite page's link-preview tags, the owner's group password, public groups after the start, and the
 * landing page's counts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_CARD_NAMES } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { JOIN_LIMITS } from '../../src/modules/groups/join-limits.js';
import type { GroupDto, ResolvedJoinLink } from '@first-round/shared/schemas';
import { PublicCountsCache } from '../../src/modules/groups/public-counts.js';
import { completeRoundOne } from '../../src/modules/draft/draft.service.js';
import { formatDeadline } from '@first-round/shared/deadline';
import { escapeHtml, INVITE_IMAGE_PATH } from '../../src/modules/join-links/invite-page.js';
import { CLIENT_DIST } from '../../src/app.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { createGroup, expectError, expectStatus, joinGroup, operatorReset, operatorStart, savePicks, uniqueName } from './helpers.js';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp();
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const get = (url: string, user?: TestUser, headers?: Record<string, string>) => t.request('GET', url, { user, headers });
const post = (url: string, body?: unknown, user?: TestUser) => t.request('POST', url, { user, body });

async function inviteLink(groupId: number, by = owner): Promise<string> {
  return expectStatus<{ token: string }>(await post('/api/groups/join-links', { group_id: groupId, expiration_hours: 24 }, by), 200).token;
}

describe('the invitation card (joinLinks.resolve, signed out)', () => {
  it('shows the group, who invited, the member count, the first screen names and the deadline, and nothing more', async () => {
    const group = await createGroup(t, owner, { password: 'hunter22' });
    const others = await Promise.all(Array.from({ length: INVITE_CARD_NAMES + 2 }, () => t.signUp()));
    for (const u of others) await joinGroup(t, u, group.id, 'hunter22');
    const token = await inviteLink(group.id);

    const card = expectStatus<ResolvedJoinLink>(await get(`/api/groups/join-links/${token}`), 200);
    expect(card).toEqual({
      group_id: group.id,
      group_name: group.name,
      expires_at: expect.any(String),
      invited_by: owner.username,
      member_count: others.length + 1,
      // Owner first, then in the order they joined; capped.
      member_names: [owner.username, ...others.map((u) => u.username)].slice(0, INVITE_CARD_NAMES),
      pick_deadline: t.deps.draft.deadline.toISOString(),
      draft_started: false,
      round_one_complete: false,
    });
    // Never an e-mail, a participant id, a password (or its hash) or a pick.
    const text = JSON.stringify(card);
    for (const u of [owner, ...others]) {
      expect(text).not.toContain(u.email);
      expect(text).not.toContain(u.id);
    }
    expect(text).not.toMatch(/scrypt|hunter2|picks/);
    // The same through tRPC, signed out.
    expect(await (await t.caller()).joinLinks.resolve({ token })).toEqual(card);
  });

  it('names no one without a screen name, and says when the draft is under way', async () => {
    const group = await createGroup(t, owner);
    const nameless = await t.signUp();
    await joinGroup(t, nameless, group.id);
    await t.db.query(`update participant set screen_name = null where id = $1`, [nameless.id]);
    const token = await inviteLink(group.id);
    await operatorStart(t);
    const card = expectStatus<ResolvedJoinLink>(await get(`/api/groups/join-links/${token}`), 200);
    expect(card).toMatchObject({ member_count: 2, member_names: [owner.username], draft_started: true, round_one_complete: false });
    expect(JSON.stringify(card)).not.toContain(nameless.id);
    await completeRoundOne(t.deps.orm.em.fork(), t.deps.draft, 'test');
    expect(expectStatus<ResolvedJoinLink>(await get(`/api/groups/join-links/${token}`), 200)).toMatchObject({ draft_started: true, round_one_complete: true });
    // A pasted link's preview says so too.
    expect((await get(`/groups/join/${token}`, undefined, { accept: 'text/html' })).body).toMatch(/<meta property="og:description" content="[^"]* · Round one is complete\." \/>/);
  });

  it('answers 404 for an unknown or expired link', async () => {
    const group = await createGroup(t, owner);
    const token = await inviteLink(group.id);
    expectError(await get(`/api/groups/join-links/${token}x`), 404, MESSAGES.joinLinkInvalid);
    await t.db.query(`update join_link set expires_at = now() - interval '1 minute' where group_id = $1`, [group.id]);
    expectError(await get(`/api/groups/join-links/${token}`), 404, MESSAGES.joinLinkInvalid);
  });
});

describe("an invite link's lifetime (joinLinks.create)", () => {
  type Link = { token: string; expires_at: string; expiration_hours: number; until_picks_lock: boolean; active_links: number };
  const create = async (body: Record<string, unknown>, by = owner) => expectStatus<Link>(await post('/api/groups/join-links', body, by), 200);

  it('lasts until picks lock when no lifetime is asked for, or exactly the hours asked for; says how many links to the group work', async () => {
    const group = await createGroup(t, owner);
    const deadline = t.deps.draft.deadline;
    t.clock.set(new Date(deadline.getTime() - 50 * 3_600_000 - 600_000));
    const untilLock = await create({ group_id: group.id });
    expect(untilLock).toMatchObject({ expires_at: deadline.toISOString(), until_picks_lock: true, expiration_hours: 51, active_links: 1 });
    const day = await create({ group_id: group.id, expiration_hours: 24 });
    expect(day).toMatchObject({ until_picks_lock: false, expiration_hours: 24, active_links: 2 });
    expect(Date.parse(day.expires_at) - (t.clock.now().getTime() + 24 * 3_600_000)).toBeLessThan(60_000);
    // Hours asked for are honoured even past the lock: such a link lets a friend in to watch.
    const longer = await create({ group_id: group.id, expiration_hours: 72 });
    expect(Date.parse(longer.expires_at)).toBeGreaterThan(deadline.getTime());
    expect(longer).toMatchObject({ until_picks_lock: false, expiration_hours: 72, active_links: 3 });
    // Expired links no longer count (nor work), and the others still do.
    t.clock.advance(25 * 3_600_000);
    expect(await create({ group_id: group.id, expiration_hours: 1 })).toMatchObject({ active_links: 3 });
    expectError(await get(`/api/groups/join-links/${day.token}`), 404, MESSAGES.joinLinkInvalid);
    expectStatus(await get(`/api/groups/join-links/${untilLock.token}`), 200);
    t.clock.set(new Date());
  });
});

describe('who may invite (members, unless the owner turns it off: groups.setMembersCanInvite)', () => {
  type Link = { token: string; active_links: number };
  const invite = (groupId: number, by?: TestUser) => post('/api/groups/join-links', { group_id: groupId, expiration_hours: 24 }, by);
  const setting = (groupId: number, on: unknown, by?: TestUser) => post(`/api/groups/${groupId}/members-can-invite`, { members_can_invite: on }, by);

  it('lets every member invite by default; once the owner turns it off only the owner can, and members\' links stop working', async () => {
    const group = await createGroup(t, owner);
    expect(group.members_can_invite).toBe(true);
    const member = await t.signUp();
    const outsider = await t.signUp();
    await joinGroup(t, member, group.id);
    expect(expectStatus(await get(`/api/groups/${group.id}/membership`, member), 200)).toMatchObject({ is_owner: false, can_invite: true });
    // To an outsider the private group answers as no group does.
    expectError(await get(`/api/groups/${group.id}/membership`, outsider), 404, MESSAGES.groupNotFound);

    const membersLink = expectStatus<Link>(await invite(group.id, member), 200);
    const ownersLink = expectStatus<Link>(await invite(group.id, owner), 200);
    expect(ownersLink.active_links).toBe(2);
    expect(expectStatus(await get(`/api/groups/join-links/${membersLink.token}`), 200)).toMatchObject({ group_id: group.id, invited_by: member.username });
    expectError(await invite(group.id, outsider), 404, MESSAGES.groupNotFound);
    expectError(await invite(group.id), 401);

    // Only the owner changes the setting.
    expectError(await setting(group.id, false, member), 403, MESSAGES.notGroupOwner);
    expectError(await setting(group.id, false, outsider), 404, MESSAGES.groupNotFound);
    expectError(await setting(group.id, 'no', owner), 422);
    const off = expectStatus<GroupDto>(await setting(group.id, false, owner), 200);
    expect(off).toMatchObject({ id: group.id, members_can_invite: false });
    expect(expectStatus(await get(`/api/groups/${group.id}`, member), 200)).toMatchObject({ members_can_invite: false });
    expect(expectStatus(await get(`/api/groups/${group.id}/membership`, member), 200)).toMatchObject({ can_invite: false });
    expect(expectStatus(await get(`/api/groups/${group.id}/membership`, owner), 200)).toMatchObject({ can_invite: true });

    // Members are refused with a reason; the owner still invites, and only the owner's links work.
    const before = await t.db.query(`select count(*)::int as n from join_link where group_id = $1`, [group.id]);
    expectError(await invite(group.id, member), 403, MESSAGES.membersCannotInvite);
    await expect((await t.caller(member)).joinLinks.create({ group_id: group.id })).rejects.toMatchObject({ code: 'FORBIDDEN', message: MESSAGES.membersCannotInvite });
    expect(await t.db.query(`select count(*)::int as n from join_link where group_id = $1`, [group.id])).toEqual(before);
    expect(expectStatus<Link>(await invite(group.id, owner), 200).active_links).toBe(2);
    expectError(await get(`/api/groups/join-links/${membersLink.token}`), 404, MESSAGES.joinLinkTurnedOff);
    const newcomer = await t.signUp();
    expectError(await post(`/api/groups/join-with-link/${membersLink.token}`, undefined, newcomer), 404, MESSAGES.joinLinkTurnedOff);
    expect(expectStatus(await post(`/api/groups/join-with-link/${ownersLink.token}`, undefined, newcomer), 200)).toMatchObject({ already_member: false });

    // Back on: members invite again, and their unexpired links work again.
    expect(expectStatus<GroupDto>(await setting(group.id, true, owner), 200).members_can_invite).toBe(true);
    expectStatus(await get(`/api/groups/join-links/${membersLink.token}`), 200);
    expectStatus(await invite(group.id, member), 200);
    // A link whose maker has left the group leads nowhere.
    await post(`/api/groups/${group.id}/leave`, undefined, member);
    expectError(await get(`/api/groups/join-links/${membersLink.token}`), 404, MESSAGES.joinLinkInvalid);
  });

  it('can be switched by the owner after the start too (links made before it may still let friends in to watch)', async () => {
    const group = await createGroup(t, owner);
    await operatorStart(t);
    expect(expectStatus<GroupDto>(await setting(group.id, false, owner), 200).members_can_invite).toBe(false);
    expectError(await invite(group.id, owner), 409, MESSAGES.joinLinksLocked);
  });
});

describe('joining after the start says what the newcomer will and will not see', () => {
  type Joined = { already_member: boolean; message: string; draft_started: boolean; round_one_complete: boolean };

  it('by id and by link: an entry-less member, told so in the answer; in final words once round one is complete', async () => {
    const group = await createGroup(t, owner, { password: 'late joiner' });
    const link = await inviteLink(group.id);
    const early = await t.signUp();
    expect(expectStatus<Joined>(await post('/api/groups/join', { group_id: group.id, password: 'late joiner' }, early), 200)).toEqual({
      success: true,
      group_id: group.id,
      already_member: false,
      message: MESSAGES.joined,
      draft_started: false,
      round_one_complete: false,
    });

    await operatorStart(t);
    const byId = await t.signUp();
    const joined = expectStatus<Joined>(await post('/api/groups/join', { group_id: group.id, password: 'late joiner' }, byId), 200);
    expect(joined).toMatchObject({ already_member: false, draft_started: true, round_one_complete: false });
    expect(joined.message).toBe(`${MESSAGES.joined}. ${MESSAGES.joinedAfterStart}`);
    expect(MESSAGES.joinedAfterStart).toBe("The draft has started: you'll see this group's standings and draft board, but you can't make picks here.");
    const byLink = await t.signUp();
    expect(expectStatus<Joined>(await post(`/api/groups/join-with-link/${link}`, undefined, byLink), 200)).toMatchObject({
      already_member: false,
      draft_started: true,
      message: `${MESSAGES.joined}. ${MESSAGES.joinedAfterStart}`,
    });
    // Joining adds no entry: nothing to save there, and nobody new in the standings.
    expectError(await post('/api/picks/', { picks: [(await t.db.query<{ id: number }>(`select id from player order by rank limit 1`))[0]!.id], group_id: group.id }, byId), 409, MESSAGES.picksLocked);
    // Someone already in hears nothing new.
    expect(expectStatus<Joined>(await post(`/api/groups/join-with-link/${link}`, undefined, byLink), 200)).toMatchObject({ already_member: true, message: MESSAGES.alreadyMember });

    await completeRoundOne(t.deps.orm.em.fork(), t.deps.draft, 'test');
    const last = expectStatus<Joined>(await post(`/api/groups/join-with-link/${link}`, undefined, await t.signUp()), 200);
    expect(last).toMatchObject({ draft_started: true, round_one_complete: true, message: `${MESSAGES.joined}. ${MESSAGES.joinedAfterRoundOne}` });
    expect(MESSAGES.joinedAfterRoundOne).toBe("Round one is complete: you'll see this group's final standings and draft board, but you can't make picks here.");
  });
});

describe('the invite page with link-preview tags (GET /groups/join/{token})', () => {
  const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)" />`).exec(html)?.[1];

  it("fills in '<owner> invited you to <group> · First Round' and the image, escaped, under the page's own policy", async () => {
    const host = await t.signUp();
    const name = `${uniqueName('Crew')} <script>alert("x")</script> & 'co'`;
    const group = await createGroup(t, host, { name });
    const token = await inviteLink(group.id, host);

    // Whatever Host the request names, links point at the configured address (server/test/public-links.test.ts).
    const res = await get(`/groups/join/${token}`, undefined, { accept: 'text/html', host: 'play.example.test' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const html = res.body;
    const title = `${host.username} invited you to ${name} · First Round`;
    expect(meta(html, 'og:title')).toBe(escapeHtml(title));
    expect(meta(html, 'twitter:title')).toBe(escapeHtml(title));
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(meta(html, 'og:image')).toBe('http://localhost:3000/og-invite.png');
    expect(meta(html, 'twitter:image')).toBe('http://localhost:3000/og-invite.png');
    expect(meta(html, 'og:url')).toBe(`http://localhost:3000/groups/join/${token}`);
    expect(meta(html, 'og:description')).toContain(`1 member · Picks lock ${escapeHtml(formatDeadline(t.deps.draft.deadline.toISOString()))}`);
    expect(html).toContain(`<title>${escapeHtml(title)}</title>`);
    // The group's name never opens a tag: no script but the page's own module script.
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;');
    expect([...html.matchAll(/<script\b[^>]*>/g)].every((m) => /src=/.test(m[0]))).toBe(true);
  });

  it('serves the plain page, without invitation tags, for a link that leads nowhere', async () => {
    for (const token of ['not-a-live-token', 'bad token!']) {
      const res = await get(`/groups/join/${encodeURIComponent(token)}`, undefined, { accept: 'text/html' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).not.toContain('og:title');
    }
  });

  it('points at a 1200×630 PNG the build ships (and the server serves once built)', async () => {
    const png = fs.readFileSync(new URL('../../../client/public/og-invite.png', import.meta.url));
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    // Served from the build (the browser suite builds it; the unit suite may run without one).
    if (fs.existsSync(path.join(CLIENT_DIST, 'og-invite.png'))) {
      const res = await get(INVITE_IMAGE_PATH);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    }
  });
});

describe("the group's password (groups.setPassword, owner only)", () => {
  it('lets the owner set a new one (stored hashed) and remove it; members get 403, outsiders 404 (as for no such group)', async () => {
    const group = await createGroup(t, owner, { password: 'first one' });
    const member = await t.signUp();
    const outsider = await t.signUp();
    await joinGroup(t, member, group.id, 'first one');

    expectError(await post(`/api/groups/${group.id}/password`, { password: 'mine now' }, member), 403, MESSAGES.notGroupOwner);
    expectError(await post(`/api/groups/${group.id}/password`, { password: 'mine now' }, outsider), 404, MESSAGES.groupNotFound);
    expectError(await post(`/api/groups/${group.id}/password`, { password: 'mine now' }), 401);
    await expect((await t.caller(member)).groups.setPassword({ group_id: group.id, password: 'mine now' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expectError(await post(`/api/groups/${group.id}/password`, { password: '   ' }, owner), 422, new RegExp(MESSAGES.groupPasswordBlank));
    expectError(await post(`/api/groups/${group.id}/password`, {}, owner), 422);
    expectError(await post('/api/groups/98765432/password', { password: 'long enough' }, owner), 404, MESSAGES.groupNotFound);

    const changed = expectStatus<GroupDto>(await post(`/api/groups/${group.id}/password`, { password: 'second one' }, owner), 200);
    expect(changed).toMatchObject({ id: group.id, has_password: true });
    expect(JSON.stringify(changed)).not.toMatch(/second|scrypt/);
    const [row] = await t.db.query<{ password_hash: string }>(`select password_hash from groups where id = $1`, [group.id]);
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('second one');
    expectError(await post('/api/groups/join', { group_id: group.id, password: 'first one' }, outsider), 403, MESSAGES.wrongGroupPassword(JOIN_LIMITS.wrongPasswordsPerGroup - 1));
    expect(expectStatus(await post('/api/groups/join', { group_id: group.id, password: 'second one' }, outsider), 200)).toMatchObject({ already_member: false });

    expect(expectStatus<GroupDto>(await post(`/api/groups/${group.id}/password`, { password: null }, owner), 200)).toMatchObject({ has_password: false });
    const late = await t.signUp();
    expect(expectStatus(await post('/api/groups/join', { group_id: group.id }, late), 200)).toMatchObject({ already_member: false });
    // Allowed after the start too: joining a private group to watch still asks for it.
    await operatorStart(t);
    expect(expectStatus<GroupDto>(await post(`/api/groups/${group.id}/password`, { password: 'third one' }, owner), 200)).toMatchObject({ has_password: true });
  });
});

describe('public groups once the draft has started', () => {
  it("refuse new members with the draft-lock message; members re-joining and private groups by id are not refused", async () => {
    const open = await createGroup(t, owner, { is_public: true });
    const closed = await createGroup(t, owner);
    const early = await t.signUp();
    await joinGroup(t, early, open.id);
    const late = await t.signUp();
    await operatorStart(t);
    const before = await t.db.query(`select count(*)::int as n from group_join_failure where participant_id = $1`, [late.id]);
    expectError(await post('/api/groups/join', { group_id: open.id }, late), 409, MESSAGES.publicGroupsLocked);
    await expect((await t.caller(late)).groups.join({ group_id: open.id })).rejects.toMatchObject({ message: MESSAGES.publicGroupsLocked });
    // Not a failed guess: nothing counted against the join limits.
    expect(await t.db.query(`select count(*)::int as n from group_join_failure where participant_id = $1`, [late.id])).toEqual(before);
    expect(expectStatus(await post('/api/groups/join', { group_id: open.id }, early), 200)).toMatchObject({ already_member: true });
    expect(expectStatus(await post('/api/groups/join', { group_id: closed.id }, late), 200)).toMatchObject({ already_member: false });
    await operatorReset(t);
    expect(expectStatus(await post('/api/groups/join', { group_id: open.id }, late), 200)).toMatchObject({ already_member: false });
  });
});

describe("the landing page's counts (groups.publicCounts)", () => {
  const counts = async () => {
    const [row] = await t.db.query<{ entries: number; groups: number }>(
      `select (select count(distinct participant_id)::int from pick where group_id = 1) as entries, (select count(*)::int from groups where id <> 1) as groups`,
    );
    return row!;
  };

  it('are open to visitors and count entries on the global leaderboard and groups', async () => {
    const body = expectStatus<{ entries: number; groups: number }>(await get('/api/groups/public-counts'), 200);
    expect(Object.keys(body).sort()).toEqual(['entries', 'groups']);
    expect(body.groups).toBeGreaterThan(0);
  });

  it('are counted once per minute, not per request', async () => {
    let now = 0;
    const cache = new PublicCountsCache(t.deps.orm, 60_000, () => now);
    const first = await cache.get();
    expect(first).toEqual(await counts());
    const player = await t.signUp();
    const board = await t.db.query<{ id: number }>(`select id from player order by rank limit 1`);
    await savePicks(t, player, [board[0]!.id]);
    await createGroup(t, player);
    // Simultaneous askers share one count; within the minute the old counts stand.
    now = 59_000;
    expect(await Promise.all([cache.get(), cache.get()])).toEqual([first, first]);
    now = 60_000;
    const fresh = await cache.get();
    expect(fresh).toEqual({ entries: first.entries + 1, groups: first.groups + 1 });
    expect(fresh).toEqual(await counts());
  });
});
