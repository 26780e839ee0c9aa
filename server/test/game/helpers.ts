/** Small helpers shared by the game tests (server/test/game/*.test.ts). */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { GroupDto, JoinRefusalData } from '@first-round/shared/schemas';
import { ERROR_TABLE, type ErrorKind } from '../../src/errors.js';
import { completeRoundOne, resetDraft, startDraft } from '../../src/modules/draft/draft.service.js';
import { insertQueueItem } from '../../src/modules/feed/feed.repository.js';
import { createTestApp, listenOnLoopback, type TestApp, type TestUser } from '../support/test-app.js';

let seq = 0;
/** A name no other test in this run uses (group names are unique case-insensitively). */
export const uniqueName = (prefix = 'Group') => `${prefix} ${process.pid}-${++seq}-${crypto.randomBytes(3).toString('hex')}`;

export const sha256hex = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** Player ids in big-board order (rank 1 first). */
export async function boardIds(t: TestApp): Promise<number[]> {
  const rows = await t.db.query<{ id: number }>(`select id from player order by rank`);
  return rows.map((r) => r.id);
}

/** Asserts the status and returns the JSON body; shows the body when the status is wrong. */
export function expectStatus<T = unknown>(res: LightMyRequestResponse, status: number): T {
  expect({ status: res.statusCode, body: res.body }).toMatchObject({ status });
  return res.json() as T;
}

/**
 * An error answer: the status, `{detail, message, code}` with a non-empty message and the kind that has
 * that status (and the data a refused join carries, when it does).
 */
export function expectError(res: LightMyRequestResponse, status: number, message?: string | RegExp) {
  const body = expectStatus<{ detail: string; message: string; code: ErrorKind } & Partial<JoinRefusalData>>(res, status);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.detail).toBe(body.message);
  expect(ERROR_TABLE[body.code]?.status, `code ${body.code}`).toBe(status);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

export async function createGroup(
  t: TestApp,
  owner: TestUser,
  options: { name?: string; is_public?: boolean; picks_public?: boolean; password?: string } = {},
): Promise<GroupDto> {
  const res = await t.request('POST', '/api/groups', {
    user: owner,
    body: { name: options.name ?? uniqueName(), is_public: options.is_public ?? false, picks_public: options.picks_public ?? false, ...(options.password ? { password: options.password } : {}) },
  });
  return expectStatus<GroupDto>(res, 200);
}

export async function joinGroup(t: TestApp, user: TestUser, groupId: number, password?: string) {
  const res = await t.request('POST', '/api/groups/join', { user, body: { group_id: groupId, ...(password === undefined ? {} : { password }) } });
  return expectStatus<{ success: boolean; already_member: boolean }>(res, 200);
}

export async function savePicks(t: TestApp, user: TestUser, picks: number[], groupId?: number) {
  const res = await t.request('POST', '/api/picks/', { user, body: { picks, ...(groupId === undefined ? {} : { group_id: groupId }) } });
  return expectStatus<{ success: boolean; picks: number[]; group_id: number }>(res, 200);
}

/**
 * The operator's command line: straight to the draft service, in the database. A running server learns of
 * it through NOTIFY, as it would from another process, so these wait until the app has heard it (when its
 * listener runs) before the test reads what the server answers.
 */
export const operatorStart = (t: TestApp) => heard(t, startDraft(t.deps.orm.em.fork(), t.deps.draft, 'test'));
export const operatorReset = (t: TestApp) => heard(t, resetDraft(t.deps.orm.em.fork(), 'test'));
export const operatorComplete = (t: TestApp) => heard(t, completeRoundOne(t.deps.orm.em.fork(), t.deps.draft, 'test'));

async function heard<T extends { event_id: number }>(t: TestApp, change: Promise<T>): Promise<T> {
  const done = await change;
  const until = Date.now() + 5000;
  while (t.deps.events.isConnected && t.deps.events.lastHeardEventId < done.event_id) {
    if (Date.now() > until) throw new Error(`the app did not hear draft change ${done.event_id} within 5 s`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return done;
}

/** Row counts of the tables user calls write to (the identity provider's and the join-failure log included). */
export async function tableCounts(t: TestApp) {
  const [row] = await t.db.query<Record<string, number>>(
    `select (select count(*) from groups)::int as groups, (select count(*) from pick)::int as pick,
            (select count(*) from group_membership)::int as group_membership, (select count(*) from join_link)::int as join_link,
            (select count(*) from participant)::int as participant, (select count(*) from draft_event)::int as draft_event,
            (select count(*) from player where draft_round is not null)::int as drafted,
            (select count(*) from draft_state where started_at is not null)::int as started,
            (select count(*) from group_join_failure)::int as group_join_failure, (select count(*) from idp_user)::int as idp_user,
            (select count(*) from idp_code)::int as idp_code, (select count(*) from idp_session)::int as idp_session,
            (select count(*) from idp_outbox)::int as idp_outbox, (select count(*) from share_link)::int as share_link,
            (select count(*) from season)::int as season, (select count(*) from season_entry)::int as season_entry,
            (select count(*) from season_entry_pick)::int as season_entry_pick, (select count(*) from season_player)::int as season_player`,
  );
  return row!;
}

/** Polls `check` until it passes or `ms` elapse (then throws its last failure). */
export async function eventually(check: () => Promise<void>, ms = 2000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** A report in the results feed's queue, as the poller would leave it (modules/feed/); returns its id. */
export async function queueFeedItem(t: TestApp, item: { slot: number; suggested: number | null; kind?: 'confirm' | 'conflict' }): Promise<number> {
  const name = uniqueName('Feed Player');
  await insertQueueItem(t.deps.orm.em.fork(), {
    slot: item.slot,
    kind: item.kind ?? 'confirm',
    feedPlayerName: name,
    feedSchool: 'Somewhere',
    feedPosition: null,
    feedTeam: null,
    suggestedPlayerId: item.suggested,
    recordedPlayerId: null,
    score: 0.7,
  });
  const [row] = await t.db.query<{ id: number }>(`select id::int from feed_queue_item where feed_player_name = $1`, [name]);
  return row!.id;
}

/**
 * A closed season in the archive, written directly as `npm run season -- new` would have left it: the
 * board's first players, the groups (1 = global) each with its ranked entries and their picks ✓/✗.
 */
export async function insertPastSeason(
  t: TestApp,
  year: number,
  groups: { id: number; name: string; entries: { participantId: string; name: string; hits: boolean[] }[] }[],
): Promise<void> {
  await t.db.query(`insert into season (year, deadline, opened_at, closed_at) values ($1, $2, $2, $3)`, [
    year,
    new Date(Date.UTC(year, 3, 24)),
    new Date(Date.UTC(year, 4, 1)),
  ]);
  const players = await t.db.query<{ id: number; rank: number }>(`select id, rank from player order by rank limit 32`);
  await t.db.query(
    `insert into season_player (season, player_id, rank, player_name, position, school, draft_round, draft_pick)
     select $1, id, rank, player_name, position, school, 1, rank from player where id = any($2::int[])`,
    [year, players.map((p) => p.id)],
  );
  for (const g of groups) {
    await t.db.query(`insert into season_group (season, group_id, name, is_public, picks_public) values ($1, $2, $3, false, true)`, [year, g.id, g.name]);
    for (const [i, e] of g.entries.entries()) {
      const hits = e.hits.filter(Boolean).length;
      const busted = hits < e.hits.length;
      await t.db.query(
        `insert into season_entry (season, group_id, participant_id, participant_name, rank, picks, hits, correct_picks, busted)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [year, g.id, e.participantId, e.name, i + 1, e.hits.length, hits, busted ? 0 : hits, busted],
      );
      for (const [k, hit] of e.hits.entries()) {
        await t.db.query(`insert into season_entry_pick (season, group_id, participant_id, player_id, hit) values ($1, $2, $3, $4, $5)`, [
          year,
          g.id,
          e.participantId,
          players[k]!.id,
          hit,
        ]);
      }
    }
  }
}

/**
 * A second instance of `t`'s deployment with PUBLIC_STANDINGS=false: the same database and the same sign-in
 * key (instances of one deployment share both), so a player signed up on `t` is signed in there too.
 */
export async function publicStandingsOffBeside(t: TestApp): Promise<TestApp> {
  const sharedKey = t.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return createTestApp({ sameDatabaseAs: t, env: { PUBLIC_STANDINGS: 'false', LOCAL_IDP_PRIVATE_KEY: sharedKey } });
}

/** The spectators' tests' two instances, listening on loopback: `t` with the bus started, `off` beside it; and the board's ids. */
export async function publicStandingsPair(): Promise<{ t: TestApp; off: TestApp; base: string; offBase: string; ids: number[] }> {
  const t = await createTestApp({ startEvents: true });
  const off = await publicStandingsOffBeside(t);
  return { t, off, base: await listenOnLoopback(t.app), offBase: await listenOnLoopback(off.app), ids: await boardIds(t) };
}
