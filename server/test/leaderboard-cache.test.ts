import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * What a membership change (a join, a leave, switching to My Picks: announced as `group`) does to the
 * rankings kept in memory: it drops that group's ranking, and nothing else. Rankings of other groups and
 * the global one, kept or being computed, are not that group's: discarding them would make every join
 * re-rank them (the global ranking is the expensive one), and a steady stream of joins could keep the
 * global ranking from ever being kept.
 */

let t: TestApp;
let groupA: number;
let groupB: number;

beforeAll(async () => {
  // Listening, as a running server is: the field is served from memory only while changes can be heard.
  t = await createTestApp({ startEvents: true });
  const players = (await t.db.query<{ id: number }>(`select id from player order by rank limit 12`)).map((r) => r.id);
  const ids = Array.from({ length: 40 }, (_, i) => `user_lbcache${String(i).padStart(2, '0')}`);
  await t.db.query(`insert into participant (id, screen_name) select unnest($1::text[]), unnest($1::text[])`, [ids]);
  const picks = ids.flatMap((id, i) => [players[i % players.length]!, players[(i * 5 + 1) % players.length]!].map((p) => [id, p] as const));
  await t.db.query(`insert into pick (participant_id, group_id, player_id) select p, 1, pl from unnest($1::text[], $2::int[]) as x(p, pl)`, [
    picks.map((p) => p[0]),
    picks.map((p) => p[1]),
  ]);
  const groups = await t.db.query<{ id: number }>(`insert into groups (name) values ('Cache A'), ('Cache B') returning id`);
  [groupA, groupB] = [groups[0]!.id, groups[1]!.id];
  await t.db.query(
    `insert into group_membership (group_id, participant_id, use_global_picks)
     select $1::int, unnest($2::text[]), true union all select $3::int, unnest($4::text[]), true`,
    [groupA, ids.slice(0, 20), groupB, ids.slice(20, 30)],
  );
});
afterAll(async () => t?.close());

/** What a join in `groupId` applies to this instance's caches once it commits (groups.service, announceChange). */
const joinedIn = (groupId: number) => t.deps.events.invalidate({ kind: 'group', group_id: groupId });

describe('a join re-ranks its own group only', () => {
  it("a join in one group does not discard another group's ranking, or the global one, while they are computed", async () => {
    const lb = t.deps.leaderboards;
    const global = lb.get(GLOBAL_GROUP_ID);
    const other = lb.get(groupA);
    expect(global).toBeInstanceOf(Promise);
    expect(other).toBeInstanceOf(Promise);
    // Joins in group B land while both are being ranked (several: draft night's joins come in streams).
    for (let i = 0; i < 5; i++) joinedIn(groupB);
    const [ranked, rankedA] = await Promise.all([global, other]);
    expect(ranked.rankings).toHaveLength(40);
    expect(rankedA.rankings).toHaveLength(20);
    // Kept: the next reads are answered from memory, with the very rankings computed above.
    expect(lb.get(GLOBAL_GROUP_ID)).toBe(ranked);
    expect(lb.get(groupA)).toBe(rankedA);
  });

  it("a join discards its own group's ranking, kept or being computed, and the next read has the newcomer", async () => {
    const lb = t.deps.leaderboards;
    const kept = await lb.get(groupB);
    expect(kept.rankings).toHaveLength(10);
    const global = await lb.get(GLOBAL_GROUP_ID);

    await t.db.query(`insert into group_membership (group_id, participant_id, use_global_picks) values ($1, 'user_lbcache35', true)`, [groupB]);
    const before = lb.get(groupB);
    expect(before).toBe(kept);
    // A ranking of group B that began before the join committed may not have the newcomer: not kept.
    lb.invalidateGroup(groupB);
    const inFlight = lb.get(groupB);
    expect(inFlight).toBeInstanceOf(Promise);
    await t.db.query(`insert into group_membership (group_id, participant_id, use_global_picks) values ($1, 'user_lbcache36', true)`, [groupB]);
    joinedIn(groupB);
    await inFlight;
    const next = lb.get(groupB);
    expect(next).toBeInstanceOf(Promise);
    expect([...(await next).rankings].map((r) => r.participant_id)).toEqual(expect.arrayContaining(['user_lbcache35', 'user_lbcache36']));
    expect((await next).rankings).toHaveLength(12);
    // Nothing else was re-ranked for it.
    expect(lb.get(GLOBAL_GROUP_ID)).toBe(global);
  });

  it('a rename still re-ranks every group and the global one (names show in every ranking)', async () => {
    const lb = t.deps.leaderboards;
    const global = await lb.get(GLOBAL_GROUP_ID);
    const a = await lb.get(groupA);
    const inFlight = lb.get(groupB);
    await t.db.query(`update participant set screen_name = 'Renamed Twenty' where id = 'user_lbcache20'`);
    t.deps.events.invalidate({ kind: 'participant', participant_id: 'user_lbcache20' });
    await inFlight;
    expect(lb.get(groupA)).not.toBe(a);
    const b = await lb.get(groupB);
    expect(b.byParticipant.get('user_lbcache20')?.participant_name).toBe('Renamed Twenty');
    const renamed = await lb.get(GLOBAL_GROUP_ID);
    expect(renamed).not.toBe(global);
    expect(renamed.byParticipant.get('user_lbcache20')?.participant_name).toBe('Renamed Twenty');
  });
});

describe("the field's cache, per group alike", () => {
  it('a join in another group keeps the global field being counted; a join in its own group does not', async () => {
    const field = t.deps.field;
    const global = field.get(GLOBAL_GROUP_ID);
    const own = field.get(groupA);
    joinedIn(groupB);
    joinedIn(groupA);
    const [counted] = await Promise.all([global, own]);
    expect(await field.get(GLOBAL_GROUP_ID)).toBe(counted);
    // Group A's count began before its join: counted again at the next read, with the same answer here.
    const again = await field.get(groupA);
    expect(again).not.toBe(await own);
    expect(again).toEqual(await own);
    expect(await field.get(groupA)).toBe(again);
  });
});
