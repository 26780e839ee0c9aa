import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestApp, latestOutboxCode, TOKEN_RENEW_AFTER_MS, type TestApp, type TestUser } from '../support/test-app.js';

/** Sessions of the built-in identity provider: the cookie, token refresh, sign-out. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
});
afterAll(async () => t.close());

const me = (token: string) => t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
const refresh = (cookie?: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/idp/token', { headers: { ...(cookie ? { cookie } : {}), ...headers } });

/** Signs in again (a second session for the same user), returning the new token and cookie. */
async function signInAgain(user: TestUser) {
  t.idpClock.advance(61_000);
  expect((await t.request('POST', '/idp/sign-in', { body: { email: user.email } })).statusCode).toBe(200);
  const res = await t.request('POST', '/idp/verify', { body: { email: user.email, code: await latestOutboxCode(t, user.email) } });
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === 'fr_session')!;
  return { token: (res.json() as { token: string }).token, cookie: `fr_session=${cookie.value}` };
}

describe('sessions', () => {
  it('verify sets an HttpOnly, SameSite=Lax session cookie on /idp, and no token in the cookie', async () => {
    await t.request('POST', '/idp/sign-up', { body: { email: 'cookie@example.com', username: 'cookieuser' } });
    const res = await t.request('POST', '/idp/verify', { body: { email: 'cookie@example.com', code: await latestOutboxCode(t, 'cookie@example.com') } });
    expect(res.statusCode).toBe(200);
    const header = String(res.headers['set-cookie']);
    expect(header).toMatch(/^fr_session=/);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*SameSite=Lax/i);
    expect(header).toMatch(/;\s*Path=\/idp(;|$)/);
    const cookie = res.cookies.find((c) => c.name === 'fr_session')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie.value).not.toContain((res.json() as { token: string }).token);
  });

  it('verify also sets a readable session hint with no secret in it, and sign-out clears both', async () => {
    await t.request('POST', '/idp/sign-up', { body: { email: 'hint@example.com', username: 'hintuser' } });
    const res = await t.request('POST', '/idp/verify', { body: { email: 'hint@example.com', code: await latestOutboxCode(t, 'hint@example.com') } });
    const session = res.cookies.find((c) => c.name === 'fr_session')!;
    const hint = res.cookies.find((c) => c.name === 'fr_signed_in')!;
    expect(hint).toMatchObject({ value: '1', path: '/', sameSite: 'Lax', maxAge: session.maxAge });
    expect(hint.httpOnly).toBeFalsy();
    // The hint alone is no session: no token for it.
    expect((await refresh('fr_signed_in=1')).statusCode).toBe(401);
    const out = await t.request('POST', '/idp/sign-out', { headers: { cookie: `fr_session=${session.value}; fr_signed_in=1` } });
    expect(out.statusCode).toBe(200);
    const cleared = Object.fromEntries(out.cookies.map((c) => [c.name, c]));
    expect(cleared.fr_session).toMatchObject({ value: '', path: '/idp' });
    expect(cleared.fr_signed_in).toMatchObject({ value: '', path: '/' });
  });

  it('the session cookie is not stored in clear', async () => {
    const user = await t.signUp('clearcookie');
    const secret = user.cookie.slice('fr_session='.length);
    const rows = await t.db.query<{ secret_hash: string }>(`select secret_hash from idp_session where user_id = $1`, [user.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_hash).not.toBe(secret);
    expect(rows[0]!.secret_hash).not.toContain(secret);
  });

  it('POST /idp/token with the cookie returns a fresh token for the same user and session, which works', async () => {
    const user = await t.signUp('refresher');
    const res = await refresh(user.cookie);
    expect(res.statusCode).toBe(200);
    const { token } = res.json() as { token: string };
    const claims = decodeJwt(token);
    const original = decodeJwt(user.token);
    expect(claims.sub).toBe(user.id);
    expect(claims.sid).toBe(original.sid);
    expect(claims.exp! - claims.iat!).toBe(60);
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(5);
    const profile = await me(token);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({ id: user.id, screen_name: 'refresher' });
  });

  it('a token is minted for our own calling origin, never for a foreign one', async () => {
    const user = await t.signUp('origins');
    const ours = decodeJwt((((await refresh(user.cookie, { origin: 'http://127.0.0.1:3000' })).json()) as { token: string }).token);
    expect(ours.azp).toBe('http://127.0.0.1:3000');
    // A foreign page gets no token at all (cross-site POSTs to /idp are refused).
    const foreign = await refresh(user.cookie, { origin: 'https://evil.example' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).not.toHaveProperty('token');
    // A page of ours reached by another host name (a LAN address) is same-origin: its token names our main origin.
    const lan = decodeJwt((((await refresh(user.cookie, { origin: 'http://192.168.1.5:3000', host: '192.168.1.5:3000' })).json()) as { token: string }).token);
    expect(lan.azp).toBe('http://localhost:3000');
  });

  it('no cookie, or an unknown one, yields 401 and no token', async () => {
    const none = await refresh();
    expect(none.statusCode).toBe(401);
    expect((none.json() as { message: string }).message).toContain('Authentication required');
    const bogus = await refresh('fr_session=not-a-real-session-secret');
    expect(bogus.statusCode).toBe(401);
    expect(bogus.json()).not.toHaveProperty('token');
  });

  it('sign-out ends the session: the cookie yields no token and the old bearer token stops working', async () => {
    const user = await t.signUp('signingout');
    const refreshed = ((await refresh(user.cookie)).json() as { token: string }).token;
    expect((await me(user.token)).statusCode).toBe(200);

    const out = await t.request('POST', '/idp/sign-out', { headers: { cookie: user.cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ status: 'signed_out' });
    const cleared = out.cookies.find((c) => c.name === 'fr_session');
    expect(cleared?.value ?? '').toBe('');
    expect(cleared?.path).toBe('/idp');

    const again = await refresh(user.cookie);
    expect(again.statusCode).toBe(401);
    expect(again.json()).not.toHaveProperty('token');
    for (const token of [user.token, refreshed]) {
      const res = await me(token);
      expect(res.statusCode).toBe(401);
      expect((res.json() as { message: string }).message).toContain('Authentication required');
    }
    // Signing out twice is harmless.
    expect((await t.request('POST', '/idp/sign-out', { headers: { cookie: user.cookie } })).statusCode).toBe(200);
  });

  it('a client without cookies signs out with its bearer token', async () => {
    const user = await t.signUp('bearerout');
    expect((await t.request('POST', '/idp/sign-out', { user })).statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await refresh(user.cookie)).statusCode).toBe(401);
  });

  it('signing out one session leaves the same user’s other sessions signed in', async () => {
    const user = await t.signUp('twodevices');
    const second = await signInAgain(user);
    expect((await t.request('POST', '/idp/sign-out', { headers: { cookie: user.cookie } })).statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(second.token)).statusCode).toBe(200);
    expect((await refresh(second.cookie)).statusCode).toBe(200);
  });

  it('a session stays refreshable after the provider clock has moved on (tokens use real time)', async () => {
    const user = await t.signUp('latertoken');
    t.idpClock.advance(2 * 3600_000);
    const res = await refresh(user.cookie);
    expect(res.statusCode).toBe(200);
    expect((await me((res.json() as { token: string }).token)).statusCode).toBe(200);
  });
});

describe('the test harness renews tokens as the web app does', () => {
  // A file's users outlive their first one-minute token on a loaded machine: t.request and t.caller swap an
  // old one for a new one through /idp/token, as the web app does, and never hide a sign-out.
  it('a user whose token is older than TOKEN_RENEW_AFTER_MS gets a new one before the request', async () => {
    const user = await t.signUp('harnessrenew');
    const first = user.token;
    expect((await t.request('GET', '/api/auth/me', { user })).statusCode).toBe(200);
    expect(user.token).toBe(first);
    user.tokenAt -= TOKEN_RENEW_AFTER_MS;
    const res = await t.request('GET', '/api/auth/me', { user });
    expect(res.statusCode).toBe(200);
    // Renewed now (a token made in the same second as the first can be the same bytes: iat is in seconds).
    expect(Date.now() - user.tokenAt).toBeLessThan(TOKEN_RENEW_AFTER_MS);
    expect(decodeJwt(user.token).sub).toBe(decodeJwt(first).sub);
    user.tokenAt -= TOKEN_RENEW_AFTER_MS;
    const caller = await t.caller(user);
    expect((await caller.auth.me()).participant_id).toBe(user.id);
  });

  it('a signed-out user keeps the old token, which is refused', async () => {
    const user = await t.signUp('harnessout');
    expect((await t.request('POST', '/idp/sign-out', { headers: { cookie: user.cookie } })).statusCode).toBe(200);
    const old = user.token;
    user.tokenAt -= TOKEN_RENEW_AFTER_MS;
    expect((await t.request('GET', '/api/auth/me', { user })).statusCode).toBe(401);
    expect(user.token).toBe(old);
    expect(Date.now() - user.tokenAt).toBeGreaterThanOrEqual(TOKEN_RENEW_AFTER_MS);
  });
});

describe('production', () => {
  let prod: TestApp;
  beforeAll(async () => {
    prod = await createTestApp({ seedBoard: false, env: { NODE_ENV: 'production', PUBLIC_URL: 'https://play.example.org' } });
  });
  afterAll(async () => prod.close());

  it('the dev outbox answers 404, while sign-up still works', async () => {
    const up = await prod.request('POST', '/idp/sign-up', { body: { email: 'prod@example.com', username: 'produser' } });
    expect(up.statusCode).toBe(200);
    const res = await prod.request('GET', '/idp/dev/outbox?email=prod@example.com');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/\d{6}/);
  });
});
