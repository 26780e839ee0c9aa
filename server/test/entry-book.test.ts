/**
 * The entry book on two instances of one database, as two servers behind a balancer: whatever changes the
 * entries on one (saved picks, a join, an entry made the member's own, recorded picks, an undo, round one
 * completed) reaches the other's standings, which then equal the first's and those of a book read whole
 * from the facts. An instance that could not hear for a while (its listener gone) reads its book whole when
 * it hears again, and then has what it missed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import type { LeaderboardRow } from '@first-round/shared/schemas';
import { GlobalStandings } from '../src/modules/leaderboard/global-standings.js';
import { rankGroup } from '../src/modules/leaderboard/ranking.js';
import { groupMembers } from '../src/modules/standings/book.repository.js';
import { EntryBook } from '../src/modules/standings/entry-book.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { boardIds, createGroup, eventually, expectStatus, joinGroup, savePicks } from './game/helpers.js';

let a: TestApp;
let b: TestApp;
let admin: TestUser;
let users: TestUser[];
let group: number;
let board: number[];

beforeAll(async () => {
  a = await createTestApp({ startEvents: true });
  const sharedKey = a.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  b = await createTestApp({ startEvents: true, sameDatabaseAs: a, env: { LOCAL_IDP_PRIVATE_KEY: sharedKey } });
  admin = await a.signUp('bookop', ADMIN_EMAIL);
  users = [];
  for (let i = 0; i < 5; i++) users.push(await a.signUp(`book${i}`));
  board = await boardIds(a);
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const rows = async (t: TestApp, groupId: number): Promise<LeaderboardRow[]> => [...(await t.deps.leaderboards.get(groupId)).rankings];

/** The standings as a book read whole now ranks them. */
async function readWhole(groupId: number): Promise<LeaderboardRow[]> {
  const book = new EntryBook(a.orm(), a.deps.draft.roundOnePicks, { info: () => {}, warn: () => {} });
  if (groupId === GLOBAL_GROUP_ID) return [...(await new GlobalStandings(book).compute()).rankings];
  return [...rankGroup(await book.sync(), groupId, await groupMembers(a.orm().em.fork(), groupId)).rankings];
}

/** Both instances show what the facts say, in the global standings and the group's. */
async function bothAgree(what: string) {
  for (const groupId of [GLOBAL_GROUP_ID, group]) {
    const truth = await readWhole(groupId);
    await eventually(async () => {
      expect(await rows(a, groupId), `${what}: A, group ${groupId}`).toEqual(truth);
      expect(await rows(b, groupId), `${what}: B, group ${groupId}`).toEqual(truth);
    }, 5000);
  }
}

const operator = (path: string, body?: unknown) => a.request('POST', `/api/draft/${path}`, { user: admin, body });

describe('two instances, one database', () => {
  it('agree after every change made on one of them', async () => {
    await savePicks(a, users[0]!, [board[0]!, board[1]!, board[2]!]);
    await savePicks(a, users[1]!, [board[1]!, board[3]!]);
    await savePicks(a, users[2]!, [board[4]!]);
    group = (await createGroup(a, users[0]!)).id;
    await bothAgree('saved picks, a group');
    await joinGroup(a, users[1]!, group);
    await joinGroup(a, users[3]!, group);
    await bothAgree('joins');
    // Their entry in the group made their own (a copy of My Picks), then changed there alone.
    expectStatus(await a.request('POST', `/api/groups/${group}/use-global-picks`, { user: users[1]!, body: { use_global_picks: false } }), 200);
    await savePicks(a, users[1]!, [board[0]!, board[5]!], group);
    await savePicks(a, users[3]!, [board[2]!, board[0]!], group);
    await bothAgree('own picks');
    await savePicks(a, users[2]!, [board[0]!, board[2]!]);
    await bothAgree('My Picks changed');

    expectStatus(await operator('start'), 200);
    expectStatus(await operator('picks', { slot: 1, player_id: board[0] }), 200);
    await bothAgree('a recorded pick');
    expectStatus(await operator('picks', { slot: 2, player_id: board[2] }), 200);
    expectStatus(await operator('undo'), 200);
    await bothAgree('an undo');
    expectStatus(await operator('complete-round'), 200);
    await bothAgree('round one complete');
    expectStatus(await operator('reset'), 200);
    await bothAgree('a reset');
  });

  it('an instance that could not hear reads its book whole on hearing again, and has what it missed', async () => {
    await eventually(async () => expect(await rows(b, GLOBAL_GROUP_ID)).toEqual(await rows(a, GLOBAL_GROUP_ID)), 5000);
    const loads = b.deps.book.loads;
    await b.deps.events.stop();
    try {
      // Saved on A while B hears nothing: B's standings do not have it.
      await savePicks(a, users[4]!, [board[6]!, board[7]!]);
      expect((await rows(a, GLOBAL_GROUP_ID)).map((r) => r.participant_id)).toContain(users[4]!.id);
      b.deps.leaderboards.invalidateGroup(GLOBAL_GROUP_ID);
      expect((await rows(b, GLOBAL_GROUP_ID)).map((r) => r.participant_id)).not.toContain(users[4]!.id);
    } finally {
      await b.deps.events.start();
    }
    await eventually(async () => {
      expect(b.deps.book.loads).toBe(loads + 1);
      expect(await rows(b, GLOBAL_GROUP_ID)).toEqual(await readWhole(GLOBAL_GROUP_ID));
    }, 10_000);
    expect((await rows(b, GLOBAL_GROUP_ID)).map((r) => r.participant_id)).toContain(users[4]!.id);
  });
});

describe('an instance stopping while its book is read whole', () => {
  it('closes, whenever the stop comes during the read', async () => {
    // The second transaction of a whole read may not get its connection once the pool closes: the read
    // then neither waits for it nor holds its own connection, which the close waits for.
    for (const waitMs of [0, 10, 30]) {
      const other = await createTestApp();
      void other.deps.book.sync().catch(() => {});
      await new Promise((r) => setTimeout(r, waitMs));
      await other.close();
    }
  });
});
