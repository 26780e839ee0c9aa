/**
 * Whether an address has an account is not told to whoever asks: sign-in and sign-up answer the same for
 * a known and an unknown address (200 `needs_verification`, the same bytes), do the same work (one code
 * row, one mail, the same per-address limits), and only the mailbox learns which it was. A known address
 * gets a code that signs its account in (from either form); an unknown one signing in gets a note saying
 * there is no account and where to make one, and no code anyone can use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES } from '@first-round/shared/messages';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { idpClient } from './idp-client.js';

let t: TestApp;
const { fresh, outbox, post, signUp, verify } = idpClient(() => t);
const MINUTE = 60_000;

const signIn = (email: string) => post('/idp/sign-in', { email });

/** An account made through the routes, signed out again: its address is known. */
async function account() {
  const u = fresh('known');
  expect((await signUp(u.email, u.username)).statusCode).toBe(200);
  const done = await verify(u.email, (await outbox(u.email))[0]!.code!);
  expect(done.statusCode, done.body).toBe(200);
  t.idpClock.advance(MINUTE);
  return { ...u, userId: (done.json() as { user_id: string }).user_id };
}

const answer = (res: LightMyRequestResponse) => ({ status: res.statusCode, body: res.body, type: res.headers['content-type'] });
const codeRows = async (email: string) => (await t.db.query<{ n: number }>(`select count(*)::int as n from idp_code where lower(email) = lower($1)`, [email]))[0]!.n;

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
});
afterAll(async () => t?.close());

describe('sign-in', () => {
  it('answers an unknown address exactly as a known one', async () => {
    const known = await account();
    const unknown = fresh('ghost');
    const [a, b] = [await signIn(known.email), await signIn(unknown.email)];
    expect(answer(a)).toEqual({ status: 200, body: JSON.stringify({ status: 'needs_verification' }), type: 'application/json; charset=utf-8' });
    expect(answer(b)).toEqual(answer(a));
    // The same work: one code row each (the unknown one's a code nobody has), one mail each.
    expect(await codeRows(unknown.email)).toBe(1);
    expect(await outbox(unknown.email)).toHaveLength(1);
  });

  it('mails an unknown address a note that there is no account and where to make one, with no code', async () => {
    const unknown = fresh('noaccount');
    expect((await signIn(unknown.email)).statusCode).toBe(200);
    const [note] = await outbox(unknown.email);
    expect(note).toMatchObject({ to: unknown.email, code: null });
    expect(note!.subject).toBe('Signing in to First Round');
    expect(note!.text).toContain(`There is no First Round account for ${unknown.email}`);
    expect(note!.text).toContain(`${t.config.publicOrigin}/sign-up?email=${encodeURIComponent(unknown.email)}`);
    expect(note!.text).not.toMatch(/\d{6}/);
    // Nothing signs in with it: no code is right, and the tries run out as for a real code.
    for (const code of ['000000', '123456', '999999', '000001', '424242']) expect((await verify(unknown.email, code)).json()).toMatchObject({ message: MESSAGES.invalidCode });
    expect(await t.db.query(`select 1 from idp_user where lower(email) = lower($1)`, [unknown.email])).toEqual([]);
  });

  it('keeps the per-address limits, the same for both: a second request within the wait is 429 either way', async () => {
    const known = await account();
    const unknown = fresh('ghostwait');
    for (const email of [known.email, unknown.email]) expect((await signIn(email)).statusCode).toBe(200);
    const [a, b] = [await signIn(known.email), await signIn(unknown.email)];
    expect(a.statusCode).toBe(429);
    expect(answer(b)).toEqual(answer(a));
  });
});

describe('sign-up', () => {
  it('answers an address that has an account exactly as a new one, and mails the account a code that signs it in', async () => {
    const known = await account();
    const other = fresh('newcomer');
    const [a, b] = [await signUp(known.email, fresh('another').username), await signUp(other.email, other.username)];
    expect(answer(a)).toEqual({ status: 200, body: JSON.stringify({ status: 'needs_verification' }), type: 'application/json; charset=utf-8' });
    expect(answer(b)).toEqual(answer(a));

    const [mail] = await outbox(known.email);
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect(mail!.text).toContain('You already have a First Round account with this address');
    const done = await verify(known.email, mail!.code!);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: 'complete', user_id: known.userId });
    // Signed in to the account it has: no second account, and its name is unchanged.
    expect(await t.db.query(`select username from idp_user where lower(email) = lower($1)`, [known.email])).toEqual([{ username: known.username }]);
  });

  it('an address with an account signs in from the sign-up form without a username too', async () => {
    const known = await account();
    expect((await signUp(known.email)).statusCode).toBe(200);
    const done = await verify(known.email, (await outbox(known.email))[0]!.code!);
    expect(done.json()).toMatchObject({ status: 'complete', user_id: known.userId });
  });

  it('a taken username is still told (names are public on the leaderboards), whoever asks', async () => {
    const known = await account();
    for (const email of [known.email, fresh('namehunter').email]) {
      const res = await signUp(email, known.username.toUpperCase());
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ message: MESSAGES.usernameTaken });
    }
  });

  it('after signing in on an unknown address, signing up with it goes ahead without waiting', async () => {
    const u = fresh('changedmind');
    expect((await signIn(u.email)).statusCode).toBe(200);
    expect((await signUp(u.email, u.username)).statusCode).toBe(200);
    const [mail] = await outbox(u.email);
    expect(mail!.code).toMatch(/^\d{6}$/);
    expect((await verify(u.email, mail!.code!)).json()).toMatchObject({ status: 'complete' });
  });
});
