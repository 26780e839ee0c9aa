/**
 * The one error model (server/src/errors.ts), pinned by exact answers: for representative errors of every
 * origin (a service's DomainError, a schema, the REST adapter's own checks, Fastify, the identity routes,
 * a fault) the exact HTTP status and the exact body `{detail, message, code}` over HTTP, and over tRPC the
 * code, the status and `data.kind` — through the tRPC adapter, the fast path of the hot reads and SSE.
 */
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import { ERROR_KINDS } from '@first-round/shared/errors';
import { MESSAGES } from '@first-round/shared/messages';
import { NUL_MESSAGE, type GroupDto } from '@first-round/shared/schemas';
import { buildApp } from '../../src/app.js';
import { beginDrain } from '../../src/draining.js';
import { DomainError, ERROR_TABLE, errorAnswer, UNAVAILABLE_MESSAGE } from '../../src/errors.js';
import { ADMIN_EMAIL, createTestApp, listenOnLoopback, type TestApp, type TestUser } from '../support/test-app.js';
import { until } from '../support/server-process.js';
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

/**
 * What every status the server answers looks like to a client on a real connection: under /trpc a tRPC error
 * envelope (as tRPC's own adapter shapes one, `data.kind` included), everywhere else `{detail, message,
 * code}`, for the answers Fastify's parsers and Node's HTTP parser give before any route runs too. And an
 * over-long body gets its 413 however the client sends it: the server reads the rest (up to a bound) before
 * it answers and closes, instead of closing while the body is still coming (which resets the connection and
 * loses the answer).
 */
describe('every status in its protocol\'s shape, over a real connection', () => {
  let base: string;
  let port: number;
  beforeAll(async () => {
    base = await listenOnLoopback(t.app);
    port = Number(new URL(base).port);
  });

  const trpcEnvelope = (status: number, code: string, kind: string, message: string, more: Record<string, unknown> = {}) => ({
    error: { message, code: TRPC_ERROR_CODES_BY_KEY[code as keyof typeof TRPC_ERROR_CODES_BY_KEY], data: { code, httpStatus: status, ...more, detail: message, kind } },
  });

  it('a 3 MB body to POST /api/picks/ is answered 413 in the REST shape, by fetch as any client sends it', async () => {
    const res = await fetch(`${base}/api/picks/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: owner.authorization },
      body: JSON.stringify({ picks: [players[0]], padding: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect({ status: res.status, body: await res.json() }).toEqual({ status: 413, body: body('PAYLOAD_TOO_LARGE', 'Request body is too large') });
  });

  it('reads an over-long body to its end before answering 413 and closing: a client still sending is never reset', async () => {
    for (const [path, expected] of [
      ['/api/picks/', body('PAYLOAD_TOO_LARGE', 'Request body is too large')],
      ['/trpc/picks.save', trpcEnvelope(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', 'Request body is too large')],
    ] as const) {
      const exchange = await sendInTwoParts(port, path, 1024 * 1024, 2 * 1024 * 1024);
      expect(exchange.error, path).toBeUndefined();
      expect(exchange.status, path).toBe(413);
      expect(JSON.parse(exchange.body), path).toEqual(expected);
    }
  });

  it('over tRPC: a body too large, of a type it does not read, a path that is no procedure', async () => {
    const big = JSON.stringify({ picks: [players[0]], padding: 'x'.repeat(200 * 1024) });
    const json = { 'content-type': 'application/json' };
    const trpc = async (res: Response) => ({ status: res.status, type: res.headers.get('content-type'), body: await res.json() });
    expect(await trpc(await fetch(`${base}/trpc/picks.save`, { method: 'POST', headers: { ...json, authorization: owner.authorization }, body: big }))).toEqual({
      status: 413,
      type: 'application/json',
      body: trpcEnvelope(413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE', 'Request body is too large'),
    });
    expect(await trpc(await fetch(`${base}/trpc/picks.save`, { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<x/>' }))).toEqual({
      status: 415,
      type: 'application/json',
      body: trpcEnvelope(415, 'UNSUPPORTED_MEDIA_TYPE', 'BAD_REQUEST', 'Unsupported Media Type'),
    });
    for (const [path, procedure] of [['/trpc', ''], ['/trpc/', ''], ['/trpc/groups/get', 'groups/get'], ['/trpc/nonexistent', 'nonexistent']] as const) {
      expect(await trpc(await fetch(`${base}${path}`)), path).toEqual({
        status: 404,
        type: 'application/json',
        body: trpcEnvelope(404, 'NOT_FOUND', 'NOT_FOUND', `No procedure found on path "${procedure}"`, { path: procedure }),
      });
    }
    // tRPC's own answers keep theirs: unreadable JSON, a mutation asked for by GET.
    expect(await trpc(await fetch(`${base}/trpc/picks.save`, { method: 'POST', headers: json, body: '{"picks": ' }))).toMatchObject({
      status: 400,
      body: { error: { code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, kind: 'BAD_REQUEST' } } },
    });
    expect(await trpc(await fetch(`${base}/trpc/picks.save`))).toMatchObject({ status: 405, body: { error: { data: { code: 'METHOD_NOT_SUPPORTED', httpStatus: 405, kind: 'BAD_REQUEST' } } } });
  });

  it('headers too large (431) and an unreadable request (400), which Node answers before any route, in the shape of the path they were for', async () => {
    const padding = { 'x-padding': 'y'.repeat(20_000) };
    const trpc = await fetch(`${base}/trpc/draft.status`, { headers: padding });
    expect({ status: trpc.status, body: await trpc.json() }).toEqual({ status: 431, body: trpcEnvelope(431, 'BAD_REQUEST', 'BAD_REQUEST', 'Request headers are too large') });
    const rest = await fetch(`${base}/api/draft/status`, { headers: padding });
    expect({ status: rest.status, body: await rest.json() }).toEqual({ status: 431, body: body('BAD_REQUEST', 'Request headers are too large') });
    // A URL too long is the same refusal.
    const longUrl = await fetch(`${base}/trpc/draft.status?input=${'1'.repeat(20_000)}`);
    expect({ status: longUrl.status, body: await longUrl.json() }).toEqual({ status: 431, body: trpcEnvelope(431, 'BAD_REQUEST', 'BAD_REQUEST', 'Request headers are too large') });

    const unreadable = await rawAnswer(port, 'GET /api/draft/status HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect({ status: unreadable.status, body: JSON.parse(unreadable.body) }).toEqual({ status: 400, body: body('BAD_REQUEST', 'The request could not be read') });
    const unreadableTrpc = await rawAnswer(port, 'GET /trpc/draft.status HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    expect({ status: unreadableTrpc.status, body: JSON.parse(unreadableTrpc.body) }).toEqual({ status: 400, body: trpcEnvelope(400, 'BAD_REQUEST', 'BAD_REQUEST', 'The request could not be read') });
    expect((await rawAnswer(port, 'NONSENSE\r\n\r\n')).status).toBe(400);
  });
});

describe('the readiness probe', () => {
  it('answers 503 in the REST shape while draining, its status beside', async () => {
    const app = await buildApp(t.deps, { logger: false });
    try {
      await app.ready();
      beginDrain(app.server);
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 503, body: { status: 'draining', ...body('UNAVAILABLE', 'Shutting down') } });
    } finally {
      await app.close();
    }
  });
});

describe('an over-long body beyond the bound, or too slow, has its connection closed', () => {
  let app: FastifyInstance;
  let port: number;
  // Small bounds, so that a test sends little: 1 MB read at most, for at most half a second.
  const limits = { bytes: 1024 * 1024, ms: 500 };
  beforeAll(async () => {
    app = await buildApp(t.deps, { logger: false, bodyDiscard: limits });
    port = Number(new URL(await listenOnLoopback(app)).port);
  });
  afterAll(async () => app?.close());

  /** The server's side of the next connection. */
  const nextServerSocket = () => new Promise<Socket>((resolve) => app.server.once('connection', resolve));

  it('a body declared longer than the bound is answered 413 at once, not read', async () => {
    const answer = await rawAnswer(port, `POST /api/picks/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`);
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 413, body: body('PAYLOAD_TOO_LARGE', 'Request body is too large') });
    expect(answer.headers).toMatch(/\r\nconnection: close/i);
  });

  it('a body sent on past the bound is read no further: the connection is closed', async () => {
    const served = nextServerSocket();
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /trpc/picks.save HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const server = await served;
    const chunk = `${(64 * 1024).toString(16)}\r\n${'x'.repeat(64 * 1024)}\r\n`;
    // Sends as long as the connection is open; the server closes it once the bound is passed.
    while (!server.destroyed && !socket.destroyed) await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
    await until(() => server.destroyed, 10_000, 'the server closed the connection');
    expect(server.bytesRead).toBeLessThan(limits.bytes + 100 * 1024 + 4 * chunk.length);
    socket.destroy();
  });

  it('a body that trickles in is given the bound\'s time, then its connection is closed', async () => {
    const served = nextServerSocket();
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    // Declared within the bound, then a little, then nothing more.
    socket.write(`POST /api/picks/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${512 * 1024}\r\n\r\n${'x'.repeat(200 * 1024)}`);
    const server = await served;
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await until(() => server.destroyed, 20_000, 'the server closed the slow connection');
    await until(() => socket.readableEnded || socket.destroyed, 20_000, 'the client saw it closed');
    // The refusal went out as it closed.
    expect(parseAnswer(Buffer.concat(chunks).toString('utf8')).status).toBe(413);
    socket.destroy();
  });
});

/** The status line, headers and body of the one answer on a raw connection, the connection then closed by the server. */
async function rawAnswer(port: number, request: string): Promise<{ status: number; headers: string; body: string }> {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(request);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise((resolve, reject) => {
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  socket.destroy();
  return parseAnswer(Buffer.concat(chunks).toString('utf8'));
}

function parseAnswer(text: string): { status: number; headers: string; body: string } {
  const [head = '', ...rest] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: rest.join('\r\n\r\n') };
}

/**
 * A POST whose body is sent in two parts, reading nothing until all of it is written, as a client busy
 * sending does: the headers (a Content-Length for both parts) and the first part; then, once the server
 * has read that part or closed the connection, the second. Any error the connection meets is returned.
 */
async function sendInTwoParts(port: number, path: string, first: number, second: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  let error: Error | undefined;
  socket.on('error', (e) => (error ??= e));
  await new Promise((resolve) => socket.once('connect', resolve));
  let served: IncomingMessage | undefined;
  const watch = (request: IncomingMessage) => {
    if (request.socket.remotePort === socket.localPort) served = request;
  };
  t.app.server.on('request', watch);
  try {
    const write = (data: Buffer | string) => new Promise<void>((resolve) => socket.write(data, () => resolve()));
    await write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: ${owner.authorization}\r\nContent-Length: ${first + second}\r\n\r\n`);
    await write(Buffer.alloc(first, 'x'));
    await until(() => served && (served.socket.destroyed || served.socket.bytesRead >= first), 20_000, 'the server read the first part or closed the connection');
    await write(Buffer.alloc(second, 'x'));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.resume();
    await new Promise((resolve) => {
      socket.once('end', resolve);
      socket.once('close', resolve);
    });
    return { error, ...parseAnswer(Buffer.concat(chunks).toString('utf8')) };
  } finally {
    t.app.server.off('request', watch);
    socket.destroy();
  }
}
