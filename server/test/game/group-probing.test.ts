/**
 * Probing for private groups by id. Every call that takes a group id answers a signed-in player who is not
 * in a private group exactly as it answers an id that names no group: the same status, kind, message and
 * body bytes, over REST and over tRPC, before and after the start. The one door that answers differently
 * by design is joining by id (a private group without a password lets its id's holder in); it is guarded
 * by the join limits and, like every call here, by the per-address budget of "no such group" answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@first-round/shared/messages';
import { appRouter } from '../../src/trpc/root.js';
import { restRoutes, type RestRoute } from '../../src/rest/routes.js';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, expectError, expectStatus, insertPastSeason, operatorReset, operatorStart, uniqueName } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let prober: TestUser;
let privateId: number;
let passwordId: number;
let publicId: number;
let players: number[];
/** An id that names no group (group ids are 8 digits; this one is checked to be free). */
const MISSING_ID = 98_765_431;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  owner = await t.signUp('probedowner');
  prober = await t.signUp('prober');
  expectStatus(await t.request('GET', '/api/auth/me', { user: prober }), 200);
  players = await boardIds(t);
  privateId = (await createGroup(t, owner, { name: uniqueName('Private'), picks_public: true })).id;
  passwordId = (await createGroup(t, owner, { name: uniqueName('Locked'), password: 'open sesame' })).id;
  publicId = (await createGroup(t, owner, { name: uniqueName('Public'), is_public: true })).id;
  expect(await t.db.query(`select id from groups where id = $1`, [MISSING_ID])).toEqual([]);
  await insertPastSeason(t, 2024, [{ id: privateId, name: 'Private then', entries: [{ participantId: owner.id, name: 'probedowner', hits: [true] }] }]);
});
afterAll(async () => t?.close());

/** Whether a procedure's input has a `group_id` (its schemas, unwrapped from optional and default). */
function takesGroupId(procedure: string): boolean {
  const def = (appRouter._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[] } }>)[procedure]!._def;
  const hasGroupId = (schema: z.ZodType): boolean => {
    const d = (schema as unknown as { def: { type: string; innerType?: z.ZodType; shape?: Record<string, unknown> } }).def;
    if (d.type === 'optional' || d.type === 'default' || d.type === 'nullable') return hasGroupId(d.innerType!);
    return d.type === 'object' && 'group_id' in (d.shape ?? {});
  };
  return def.inputs.some(hasGroupId);
}

interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  url: string;
  body?: unknown;
}

/** How each REST row that takes a group id is called for a group (its other inputs valid), keyed by `METHOD path`. */
const REST_CALLS: Record<string, (id: number) => Call> = {
  'POST /groups/join-links': (id) => ({ method: 'POST', url: '/api/groups/join-links', body: { group_id: id } }),
  'POST /share/links': (id) => ({ method: 'POST', url: '/api/share/links', body: { group_id: id } }),
  'GET /groups/:id': (id) => ({ method: 'GET', url: `/api/groups/${id}` }),
  'POST /groups/:id/leave': (id) => ({ method: 'POST', url: `/api/groups/${id}/leave` }),
  'GET /groups/:id/member-count': (id) => ({ method: 'GET', url: `/api/groups/${id}/member-count` }),
  'GET /groups/:id/membership': (id) => ({ method: 'GET', url: `/api/groups/${id}/membership` }),
  'GET /groups/:id/members': (id) => ({ method: 'GET', url: `/api/groups/${id}/members` }),
  'GET /groups/:id/leaderboard': (id) => ({ method: 'GET', url: `/api/groups/${id}/leaderboard?limit=10` }),
  'GET /groups/:id/draft-board': (id) => ({ method: 'GET', url: `/api/groups/${id}/draft-board` }),
  'POST /groups/:id/password': (id) => ({ method: 'POST', url: `/api/groups/${id}/password`, body: { password: 'mine now' } }),
  'POST /groups/:id/members-can-invite': (id) => ({ method: 'POST', url: `/api/groups/${id}/members-can-invite`, body: { members_can_invite: false } }),
  'POST /groups/:id/use-global-picks': (id) => ({ method: 'POST', url: `/api/groups/${id}/use-global-picks`, body: { use_global_picks: false } }),
  'GET /groups/:id/picks/:participantId': (id) => ({ method: 'GET', url: `/api/groups/${id}/picks/${owner.id}` }),
  'GET /picks/my-picks': (id) => ({ method: 'GET', url: `/api/picks/my-picks?group_id=${id}` }),
  'POST /picks/': (id) => ({ method: 'POST', url: '/api/picks/', body: { picks: [players[0]], group_id: id } }),
  'GET /draft/field': (id) => ({ method: 'GET', url: `/api/draft/field?group_id=${id}` }),
  'GET /seasons': (id) => ({ method: 'GET', url: `/api/seasons?group_id=${id}` }),
  'GET /seasons/:year/groups/:id/leaderboard': (id) => ({ method: 'GET', url: `/api/seasons/2024/groups/${id}/leaderboard` }),
};
/** Joining by id, the door (see above): its answers are checked on their own below. */
const DOOR = 'POST /groups/join';

/** Each tRPC procedure that takes a group id, with its other inputs valid. */
const TRPC_CALLS: Record<string, (id: number) => { type: 'query' | 'mutation'; input: unknown }> = {
  'groups.get': (id) => ({ type: 'query', input: { group_id: id } }),
  'groups.leave': (id) => ({ type: 'mutation', input: { group_id: id } }),
  'groups.memberCount': (id) => ({ type: 'query', input: { group_id: id } }),
  'groups.membership': (id) => ({ type: 'query', input: { group_id: id } }),
  'groups.members': (id) => ({ type: 'query', input: { group_id: id } }),
  'groups.draftBoard': (id) => ({ type: 'query', input: { group_id: id } }),
  'groups.useGlobalPicks': (id) => ({ type: 'mutation', input: { group_id: id, use_global_picks: false } }),
  'groups.setPassword': (id) => ({ type: 'mutation', input: { group_id: id, password: 'mine now' } }),
  'groups.setMembersCanInvite': (id) => ({ type: 'mutation', input: { group_id: id, members_can_invite: false } }),
  'joinLinks.create': (id) => ({ type: 'mutation', input: { group_id: id } }),
  'picks.mine': (id) => ({ type: 'query', input: { group_id: id } }),
  'picks.save': (id) => ({ type: 'mutation', input: { picks: [players[0]], group_id: id } }),
  'picks.ofParticipant': (id) => ({ type: 'query', input: { group_id: id, participant_id: owner.id } }),
  'leaderboard.group': (id) => ({ type: 'query', input: { group_id: id, limit: 10 } }),
  'leaderboard.field': (id) => ({ type: 'query', input: { group_id: id } }),
  'share.createLink': (id) => ({ type: 'mutation', input: { group_id: id } }),
  'seasons.list': (id) => ({ type: 'query', input: { group_id: id } }),
  'seasons.groupLeaderboard': (id) => ({ type: 'query', input: { year: 2024, group_id: id } }),
};
const TRPC_DOOR = 'groups.join';

const rowKey = (r: RestRoute) => `${r.method} ${r.path}`;
const rest = (call: Call, user: TestUser) => t.request(call.method, call.url, { user, ...(call.body === undefined ? {} : { body: call.body }) });
function trpc(path: string, call: { type: 'query' | 'mutation'; input: unknown }, user: TestUser) {
  return call.type === 'query'
    ? t.request('GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(call.input))}`, { user })
    : t.request('POST', `/trpc/${path}`, { user, body: JSON.stringify(call.input), headers: { 'content-type': 'application/json' } });
}

/** What a client can tell apart: the status, the body's bytes, and the headers that are not per-request. */
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.body, type: res.headers['content-type'], length: res.headers['content-length'] });

describe('every call that takes a group id', () => {
  it('is in this table (a new one must say how it answers a private group)', () => {
    const restTaking = restRoutes.filter((r) => takesGroupId(r.procedure)).map(rowKey).sort();
    expect(restTaking).toEqual([...Object.keys(REST_CALLS), DOOR].sort());
    const trpcTaking = Object.keys(appRouter._def.procedures).filter(takesGroupId).sort();
    expect(trpcTaking).toEqual([...Object.keys(TRPC_CALLS), TRPC_DOOR].sort());
  });

  for (const phase of ['before', 'after'] as const) {
    it(`answers a private group one is not in exactly as no such group (REST, ${phase} the start)`, async () => {
      if (phase === 'after') await operatorStart(t);
      try {
        for (const [key, call] of Object.entries(REST_CALLS)) {
          for (const hidden of [privateId, passwordId]) {
            const missing = answer(await rest(call(MISSING_ID), prober));
            const privateOne = answer(await rest(call(hidden), prober));
            expect({ key, ...privateOne }).toEqual({ key, ...missing });
          }
        }
        // The one answer that is no 404: someone else's picks before the start are hidden whatever the group.
        for (const [key, call] of Object.entries(REST_CALLS)) {
          const res = await rest(call(MISSING_ID), prober);
          if (phase === 'before' && key === 'GET /groups/:id/picks/:participantId') expectError(res, 403, "This participant's picks are not visible to you");
          else expect({ key, body: expectError(res, 404, MESSAGES.groupNotFound) }).toMatchObject({ key, body: { code: 'NOT_FOUND' } });
        }
      } finally {
        if (phase === 'after') await operatorReset(t);
      }
    });

    it(`answers a private group one is not in exactly as no such group (tRPC, ${phase} the start)`, async () => {
      if (phase === 'after') await operatorStart(t);
      try {
        for (const [path, call] of Object.entries(TRPC_CALLS)) {
          for (const hidden of [privateId, passwordId]) {
            const missing = answer(await trpc(path, call(MISSING_ID), prober));
            const privateOne = answer(await trpc(path, call(hidden), prober));
            expect({ path, ...privateOne }).toEqual({ path, ...missing });
          }
        }
      } finally {
        if (phase === 'after') await operatorReset(t);
      }
    });
  }

  it('does the same work for a private group one is not in as for no such group: the same statements, so the time tells nothing', async () => {
    const knex = t.deps.orm.em.getKnex();
    const statements: string[] = [];
    const listen = (query: { sql: string }) => statements.push(query.sql);
    /**
     * The SQL a call for group `id` runs about that id, the id itself written as ':id' (statements without
     * it may be the app's own work meanwhile: caches, the live stream).
     */
    const sqlOf = async (id: number, run: () => Promise<unknown>) => {
      statements.length = 0;
      knex.on('query', listen);
      try {
        await run();
      } finally {
        knex.off('query', listen);
      }
      return statements.filter((sql) => sql.includes(String(id))).map((sql) => sql.replaceAll(String(id), ':id'));
    };
    const differ: { key: string; missing: string[]; hidden: string[] }[] = [];
    for (const [key, call] of Object.entries(REST_CALLS)) {
      // Warm first: a first call may read what later calls find cached (the draft status, the board).
      await rest(call(MISSING_ID), prober);
      await rest(call(privateId), prober);
      const missing = await sqlOf(MISSING_ID, () => rest(call(MISSING_ID), prober));
      const hidden = await sqlOf(privateId, () => rest(call(privateId), prober));
      if (missing.join('\n') !== hidden.join('\n')) differ.push({ key, missing, hidden });
    }
    expect(differ).toEqual([]);
  });

  it('nothing was changed by the probes: the groups are as their owner left them', async () => {
    const rows = await t.db.query(`select id, password_hash is not null as has_password, members_can_invite from groups where id = any($1) order by id`, [[privateId, passwordId]]);
    expect(rows).toEqual(
      [
        { id: privateId, has_password: false, members_can_invite: true },
        { id: passwordId, has_password: true, members_can_invite: true },
      ].sort((a, b) => a.id - b.id),
    );
    expect(await t.db.query(`select group_id from group_membership where participant_id = $1`, [prober.id])).toEqual([]);
  });

  it('members and public groups answer as before: the rule hides only what one may not know of', async () => {
    expectStatus(await t.request('GET', `/api/groups/${privateId}`, { user: owner }), 200);
    expectStatus(await t.request('GET', `/api/groups/${privateId}/member-count`, { user: owner }), 200);
    expectStatus(await t.request('GET', `/api/groups/${publicId}`, { user: prober }), 200);
    expect(expectStatus(await t.request('GET', `/api/groups/${publicId}/membership`, { user: prober }), 200)).toMatchObject({ is_member: false });
    // A public group is listed for everyone: saying "not a member" there tells nothing.
    expectError(await t.request('GET', `/api/groups/${publicId}/members`, { user: prober }), 403, MESSAGES.notGroupMember);
  });

  it('joining by id is the door: no such group is 404, a password group asks for its password (guarded by the join limits)', async () => {
    expectError(await t.request('POST', '/api/groups/join', { user: prober, body: { group_id: MISSING_ID } }), 404, MESSAGES.groupNotFound);
    expectError(await t.request('POST', '/api/groups/join', { user: prober, body: { group_id: passwordId } }), 403, /^Wrong password for this group/);
  });
});

describe('the per-address budget of "no such group" answers (GROUP_PROBE_LIMIT)', () => {
  let small: TestApp;
  let member: TestUser;
  let ownGroup: number;
  const PROBER_IP = '203.0.113.7';
  const OTHER_IP = '198.51.100.9';
  const LIMIT = 5;

  beforeAll(async () => {
    small = await createTestApp({ env: { GROUP_PROBE_LIMIT: String(LIMIT), GROUP_PROBE_WINDOW_SECONDS: '600' } });
    member = await small.signUp('budgetmember');
    ownGroup = (await createGroup(small, member, { name: uniqueName('Budget') })).id;
  });
  afterAll(async () => small?.close());

  const from = (ip: string, user: TestUser, method: 'GET' | 'POST', url: string, body?: unknown) =>
    small.app.inject({
      method,
      url,
      remoteAddress: ip,
      headers: { authorization: user.authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const probe = (ip: string, user: TestUser, id: number) => from(ip, user, 'GET', `/api/groups/${id}/member-count`);

  /** A 429 that says how long to wait, in its Retry-After header and its message, within the window. */
  function expectOverBudget(res: LightMyRequestResponse) {
    const body = expectError(res, 429, /^Too many requests for groups that could not be found\. Please wait \d+ seconds? and try again\.$/);
    expect(body.code).toBe('TOO_MANY_REQUESTS');
    const wait = Number(res.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(600);
    expect(body.message).toContain(`wait ${wait} second`);
  }

  it('after GROUP_PROBE_LIMIT not-found answers an address gets 429 with Retry-After on every group-id call, REST and tRPC, until the window passes', async () => {
    const prober = await small.signUp('budgetprober');
    for (let i = 0; i < LIMIT; i++) expectError(await probe(PROBER_IP, prober, 10_000_000 + i), 404, MESSAGES.groupNotFound);
    expectOverBudget(await probe(PROBER_IP, prober, 10_000_100));
    // A private group the prober is not in is refused the same way: nothing tells it apart from none.
    expectOverBudget(await probe(PROBER_IP, prober, ownGroup));
    expectOverBudget(await from(PROBER_IP, prober, 'POST', '/api/groups/join', { group_id: 10_000_200 }));
    // tRPC, through the adapter and the hot reads' fast path.
    const viaAdapter = await from(PROBER_IP, prober, 'GET', `/trpc/groups.memberCount?input=${encodeURIComponent(JSON.stringify({ group_id: 10_000_300 }))}`);
    expect(viaAdapter.statusCode).toBe(429);
    expect(Number(viaAdapter.headers['retry-after'])).toBeGreaterThan(0);
    expect((viaAdapter.json() as { error: { data: { kind: string } } }).error.data.kind).toBe('TOO_MANY_REQUESTS');
    const viaFastPath = await from(PROBER_IP, prober, 'GET', `/trpc/leaderboard.group?input=${encodeURIComponent(JSON.stringify({ group_id: 10_000_400 }))}`);
    expect(viaFastPath.statusCode).toBe(429);
    expect(Number(viaFastPath.headers['retry-after'])).toBeGreaterThan(0);

    // Only not-found answers are refused: a member behind the same address still reads their own group.
    expect(expectStatus(await probe(PROBER_IP, member, ownGroup), 200)).toEqual({ group_id: ownGroup, member_count: 1 });
    // Another address has its own budget.
    expectError(await probe(OTHER_IP, prober, 10_000_500), 404, MESSAGES.groupNotFound);

    // Once the window has passed the address is answered as before.
    small.clock.advance(601_000);
    expectError(await probe(PROBER_IP, prober, 10_000_600), 404, MESSAGES.groupNotFound);
  });
});

describe('the OpenAPI document', () => {
  it('lists the budget\'s 429 with Retry-After, and the private group\'s 404, on every row that takes a group id', async () => {
    type Operation = { responses: Record<string, { description: string; headers?: Record<string, unknown> }> };
    const doc = expectStatus<{ paths: Record<string, Record<string, Operation>> }>(await t.request('GET', '/api/openapi.json'), 200);
    for (const route of restRoutes.filter((r) => takesGroupId(r.procedure))) {
      const op = doc.paths[`/api${route.path.replace(/:(\w+)/g, '{$1}')}`]![route.method.toLowerCase()]!;
      expect(op.responses['429'], rowKey(route)).toBeDefined();
      expect(op.responses['429']!.headers, rowKey(route)).toHaveProperty('Retry-After');
      expect(op.responses['404']!.description, rowKey(route)).toMatch(/private group/);
    }
    // Rows without a group id keep their answers.
    expect(doc.paths['/api/players/']!.get!.responses['429']).toBeUndefined();
  });
});
