import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../../src/app.js';
import { createTestApp, latestOutboxCode, type TestApp } from '../support/test-app.js';

/** The server's logs (request logs and the app's own) never hold a full token or a session cookie. */

const lines: string[] = [];
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(chunk.toString());
    done();
  },
});

let t: TestApp;
let logged: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false, deps: { log: pino({ level: 'trace' }, sink) as unknown as FastifyBaseLogger } });
  // The same app as production builds it (its logger options), writing to the sink.
  logged = await buildApp(t.deps, { logger: { ...(loggerOptions('trace') as object), stream: sink } });
  await logged.ready();
});
afterAll(async () => {
  await logged.close();
  await t.close();
});

const inject = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) =>
  logged.inject({ method, url, headers, ...(payload ? { payload } : {}) });

describe('logs', () => {
  it('hold no token and no session cookie through a whole sign-up, use and sign-out', async () => {
    const email = 'logged@example.com';
    expect((await inject('POST', '/idp/sign-up', {}, { email, username: 'loggeduser' })).statusCode).toBe(200);
    const verified = await inject('POST', '/idp/verify', {}, { email, code: await latestOutboxCode(t, email) });
    expect(verified.statusCode).toBe(200);
    const { token } = verified.json() as { token: string };
    const secret = verified.cookies.find((c) => c.name === 'fr_session')!.value;
    const cookie = `fr_session=${secret}`;
    const authorization = `Bearer ${token}`;

    expect((await inject('GET', '/api/auth/me', { authorization })).statusCode).toBe(200);
    expect((await inject('GET', '/api/auth/auth-test', { authorization, cookie })).statusCode).toBe(200);
    expect((await inject('GET', '/api/auth/jwt-debug', { authorization })).statusCode).toBe(200);
    expect((await inject('GET', '/trpc/auth.me', { authorization })).statusCode).toBe(200);
    const refreshed = ((await inject('POST', '/idp/token', { cookie })).json() as { token: string }).token;
    expect((await inject('GET', '/api/auth/me', { authorization: `Bearer ${token}x` })).statusCode).toBe(401);
    expect((await inject('POST', '/idp/sign-out', { cookie, authorization })).statusCode).toBe(200);
    expect((await inject('GET', '/api/auth/me', { authorization })).statusCode).toBe(401);

    const text = lines.join('');
    expect(text).toContain('/api/auth/me'); // the sink did receive the request logs
    for (const value of [token, refreshed, secret, token.split('.')[2]!, refreshed.split('.')[2]!]) {
      expect(text).not.toContain(value);
    }
  });

  // SSE subscriptions carry the token in the URL (`?connectionParams={"token":…}`, as tRPC's
  // httpSubscriptionLink sends it); the request log's URL redaction must drop it.
  it('hold no token passed in an SSE subscription URL (connectionParams)', async () => {
    lines.length = 0;
    await t.request('POST', '/idp/sign-up', { body: { email: 'sse@example.com', username: 'sseuser' } });
    const verified = await t.request('POST', '/idp/verify', { body: { email: 'sse@example.com', code: await latestOutboxCode(t, 'sse@example.com') } });
    const { token } = verified.json() as { token: string };
    const params = encodeURIComponent(JSON.stringify({ token }));
    await inject('GET', `/trpc/auth.me?connectionParams=${params}`);
    const text = lines.join('');
    expect(text).toContain('/trpc/auth.me');
    expect(text).not.toContain(token);
  });
});
