import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';
import { LOCAL_ISSUER } from '../../src/modules/auth/local-idp.service.js';

/**
 * Every defect of a bearer token answers 401 with a message naming 'Authentication required', through the
 * REST adapter and through tRPC alike; none of them reaches a procedure.
 */

let t: TestApp;
let user: TestUser;
let sid: string;

const AZP = 'http://localhost:3000';
const nowS = () => Math.floor(Date.now() / 1000);

interface Claims {
  sub?: string;
  sid?: string;
  azp?: string;
  iss?: string;
  iat?: number;
  nbf?: number;
  exp?: number;
}

/** A token shaped like the provider's own, with any claim overridden; signed with the app's key unless told. */
function sign(overrides: Claims = {}, key: crypto.KeyObject = t.deps.keys.privateKey, kid = t.deps.keys.kid) {
  const iat = overrides.iat ?? nowS();
  const claims = { sid, azp: AZP, ...overrides };
  return new SignJWT({ sid: claims.sid, azp: claims.azp })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid })
    .setSubject(overrides.sub ?? user.id)
    .setIssuer(overrides.iss ?? LOCAL_ISSUER)
    .setIssuedAt(iat)
    .setNotBefore(overrides.nbf ?? iat)
    .setExpirationTime(overrides.exp ?? iat + 60)
    .sign(key);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const payload = () => ({ sub: user.id, sid, azp: AZP, iss: LOCAL_ISSUER, iat: nowS(), nbf: nowS(), exp: nowS() + 60 });

/** Asserts the token is refused with 401 over REST and UNAUTHORIZED over tRPC, both naming the rule. */
async function expectRefused(authorization: string | undefined, exactMessage?: string) {
  const res = await t.request('GET', '/api/auth/me', { headers: authorization === undefined ? {} : { authorization } });
  expect(res.statusCode).toBe(401);
  const body = res.json() as { detail: string; message: string; code: string };
  expect(body.message).toContain('Authentication required');
  expect(body.detail).toBe(body.message);
  expect(body.code).toBe('UNAUTHORIZED');
  if (exactMessage) expect(body.message).toBe(exactMessage);
  // The unprefixed path is the same call.
  expect((await t.request('GET', '/auth/me', { headers: authorization === undefined ? {} : { authorization } })).statusCode).toBe(401);

  const caller = await t.caller(authorization);
  const error = await caller.auth.me().then(
    () => null,
    (e: unknown) => e as { code: string; message: string },
  );
  expect(error).not.toBeNull();
  expect(error!.code).toBe('UNAUTHORIZED');
  expect(error!.message).toContain('Authentication required');
  if (exactMessage) expect(error!.message).toBe(exactMessage);
}

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
  user = await t.signUp('tokenuser');
  sid = decodeJwt(user.token).sid as string;
});
afterAll(async () => t.close());

describe('bearer tokens', () => {
  it('accepts the provider token and a hand-signed token with the same claims (the control case)', async () => {
    const res = await t.request('GET', '/api/auth/me', { user });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id });
    const own = await sign();
    expect((await t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${own}` } })).statusCode).toBe(200);
    expect((await (await t.caller(`Bearer ${own}`)).auth.me()).id).toBe(user.id);
  });

  it('no token: 401 "Authentication required"', async () => {
    await expectRefused(undefined, 'Authentication required');
  });

  it('malformed headers and garbage tokens', async () => {
    await expectRefused('Basic dXNlcjpwYXNz');
    await expectRefused(user.token); // the token without the Bearer scheme
    await expectRefused('Bearer');
    await expectRefused('Bearer not-a-jwt');
    await expectRefused('Bearer aaa.bbb.ccc');
    await expectRefused(`Bearer ${user.token}x`); // a tampered signature
    const [h, , s] = user.token.split('.');
    await expectRefused(`Bearer ${h}.${b64({ ...payload(), sub: 'user_someoneelse' })}.${s}`); // a tampered payload
  });

  it('expired tokens (beyond the 5 s skew)', async () => {
    const iat = nowS() - 3600;
    await expectRefused(`Bearer ${await sign({ iat, nbf: iat, exp: nowS() - 30 })}`);
  });

  it('tokens not valid yet (nbf beyond the 5 s skew)', async () => {
    await expectRefused(`Bearer ${await sign({ nbf: nowS() + 120, exp: nowS() + 300 })}`);
  });

  it('tokens signed by another RSA key, with or without our kid', async () => {
    const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await expectRefused(`Bearer ${await sign({}, other)}`);
    await expectRefused(`Bearer ${await sign({}, other, 'ins_other')}`);
  });

  it('alg HS256, whether signed with a random secret or with the public key as the secret', async () => {
    for (const secret of [crypto.randomBytes(32), new TextEncoder().encode(t.deps.keys.publicKeyPem)]) {
      const token = await new SignJWT({ sid, azp: AZP })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: t.deps.keys.kid })
        .setSubject(user.id)
        .setIssuer(LOCAL_ISSUER)
        .setIssuedAt()
        .setNotBefore(nowS())
        .setExpirationTime('60s')
        .sign(secret);
      await expectRefused(`Bearer ${token}`);
    }
  });

  it('alg none', async () => {
    const token = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload())}.`;
    await expectRefused(`Bearer ${token}`);
    await expectRefused(`Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload())}`);
  });

  it('a wrong or missing authorized party (azp)', async () => {
    await expectRefused(`Bearer ${await sign({ azp: 'https://evil.example' })}`);
    const noAzp = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: t.deps.keys.kid })
      .setSubject(user.id)
      .setIssuer(LOCAL_ISSUER)
      .setIssuedAt()
      .setNotBefore(nowS())
      .setExpirationTime('60s')
      .sign(t.deps.keys.privateKey);
    await expectRefused(`Bearer ${noAzp}`);
  });

  it('an unknown issuer', async () => {
    await expectRefused(`Bearer ${await sign({ iss: 'https://evil.example/idp' })}`);
  });

  it('a subject that is not a user id', async () => {
    await expectRefused(`Bearer ${await sign({ sub: 'temp_123' })}`);
    await expectRefused(`Bearer ${await sign({ sub: 'admin' })}`);
    await expectRefused(`Bearer ${await sign({ sub: 'user_' })}`);
  });

  it('a token whose session does not exist, or has been signed out', async () => {
    await expectRefused(`Bearer ${await sign({ sid: 'sess_doesnotexist' })}`);
    const other = await t.signUp('signedoutuser');
    expect((await t.request('GET', '/api/auth/me', { user: other })).statusCode).toBe(200);
    const out = await t.request('POST', '/idp/sign-out', { headers: { cookie: other.cookie } });
    expect(out.statusCode).toBe(200);
    await expectRefused(other.authorization);
  });
});
