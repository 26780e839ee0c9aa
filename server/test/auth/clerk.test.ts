import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { LOCAL_ISSUER } from '../../src/modules/auth/local-idp.service.js';

/**
 * Clerk mode: the server verifies Clerk's session tokens with CLERK_JWT_KEY (networkless), provisions a
 * participant from the token's claims (no CLERK_SECRET_KEY, so no backend API lookup), and has no /idp.
 */

const ISSUER = 'https://clerk.first-round.example';
const AZP = 'http://localhost:3000';
const clerkKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicPem = clerkKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString();

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedBoard: false, env: { CLERK_JWT_KEY: publicPem, CLERK_ISSUER: ISSUER } });
});
afterAll(async () => t.close());

const nowS = () => Math.floor(Date.now() / 1000);
const clerkUserId = () => `user_2${crypto.randomBytes(12).toString('hex')}`;

interface ClerkClaims {
  sub?: string;
  sid?: string;
  azp?: string;
  iss?: string;
  exp?: number;
  nbf?: number;
  email?: string;
  username?: string;
}

/** A Clerk-shaped session token (as Clerk's frontend API issues them, plus optional custom claims). */
function clerkToken(claims: ClerkClaims = {}, key: crypto.KeyObject = clerkKeys.privateKey) {
  const iat = nowS();
  const { sub = clerkUserId(), sid = `sess_${crypto.randomBytes(8).toString('hex')}`, azp = AZP, iss = ISSUER, exp, nbf, ...custom } = claims;
  return new SignJWT({ sid, azp, ...custom })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: 'ins_clerk_test' })
    .setSubject(sub)
    .setIssuer(iss)
    .setIssuedAt(iat)
    .setNotBefore(nbf ?? iat - 10)
    .setExpirationTime(exp ?? iat + 60)
    .sign(key);
}

const me = (token: string) => t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } });

describe('clerk mode', () => {
  it('is chosen when CLERK_JWT_KEY is set', () => {
    expect(t.config.authProvider).toBe('clerk');
    expect(t.deps.bearer.provider).toBe('clerk');
  });

  it('accepts a Clerk session token and provisions a participant from its claims', async () => {
    const sub = clerkUserId();
    const token = await clerkToken({ sub, email: 'clerkuser@example.com', username: 'ClerkUser' });
    const res = await me(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      id: sub,
      participant_id: sub,
      email: 'clerkuser@example.com',
      screen_name: 'ClerkUser',
      is_first_login: true,
      is_admin: false,
    });
    const rows = await t.db.query(`select id, email, screen_name from participant where id = $1`, [sub]);
    expect(rows).toEqual([{ id: sub, email: 'clerkuser@example.com', screen_name: 'ClerkUser' }]);

    // The same user again (a later token) is the same participant, not a second one.
    expect((await me(await clerkToken({ sub }))).json()).toMatchObject({ id: sub, email: 'clerkuser@example.com', screen_name: 'ClerkUser' });
    expect(await t.db.query(`select 1 from participant where id = $1`, [sub])).toHaveLength(1);

    // tRPC sees the same.
    const caller = await t.caller(`Bearer ${await clerkToken({ sub })}`);
    expect((await caller.auth.me()).id).toBe(sub);
    const report = await caller.auth.authTest();
    expect(report.token_info.provider).toBe('clerk');
  });

  it('provisions a participant without email or username when the token carries none', async () => {
    const sub = clerkUserId();
    const res = await me(await clerkToken({ sub }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: sub, email: null, screen_name: null, is_first_login: true });
  });

  it('a username already used by another participant is not copied (the user picks another), not an error', async () => {
    await me(await clerkToken({ username: 'TakenName', email: 'first@example.com' }));
    const sub = clerkUserId();
    const res = await me(await clerkToken({ sub, username: 'takenname', email: 'second@example.com' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: sub, email: 'second@example.com', screen_name: null });
  });

  it('parallel first calls of a new user create one participant', async () => {
    const sub = clerkUserId();
    const tokens = await Promise.all([1, 2, 3].map(() => clerkToken({ sub, email: 'parallel@example.com', username: 'parallel' })));
    const results = await Promise.all(tokens.map(me));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await t.db.query(`select 1 from participant where id = $1`, [sub])).toHaveLength(1);
  });

  it('two new users racing for the same username both get in; one of them gets the name', async () => {
    for (let i = 0; i < 20; i++) {
      const tokens = await Promise.all([1, 2].map(() => clerkToken({ username: `racename${i}` })));
      const results = await Promise.all(tokens.map(me));
      expect(results.map((r) => r.statusCode), results.map((r) => r.body).join()).toEqual([200, 200]);
      const names = results.map((r) => (r.json() as { screen_name: string | null }).screen_name);
      expect(names.filter((n) => n === `racename${i}`)).toHaveLength(1);
      expect(names.filter((n) => n === null)).toHaveLength(1);
    }
  });

  it('refuses tokens signed by another key, for another party, from another issuer, expired, or not for a user', async () => {
    const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const bad = [
      await clerkToken({}, otherKey),
      await clerkToken({}, t.deps.keys.privateKey), // the local provider's key is not trusted in clerk mode
      await clerkToken({ azp: 'https://evil.example' }),
      await clerkToken({ iss: 'https://clerk.evil.example' }),
      await clerkToken({ iss: LOCAL_ISSUER }),
      await clerkToken({ exp: nowS() - 60, nbf: nowS() - 3600 }),
      await clerkToken({ nbf: nowS() + 120, exp: nowS() + 300 }),
      await clerkToken({ sub: 'org_123' }),
    ];
    for (const token of bad) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect((res.json() as { message: string }).message).toContain('Authentication required');
      const caller = await t.caller(`Bearer ${token}`);
      await expect(caller.auth.me()).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringContaining('Authentication required') });
    }
    expect((await me('garbage')).statusCode).toBe(401);
    const none = await t.request('GET', '/api/auth/me');
    expect(none.statusCode).toBe(401);
    expect((none.json() as { message: string }).message).toBe('Authentication required');
  });

  it('has no built-in identity provider: every /idp route is 404', async () => {
    for (const [method, url] of [
      ['POST', '/idp/sign-up'],
      ['POST', '/idp/sign-in'],
      ['POST', '/idp/verify'],
      ['POST', '/idp/token'],
      ['POST', '/idp/sign-out'],
      ['GET', '/idp/dev/outbox?email=a@example.com'],
      ['GET', '/idp/config'],
    ] as const) {
      const res = await t.request(method, url, { body: method === 'POST' ? { email: 'a@example.com', username: 'abc', code: '123456' } : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await t.db.query(`select 1 from idp_code`)).toHaveLength(0);
  });
});

describe('clerk mode without CLERK_ISSUER', () => {
  let t2: TestApp;
  beforeAll(async () => {
    t2 = await createTestApp({ seedBoard: false, env: { CLERK_JWT_KEY: publicPem } });
  });
  afterAll(async () => t2.close());

  it('still checks the signature and the authorized party', async () => {
    const ok = await t2.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${await clerkToken({ iss: 'https://any.clerk.accounts.dev' })}` } });
    expect(ok.statusCode, ok.body).toBe(200);
    const otherKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    for (const token of [await clerkToken({}, otherKey), await clerkToken({ azp: 'https://evil.example' })]) {
      expect((await t2.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    }
  });
});
