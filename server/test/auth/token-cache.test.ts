import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { createTestApp, type TestApp, type TestUser } from '../support/test-app.js';

/**
 * Verified tokens are kept in memory until they expire, and a sign-out drops its session's tokens. A
 * verification already under way when its session is signed out must not put the token back afterwards;
 * one under way when another session is signed out has nothing to do with it and is kept.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
});
afterAll(async () => t?.close());

const sessionOf = (user: TestUser) => decodeJwt(user.token).sid as string;
const verify = (user: TestUser) => t.deps.bearer.verify(() => t.orm().em.fork(), user.authorization);

describe('the verified-token cache', () => {
  it('a sign-out while a token of that session is being verified keeps the token out of memory', async () => {
    const user = await t.signUp();
    const verifying = verify(user);
    expect(verifying).toBeInstanceOf(Promise);
    t.deps.bearer.forgetSessions([sessionOf(user)]);
    expect(await verifying).toMatchObject({ ok: true });
    // Not kept: the next request checks the token (and its session) again.
    expect(verify(user)).toBeInstanceOf(Promise);
  });

  it('a sign-out of another session does not discard a verification under way', async () => {
    const [user, other] = [await t.signUp(), await t.signUp()];
    const verifying = verify(user);
    expect(verifying).toBeInstanceOf(Promise);
    t.deps.bearer.forgetSessions([sessionOf(other)]);
    expect(await verifying).toMatchObject({ ok: true });
    // Kept: answered from memory, at once.
    expect(verify(user)).toMatchObject({ ok: true, identity: { userId: user.id } });
  });
});
