/**
 * The one error model (server/src/errors.ts), pinned by exact answers: for representative errors of every
 * origin (a service's DomainError, a schema, the REST adapter's own checks, Fastify, the identity routes,
 * a fault) the exact HTTP status and the exact body `{detail, message, code}` over HTTP, and over tRPC the
 * code, the status and `data.kind` — through the tRPC adapter, the fast path of the hot reads and SSE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { ERROR_KINDS } from '@first-round/shared/errors';
import { MESSAGES } from '@first-round/shared/messages';
import { NUL_MESSAGE, type GroupDto } from '@first-round/shared/schemas';
import { DomainError, ERROR_TABLE, errorAnswer, UNAVAILABLE_MESSAGE } from '../../src/errors.js';
import { ADMIN_EMAIL, createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { boardIds, createGroup, operatorReset, operatorStart } from './helpers.js';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let group: GroupDto;
let publicGroup: GroupDto;
let players: number[];

beforeAll(async () => {
  t = await createTestApp();
  [owner, outsider] = [await t.signUp('errowner'), await t.signUp('erroutsider')];
  await t.signUp('errop', ADMIN_EMAIL);
  players = await boardIds(t);
  group = await createGroup(t, owner);
  publicGroup = await createGroup(t, owner, { is_public: true });
});
afterAll(async () => t?.close());

/** The status and the parsed body, compared whole. */
const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.json() as unknown });
const body = (code: string, message: string) => ({ detail: message, message, code });

describe('REST and plain HTTP: exact status and {detail, message, code}', () => {
  it("a service's DomainError, by its kind", async () => {
    expect(answer(await t.request('GET', '/api/groups/999999', { user: owner }))).toEqual({ status: 404, body: body('NOT_FOUND', MESSAGES.groupNotFound) });
    // A private group one is not in answers exactly as none; a public one says the caller is no member.
    expect(answer(await t.request('GET', `/api/groups/${group.id}`, { user: outsider }))).toEqual({ status: 404, body: body('NOT_FOUND', MESSAGES.groupNotFound) });
    expect(answer(await t.request('GET', `/api/groups/${publicGroup.id}/members`, { user: outsider }))).toEqual({ status: 403, body: body('FORBIDDEN', MESSAGES.notGroupMember) });
    expect(answer(await t.request('POST', '/api/groups', { user: outsider, body: { name: group.name.toUpperCase() } }))).toEqual({
      status: 409,
      body: body('CONFLICT', MESSAGES.groupExists),
    });
  });

  it('the draft lock: 409 like any conflict, told apart by its kind', async () => {
    await operatorStart(t);
    try {
      expect(answer(await t.request('POST', '/api/picks/', { user: owner, body: { picks: [players[0]] } }))).toEqual({
        status: 409,
        body: body('DRAFT_LOCKED', MESSAGES.picksLocked),
      });
    } finally {
      await operatorReset(t);
    }
  });

  it('input failing its schema: 422 INVALID_INPUT, the pick bounds with their message', async () => {
    for (const picks of [[], players.slice(0, 33)]) {
      expect(answer(await t.request('POST', '/api/picks/', { user: owner, body: { picks } }))).toEqual({
        status: 422,
        body: body('INVALID_INPUT', MESSAGES.picksCountOutOfRange),
      });
    }
    expect(answer(await t.request('POST', '/api/groups/join', { user: owner, body: { group_id: 'x' } }))).toEqual({
      status: 422,
      body: body('INVALID_INPUT', 'group_id: Invalid input: expected number, received string'),
    });
  });

  it("the adapter's own checks of path and query values, and NUL anywhere", async () => {
    expect(answer(await t.request('GET', '/api/groups/abc', { user: owner }))).toEqual({ status: 422, body: body('INVALID_INPUT', 'group_id must be a positive integer') });
    expect(answer(await t.request('GET', '/api/groups/', { user: owner }))).toEqual({ status: 422, body: body('INVALID_INPUT', 'group_id must be a positive integer') });
    expect(answer(await t.request('GET', '/api/picks/my-picks?group_id=0', { user: owner }))).toEqual({ status: 422, body: body('INVALID_INPUT', 'group_id must be a positive integer') });
    expect(answer(await t.request('GET', `/api/groups/${group.id}/leaderboard?limit=-1`, { user: owner }))).toEqual({
      status: 422,
      body: body('INVALID_INPUT', 'limit must be a positive integer'),
    });
    expect(answer(await t.request('GET', '/api/picks/my-picks?note=%00', { user: owner }))).toEqual({ status: 422, body: body('UNPROCESSABLE', NUL_MESSAGE) });
  });

  it('who may call: 401 without a session, 403 for a player on an operator row', async () => {
    expect(answer(await t.request('GET', '/api/auth/me'))).toEqual({ status: 401, body: body('UNAUTHORIZED', MESSAGES.authRequired) });
    expect(answer(await t.request('GET', '/api/groups/user', { headers: { authorization: 'Bearer not-a-jwt' } }))).toEqual({
      status: 401,
      body: body('UNAUTHORIZED', MESSAGES.authRequiredSignInAgain),
    });
    expect(answer(await t.request('POST', '/api/draft/start', { user: owner }))).toEqual({ status: 403, body: body('FORBIDDEN', 'Only draft operators can do this') });
  });

  it("Fastify's own refusals: unreadable, oversized and unsupported bodies, unknown paths", async () => {
    const json = { 'content-type': 'application/json' };
    expect(answer(await t.request('POST', '/api/groups/join', { user: owner, body: '{"broken": ', headers: json }))).toEqual({
      status: 400,
      body: body('BAD_REQUEST', 'Request body is not valid JSON'),
    });
    expect(answer(await t.request('POST', '/api/groups/join', { user: owner, body: JSON.stringify({ pad: 'x'.repeat(101 * 1024) }), headers: json }))).toEqual({
      status: 413,
      body: body('PAYLOAD_TOO_LARGE', 'Request body is too large'),
    });
    expect(answer(await t.request('POST', '/api/groups/join', { user: owner, body: '<x/>', headers: { 'content-type': 'application/xml' } }))).toEqual({
      status: 415,
      body: body('BAD_REQUEST', 'Unsupported Media Type'),
    });
    expect(answer(await t.request('GET', '/api/nothing-here'))).toEqual({ status: 404, body: body('NOT_FOUND', 'Not found') });
  });

  it('the identity routes: schema failures, domain errors and refused origins', async () => {
    expect(answer(await t.request('POST', '/idp/sign-in', { body: { email: '' } }))).toEqual({ status: 422, body: body('INVALID_INPUT', MESSAGES.enterEmail) });
    expect(answer(await t.request('POST', '/idp/sign-up', { body: { email: 'new@example.com', username: owner.username } }))).toEqual({
      status: 409,
      body: body('CONFLICT', MESSAGES.usernameTaken),
    });
    expect(answer(await t.request('POST', '/idp/token'))).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(answer(await t.request('POST', '/idp/sign-in', { body: { email: 'a@example.com' }, headers: { origin: 'https://evil.example' } }))).toEqual({
      status: 403,
      body: body('FORBIDDEN', 'Cross-site request refused'),
    });
  });

  it('a fault: 500 INTERNAL with a generic message, never what went wrong', async () => {
    // A table gone from under a query: the database's own words must not reach the client.
    await t.db.query('alter table group_membership rename to group_membership_away');
    try {
      const res = await t.request('GET', '/api/groups/user', { user: owner });
      expect(answer(res)).toEqual({ status: 500, body: body('INTERNAL', 'Internal server error') });
      expect(res.body).not.toMatch(/group_membership|relation|does not exist/);
      const trpc = await t.request('GET', '/trpc/groups.mine', { user: owner });
      expect(trpc.statusCode).toBe(500);
      expect(trpc.json()).toMatchObject({ error: { message: 'Internal server error', data: { code: 'INTERNAL_SERVER_ERROR', kind: 'INTERNAL', detail: 'Internal server error' } } });
      expect(trpc.body).not.toMatch(/group_membership|relation|does not exist/);
    } finally {
      await t.db.query('alter table group_membership_away rename to group_membership');
    }
  });
});

describe('tRPC: the code and status tRPC sets, and data.kind', () => {
  const trpcGet = (path: string, input: unknown, user?: TestUser) =>
    t.request('GET', `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, { user });
  const trpcPost = (path: string, input: unknown, user?: TestUser) =>
    t.request('POST', `/trpc/${path}`, { user, body: JSON.stringify(input), headers: { 'content-type': 'application/json' } });
  const error = (res: LightMyRequestResponse) => {
    const { error: e } = res.json() as { error: { message: string; data: { code: string; httpStatus: number; kind: string; detail: string } } };
    return { status: res.statusCode, message: e.message, code: e.data.code, httpStatus: e.data.httpStatus, kind: e.data.kind, detail: e.data.detail };
  };
  const expected = (status: number, code: string, kind: string, message: string) => ({ status, message, code, httpStatus: status, kind, detail: message });

  it('domain errors and the draft lock', async () => {
    expect(error(await trpcGet('groups.get', { group_id: 999999 }, owner))).toEqual(expected(404, 'NOT_FOUND', 'NOT_FOUND', MESSAGES.groupNotFound));
    await operatorStart(t);
    try {
      expect(error(await trpcPost('picks.save', { picks: [players[0]] }, owner))).toEqual(expected(409, 'CONFLICT', 'DRAFT_LOCKED', MESSAGES.picksLocked));
      expect(error(await trpcPost('groups.create', { name: 'Too late' }, owner))).toEqual(expected(409, 'CONFLICT', 'DRAFT_LOCKED', MESSAGES.groupsLocked));
    } finally {
      await operatorReset(t);
    }
  });

  it("input failing its schema: tRPC's BAD_REQUEST (400), kind INVALID_INPUT", async () => {
    expect(error(await trpcPost('picks.save', { picks: players.slice(0, 33) }, owner))).toEqual(
      expected(400, 'BAD_REQUEST', 'INVALID_INPUT', MESSAGES.picksCountOutOfRange),
    );
    // The fast path of the hot reads answers the same.
    expect(error(await trpcGet('leaderboard.group', { group_id: 0 }, owner))).toEqual(
      expected(400, 'BAD_REQUEST', 'INVALID_INPUT', 'group_id: Too small: expected number to be >0'),
    );
    expect(error(await trpcGet('groups.get', { group_id: 'a\u0000' }, owner))).toEqual(expected(422, 'UNPROCESSABLE_CONTENT', 'UNPROCESSABLE', NUL_MESSAGE));
  });

  it('who may call, over the adapter, the fast path and SSE', async () => {
    expect(error(await trpcGet('groups.mine', undefined))).toEqual(expected(401, 'UNAUTHORIZED', 'UNAUTHORIZED', MESSAGES.authRequired));
    expect(error(await trpcGet('leaderboard.group', { group_id: publicGroup.id }, outsider))).toEqual(expected(403, 'FORBIDDEN', 'FORBIDDEN', MESSAGES.notGroupMember));
    expect(error(await trpcGet('leaderboard.group', { group_id: group.id }, outsider))).toEqual(expected(404, 'NOT_FOUND', 'NOT_FOUND', MESSAGES.groupNotFound));
    const sse = await t.request('GET', '/trpc/draft.changes');
    const refused = /event: serialized-error\ndata: (.*)\n/.exec(sse.body);
    expect(JSON.parse(refused![1]!)).toMatchObject({ message: MESSAGES.authRequired, data: { code: 'UNAUTHORIZED', httpStatus: 401, kind: 'UNAUTHORIZED' } });
  });
});

describe('the table', () => {
  it('names every kind once, with a tRPC code and a status that agree with it', () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ERROR_KINDS].sort());
    for (const [kind, row] of Object.entries(ERROR_TABLE)) {
      const status = errorAnswer(new DomainError(kind as (typeof ERROR_KINDS)[number], 'x')).status;
      expect(status, kind).toBe(row.status);
    }
  });

  it('describes errors from outside the request: the database away is 503, anything unknown a bare 500', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(errorAnswer(refused)).toEqual({ status: 503, body: body('UNAVAILABLE', UNAVAILABLE_MESSAGE), fault: false });
    expect(errorAnswer(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: refused }))).toEqual({ status: 500, body: body('INTERNAL', 'Internal server error'), fault: true });
    expect(errorAnswer(new Error('secret details'))).toEqual({ status: 500, body: body('INTERNAL', 'Internal server error'), fault: true });
    expect(errorAnswer('a string')).toEqual({ status: 500, body: body('INTERNAL', 'Internal server error'), fault: true });
    expect(errorAnswer(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' }))).toEqual({
      status: 409,
      body: body('CONFLICT', 'That already exists'),
      fault: false,
    });
    // A zod error thrown outside tRPC (the identity routes parse their own bodies).
    const parsed = z.object({ email: z.string() }).safeParse({});
    expect(errorAnswer(parsed.error)).toEqual({ status: 422, body: body('INVALID_INPUT', 'email: Invalid input: expected string, received undefined'), fault: false });
    // tRPC's output check failing is the server's fault, not the caller's input.
    expect(errorAnswer(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed', cause: parsed.error })).status).toBe(500);
  });
});
