/** Small helpers shared by the game tests (server/test/game/*.test.ts). */
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { GroupDto } from '@first-round/shared/schemas';
import { ERROR_TABLE, type ErrorKind } from '../../src/errors.js';
import { resetDraft, startDraft } from '../../src/modules/draft/draft.service.js';
import { insertQueueItem } from '../../src/modules/feed/feed.repository.js';
import type { TestApp, TestUser } from '../support/test-app.js';

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

/** An error answer: the status, `{detail, message, code}` with a non-empty message and the kind that has that status. */
export function expectError(res: LightMyRequestResponse, status: number, message?: string | RegExp) {
  const body = expectStatus<{ detail: string; message: string; code: ErrorKind }>(res, status);
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
            (select count(*) from idp_outbox)::int as idp_outbox, (select count(*) from share_link)::int as share_link`,
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
