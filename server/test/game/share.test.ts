/**
 * Share cards: links by an unguessable token, the PNG (size, brand colour, caching), the page's preview
 * tags, and nothing about the picks before the start.
 */
import { BUST_RULE } from '@first-round/shared/entry-words';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DraftStatus, GroupDto, PlayerDto, ShareLink } from '@first-round/shared/schemas';
import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { entryOdds, oddsBoard } from '@first-round/shared/odds';
import { survivalAfterPickText } from '@first-round/shared/odds-words';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import { redactUrl } from '../../src/redact-url.js';
import { recordPick } from '../../src/modules/draft/draft.service.js';
import { BRAND, cardElement, cardText, ordinal, type ShareCard } from '../../src/modules/share/share-card.js';
import { ShareImageCache } from '../../src/modules/share/share-render.js';
import { shareCardOf } from '../../src/modules/share/share.service.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { createGroup, expectError, expectStatus, joinGroup, operatorComplete, operatorReset, operatorStart, savePicks } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let group: GroupDto;
/** The board: id and name, rank order. */
let board: { id: number; player_name: string }[];

beforeAll(async () => {
  t = await createTestApp();
  [owner, member, outsider] = [await t.signUp('shareowner'), await t.signUp('sharemember'), await t.signUp('shareoutsider')];
  board = await t.db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank`);
  group = await createGroup(t, owner);
  await joinGroup(t, member, group.id);
});
afterAll(async () => t?.close());
afterEach(async () => operatorReset(t));

const createLink = async (user: TestUser, groupId?: number) =>
  expectStatus<ShareLink>(await t.request('POST', '/api/share/links', { user, body: groupId === undefined ? {} : { group_id: groupId } }), 200);

/** Width and height from the IHDR chunk (bytes 16–23, right after the signature and the chunk header). */
function ihdrSize(png: Buffer) {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));

describe('share links', () => {
  it('are an unguessable token per entry, not the participant id, the same each time', async () => {
    const link = await createLink(member, group.id);
    expect(link.token.length).toBeGreaterThanOrEqual(22);
    expect(link.token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(link.token).not.toBe(member.id);
    expect(link.token).not.toContain(member.id);
    // Absolute, on the configured address (PUBLIC_URL; here, without it, http://localhost:PORT).
    expect(link).toEqual({ token: link.token, group_id: group.id, url: `http://localhost:3000/s/${link.token}`, image_url: `http://localhost:3000/api/share/${link.token}.png` });
    expect(await createLink(member, group.id)).toEqual(link);
    const global = await createLink(member);
    expect(global.group_id).toBe(GLOBAL_GROUP_ID);
    expect(global.token).not.toBe(link.token);
    expect((await t.db.query(`select participant_id from share_link where token = $1`, [link.token]))[0]).toEqual({ participant_id: member.id });
  });

  it('are refused for a group the caller is not in and one that does not exist alike (404), and signed out (401)', async () => {
    expectError(await t.request('POST', '/api/share/links', { user: outsider, body: { group_id: group.id } }), 404, MESSAGES.groupNotFound);
    expectError(await t.request('POST', '/api/share/links', { user: outsider, body: { group_id: 2147483647 } }), 404, MESSAGES.groupNotFound);
    expectError(await t.request('POST', '/api/share/links', { body: { group_id: group.id } }), 401);
  });

  it('answer 404 for an unknown or malformed token, as a picture and as a page', async () => {
    for (const url of ['/api/share/AAAAAAAAAAAAAAAAAAAAAAAA.png', '/api/share/short.png', '/api/share/AAAAAAAAAAAAAAAAAAAAAAAA', `/api/share/${'x'.repeat(300)}.png`]) {
      expectError(await t.request('GET', url), 404);
    }
    const page = await t.request('GET', '/s/AAAAAAAAAAAAAAAAAAAAAAAA');
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain(MESSAGES.shareLinkInvalid);
    expect(page.body).toContain('href="/sign-up"');
    expect((await t.request('GET', '/s/..%2F..')).statusCode).toBe(404);
  });

  it('stop working when the member leaves the group', async () => {
    const leaver = await t.signUp();
    await joinGroup(t, leaver, group.id);
    const link = await createLink(leaver, group.id);
    expect((await t.request('GET', link.image_url)).statusCode).toBe(200);
    expectStatus(await t.request('POST', `/api/groups/${group.id}/leave`, { user: leaver }), 200);
    expectError(await t.request('GET', link.image_url), 404, MESSAGES.shareLinkInvalid);
  });

  it('keep tokens out of the logs', () => {
    expect(redactUrl('/s/abcdefghijklmnopqrstuvwx')).toBe('/s/abcd…');
    expect(redactUrl('/api/share/abcdefghijklmnopqrstuvwx.png')).toBe('/api/share/abcd….png');
    expect(redactUrl('/groups/12')).toBe('/groups/12');
  });
});

describe('the card picture', () => {
  it('is a 1200×630 PNG on the navy background, with an ETag and a cache lifetime', async () => {
    await savePicks(t, owner, [board[0]!.id, board[1]!.id]);
    const link = await createLink(owner);
    const res = await t.request('GET', link.image_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const png = res.rawPayload;
    expect(ihdrSize(png)).toEqual({ width: 1200, height: 630 });
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([1200, 630]);
    const navy = hex(BRAND.navy);
    for (const [x, y] of [
      [4, 4],
      [1195, 4],
      [4, 600],
    ] as const) {
      const at = (y * image.width + x) * 4;
      const pixel = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!];
      pixel.forEach((v, i) => expect(Math.abs(v - navy[i]!), `pixel ${x},${y} = ${pixel.join(',')}`).toBeLessThanOrEqual(3));
    }
    // The same card again: 304 for a matching ETag; the same bytes from the cache otherwise.
    expect((await t.request('GET', link.image_url, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const again = await t.request('GET', link.image_url);
    expect(again.rawPayload.equals(png)).toBe(true);
    // A change to what it shows is a new card.
    await savePicks(t, owner, [board[0]!.id]);
    const changed = await t.request('GET', link.image_url, { headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('before the start shows how many picks are in and when they lock, never which players', async () => {
    const picked = board.slice(0, 10);
    await savePicks(t, member, picked.map((p) => p.id), group.id);
    const link = await createLink(member, group.id);
    const card = await shareCardOf(t.deps, t.deps.orm.em.fork(), link.token);
    expect(card).toMatchObject({ phase: 'before', name: member.username, group: group.name, picks: 10 });
    const text = cardText(cardElement(card)).join(' | ');
    expect(text).toContain('10 picks in');
    expect(text).toMatch(/picks lock \w{3} \w{3} \d{1,2}, \d{1,2}:\d\d [AP]M E[SD]T/);
    for (const p of picked) expect(text).not.toContain(p.player_name);
    expect(JSON.stringify(card)).not.toContain(picked[0]!.player_name);

    const page = await t.request('GET', link.url);
    expect(page.statusCode).toBe(200);
    for (const p of picked) expect(page.body).not.toContain(p.player_name);
    expect(page.body).toContain(`${member.username} · 10 picks in · First Round`);
  });

  it('after the start shows the picks as hits, misses and pending, the status and the rank; each hit with its slot and team', async () => {
    const user = await t.signUp();
    await joinGroup(t, user, group.id);
    const picked = [board[0]!, board[1]!, board[2]!];
    await savePicks(t, user, picked.map((p) => p.id), group.id);
    const link = await createLink(user, group.id);
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, picked[0]!.id);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 2, picked[1]!.id);
    const card = (await shareCardOf(t.deps, t.deps.orm.em.fork(), link.token)) as Extract<ShareCard, { phase: 'live' }>;
    expect(card).toMatchObject({ phase: 'live', name: user.username, hits: 2, busted: false, rank: 1, picks: 3 });
    expect(card.chips).toEqual([
      { name: picked[0]!.player_name, outcome: 'hit', slot: 1, team: 'TEN' },
      { name: picked[1]!.player_name, outcome: 'hit', slot: 2, team: 'JAX' },
      { name: picked[2]!.player_name, outcome: 'pending' },
    ]);
    const text = cardText(cardElement(card)).join(' | ');
    expect(text).toContain('2 hits');
    expect(text).toContain('ALIVE');
    expect(text).toContain(`1st of ${card.entries}`);
    expect(text).toContain(`Pick 1 · TEN · ${picked[0]!.player_name}`);
    expect(text).toContain(`Pick 2 · JAX · ${picked[1]!.player_name}`);
    expect(text).toContain(picked[2]!.player_name);
    // Its odds, the shared model's number for this board and draft (what My Picks says): 'after pick 2'.
    const players = expectStatus<PlayerDto[]>(await t.request('GET', '/api/players/'), 200);
    const status = expectStatus<DraftStatus>(await t.request('GET', '/api/draft/status'), 200);
    const survive = entryOdds(oddsBoard(players, snapshotOf(status, players)), picked.map((p) => p.id))!.survive;
    expect(text).toContain(`3 picks · 1 pending · ${survivalAfterPickText(survive, 2)}`);
    const png = await t.request('GET', link.image_url);
    expect(ihdrSize(png.rawPayload)).toEqual({ width: 1200, height: 630 });
    // The page writes the hits out, the team's full name behind its abbreviation, and the picture's odds.
    const page = await t.request('GET', link.url);
    expect(page.body).toContain(`<p class="detail">3 picks · 1 pending · ${survivalAfterPickText(survive, 2)}</p>`);
    expect(page.body).toContain(`<li>Pick 1 · <abbr title="Tennessee Titans">TEN</abbr> · ${picked[0]!.player_name}</li>`);
    expect(page.body).toContain(`<li>Pick 2 · <abbr title="Jacksonville Jaguars">JAX</abbr> · ${picked[1]!.player_name}</li>`);
  });

  it('once round one is final says the result, never ALIVE', async () => {
    const winner = await t.signUp();
    const other = await t.signUp();
    const final = await createGroup(t, winner);
    await joinGroup(t, other, final.id);
    await savePicks(t, winner, [board[0]!.id, board[1]!.id]);
    await savePicks(t, other, [board[0]!.id, board[5]!.id]);
    const links = [await createLink(winner, final.id), await createLink(other, final.id)];
    await operatorStart(t);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 1, board[0]!.id);
    await recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', 2, board[1]!.id);
    await operatorComplete(t);
    const [won, lost] = await Promise.all(links.map(async (l) => cardText(cardElement(await shareCardOf(t.deps, t.deps.orm.em.fork(), l.token))).join(' | ')));
    expect(won).toContain('WINNER');
    expect(won).toContain('FINAL · 1st of 2');
    expect(lost).toContain('BUSTED');
    expect(lost).toContain('FINAL · 2nd of 2');
    // A miss zeroes the entry: the card says what it had in the words every screen uses, never a bare '1 hit'.
    expect(lost).toContain('busted · had 1 hit');
    expect(lost!.split(' | ')).not.toContain('1 hit');
    // The page says why an entry busts, the slots-left way included, in the rule's one wording.
    const page = await t.request('GET', links[1]!.url);
    expect(page.body).toContain(BUST_RULE);
    for (const text of [won, lost]) expect(text).not.toContain('ALIVE');
  });
});

describe('the share page', () => {
  it('carries the preview tags, the card and a way into the game, and no script', async () => {
    const link = await createLink(owner, group.id);
    const res = await t.request('GET', link.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const meta = (key: string) => new RegExp(`<meta (property|name)="${key}" content="([^"]*)"`).exec(res.body)?.[2];
    expect(meta('og:image')).toBe(link.image_url);
    expect(meta('og:title')).toMatch(new RegExp(`^${owner.username} · .* · First Round$`));
    expect(meta('twitter:card')).toBe('summary_large_image');
    expect(meta('og:url')).toBe(link.url);
    expect(res.body).toContain(`<img src="${new URL(link.image_url).pathname}"`);
    expect(res.body).toContain('<a class="cta" href="/sign-up">Play First Round</a>');
    expect(res.body).not.toMatch(/<script/i);
  });

  it('escapes what a name holds', async () => {
    const user = await t.signUp();
    await t.request('GET', '/api/auth/me', { user });
    await t.db.query(`update participant set screen_name = $1 where id = $2`, ['<b>"x"</b>', user.id]);
    const link = await createLink(user);
    const res = await t.request('GET', link.url);
    expect(res.body).not.toContain('<b>"x"</b>');
    expect(res.body).toContain('&lt;b&gt;&quot;x&quot;&lt;/b&gt;');
  });
});

describe('pieces', () => {
  it('ordinals', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th', '112th']);
  });

  it('the image cache draws a card once, shares a drawing in progress and forgets the least recently used', async () => {
    let drawn = 0;
    const cache = new ShareImageCache(2, async (card) => {
      drawn++;
      return Buffer.from(card.name);
    });
    const card = (name: string): ShareCard => ({ phase: 'before', name, group: 'Global', picks: 1, locks: 'soon' });
    const [a1, a2] = await Promise.all([cache.png(card('a')), cache.png(card('a'))]);
    expect(a1).toBe(a2);
    expect(drawn).toBe(1);
    await cache.png(card('b'));
    await cache.png(card('a')); // a is now the most recent
    await cache.png(card('c')); // b goes
    expect(cache.size).toBe(2);
    expect(drawn).toBe(3);
    await cache.png(card('a'));
    expect(drawn).toBe(3);
    await cache.png(card('b'));
    expect(drawn).toBe(4);
  });
});
