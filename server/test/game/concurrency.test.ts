/** Many requests at once: joins, saves, creates and invites never leave duplicates or mixed state. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MESSAGES } from '@first-round/shared/messages';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, uniqueName } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let players: number[];

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('concowner');
  players = await boardIds(t);
});
afterAll(async () => t?.close());

const memberships = async (groupId: number, participantId: string) =>
  (await t.db.query(`select 1 from group_membership where group_id = $1 and participant_id = $2`, [groupId, participantId])).length;

it('50 simultaneous joins of one user to one group all succeed and leave one membership', async () => {
  const group = await createGroup(t, owner, { is_public: true, password: 'password' });
  // A brand-new user: even the participant row is created by these concurrent first calls.
  const joiner = await t.signUp();
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => t.request('POST', '/api/groups/join', { user: joiner, body: { group_id: group.id, password: 'password' } })),
  );
  for (const res of answers) expect(expectStatus(res, 200)).toMatchObject({ success: true, group_id: group.id });
  expect(answers.filter((r) => (r.json() as { already_member: boolean }).already_member === false)).toHaveLength(1);
  expect(await memberships(group.id, joiner.id)).toBe(1);
  expect(expectStatus(await t.request('GET', `/api/groups/${group.id}/member-count`, { user: joiner }), 200)).toEqual({ group_id: group.id, member_count: 2 });
});

it('50 simultaneous joins with one invite link leave one membership', async () => {
  const group = await createGroup(t, owner);
  const { token } = expectStatus<{ token: string }>(await t.request('POST', '/api/groups/join-links', { user: owner, body: { group_id: group.id } }), 200);
  const joiner = await t.signUp();
  const answers = await Promise.all(Array.from({ length: 50 }, () => t.request('POST', `/api/groups/join-with-link/${token}`, { user: joiner })));
  for (const res of answers) expect(expectStatus(res, 200)).toMatchObject({ success: true });
  expect(answers.filter((r) => (r.json() as { already_member: boolean }).already_member === false)).toHaveLength(1);
  expect(await memberships(group.id, joiner.id)).toBe(1);
});

it('20 simultaneous saves of different pick sets leave exactly one of them, never a mix', async () => {
  const saver = await t.signUp();
  await t.request('GET', '/api/auth/me', { user: saver });
  // Sets of different sizes and overlapping members, so a mix would be visible.
  const sets = Array.from({ length: 20 }, (_, i) => players.slice(i * 3, i * 3 + 1 + (i % 7) * 4));
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(sets.map((picks) => t.request('POST', '/api/picks/', { user: saver, body: { picks } })));
    for (const res of answers) expectStatus(res, 200);
    const stored = (await t.db.query<{ player_id: number }>(`select player_id from pick where participant_id = $1 and group_id = 1 order by player_id`, [saver.id])).map((r) => r.player_id);
    const matching = sets.filter((s) => JSON.stringify([...s].sort((a, b) => a - b)) === JSON.stringify(stored));
    expect(matching, `stored ${stored.join(',')}`).toHaveLength(1);
    // And the API reports the same set.
    const mine = expectStatus<{ picks: number[] }>(await t.request('GET', '/api/picks/my-picks', { user: saver }), 200);
    expect([...mine.picks].sort((a, b) => a - b)).toEqual(stored);
  }
});

it('simultaneous saves to a group and globally do not disturb each other', async () => {
  const saver = await t.signUp();
  const group = await createGroup(t, saver);
  const globalSets = Array.from({ length: 10 }, (_, i) => players.slice(100 + i, 105 + i));
  const groupSets = Array.from({ length: 10 }, (_, i) => players.slice(i, i + 2 + i));
  const answers = await Promise.all([
    ...globalSets.map((picks) => t.request('POST', '/api/picks/', { user: saver, body: { picks } })),
    ...groupSets.map((picks) => t.request('POST', '/api/picks/', { user: saver, body: { picks, group_id: group.id } })),
  ]);
  for (const res of answers) expectStatus(res, 200);
  const read = async (groupId: number) =>
    (await t.db.query<{ player_id: number }>(`select player_id from pick where participant_id = $1 and group_id = $2 order by player_id`, [saver.id, groupId])).map((r) => r.player_id);
  const norm = (s: number[]) => JSON.stringify([...s].sort((a, b) => a - b));
  expect(globalSets.map(norm)).toContain(norm(await read(1)));
  expect(groupSets.map(norm)).toContain(norm(await read(group.id)));
});

it('10 simultaneous creates of one name (any case) make one group; the rest hear it exists', async () => {
  const name = uniqueName('Race');
  const creators = await Promise.all(Array.from({ length: 10 }, () => t.signUp()));
  const answers = await Promise.all(
    creators.map((user, i) => t.request('POST', '/api/groups', { user, body: { name: i % 2 ? name.toUpperCase() : name.toLowerCase() } })),
  );
  expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
  for (const res of answers.filter((r) => r.statusCode !== 200)) expectError(res, 409, MESSAGES.groupExists);
  expect(await t.db.query(`select id from groups where lower(name) = lower($1)`, [name])).toHaveLength(1);
});

it('members leaving at once: the group ends with its owner, or is deleted once, never half', async () => {
  const solo = await t.signUp();
  const group = await createGroup(t, solo);
  const others = await Promise.all(Array.from({ length: 8 }, () => t.signUp()));
  for (const user of others) expectStatus(await t.request('POST', '/api/groups/join', { user, body: { group_id: group.id } }), 200);
  const answers = await Promise.all(others.map((user) => t.request('POST', `/api/groups/${group.id}/leave`, { user })));
  for (const res of answers) expect(expectStatus(res, 200)).toEqual({ success: true, group_deleted: false });
  expect(expectStatus(await t.request('GET', `/api/groups/${group.id}/member-count`, { user: solo }), 200)).toMatchObject({ member_count: 1 });
  // The last member (the owner) and a stray second request: one deletes, the other finds nothing.
  const last = await Promise.all([t.request('POST', `/api/groups/${group.id}/leave`, { user: solo }), t.request('POST', `/api/groups/${group.id}/leave`, { user: solo })]);
  expect(last.map((r) => r.statusCode).sort()).toEqual([200, 404]);
  expect(await t.db.query(`select 1 from groups where id = $1`, [group.id])).toEqual([]);
});

it('saving group picks while leaving never leaves picks behind for a non-member, nor fails with a 5xx', async () => {
  const groupOwner = await t.signUp();
  const group = await createGroup(t, groupOwner);
  const user = await t.signUp();
  const stray = () =>
    t.db.query(
      `select 1 from pick p where p.group_id = $1 and p.participant_id = $2
          and not exists (select 1 from group_membership m where m.group_id = p.group_id and m.participant_id = p.participant_id)`,
      [group.id, user.id],
    );
  for (let i = 0; i < 20; i++) {
    expectStatus(await t.request('POST', '/api/groups/join', { user, body: { group_id: group.id } }), 200);
    const [save, leave] = await Promise.all([
      t.request('POST', '/api/picks/', { user, body: { picks: [players[i]], group_id: group.id } }),
      t.request('POST', `/api/groups/${group.id}/leave`, { user }),
    ]);
    expectStatus(leave, 200);
    // Either the save came first (and the leave removed its picks) or it found the user gone: to a
    // non-member a private group answers as no group does.
    if (save.statusCode !== 200) expectError(save, 404, MESSAGES.groupNotFound);
    expect(await stray(), `round ${i}`).toEqual([]);
  }
});

it('saving group picks while the last member leaves (deleting the group) is a 200 or a clean refusal, never a 5xx', async () => {
  for (let i = 0; i < 10; i++) {
    const solo = await t.signUp();
    const group = await createGroup(t, solo);
    const [save, leave] = await Promise.all([
      t.request('POST', '/api/picks/', { user: solo, body: { picks: [players[i]], group_id: group.id } }),
      t.request('POST', `/api/groups/${group.id}/leave`, { user: solo }),
    ]);
    expect(expectStatus(leave, 200)).toEqual({ success: true, group_deleted: true });
    // Refused with the truth as the save saw it: the group is gone, or the user no longer in it.
    if (save.statusCode === 404) expectError(save, 404, MESSAGES.groupNotFound);
    else if (save.statusCode !== 200) expectError(save, 403, MESSAGES.notGroupMember);
    expect(await t.db.query(`select 1 from pick where group_id = $1`, [group.id])).toEqual([]);
  }
});

it('joining (by id or link) while the last member leaves is a clean 200/404, never a 5xx', async () => {
  const joiner = await t.signUp();
  for (let i = 0; i < 10; i++) {
    const solo = await t.signUp();
    const group = await createGroup(t, solo);
    const { token } = expectStatus<{ token: string }>(await t.request('POST', '/api/groups/join-links', { user: solo, body: { group_id: group.id } }), 200);
    const [byLink, byId, leave] = await Promise.all([
      t.request('POST', `/api/groups/join-with-link/${token}`, { user: joiner }),
      t.request('POST', '/api/groups/join', { user: joiner, body: { group_id: group.id } }),
      t.request('POST', `/api/groups/${group.id}/leave`, { user: solo }),
    ]);
    for (const join of [byLink, byId]) if (join.statusCode !== 200) expectError(join, 404, new RegExp(`${MESSAGES.groupNotFound}|${MESSAGES.joinLinkInvalid}`));
    const exists = (await t.db.query(`select 1 from groups where id = $1`, [group.id])).length === 1;
    if (leave.statusCode === 200) {
      // The owner left first: the group is gone with everything in it.
      expect(leave.json()).toEqual({ success: true, group_deleted: true });
      expect(exists).toBe(false);
      expect(await t.db.query(`select 1 from group_membership where group_id = $1`, [group.id])).toEqual([]);
    } else {
      // Someone joined first: the owner may not leave them behind.
      expectError(leave, 409);
      expect(exists).toBe(true);
      expect(await memberships(group.id, joiner.id)).toBe(1);
    }
  }
});
