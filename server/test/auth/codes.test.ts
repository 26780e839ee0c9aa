import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { idpClient } from './idp-client.js';

/** The one-time code's life in the built-in identity provider, as a client of the /idp routes sees it. */

let t: TestApp;
const { fresh, outbox, post, signUp, verify } = idpClient(() => t);

const MINUTE = 60_000;

const latestCode = async (email: string) => (await outbox(email))[0]!.code!;

function expectError(res: LightMyRequestResponse, status: number, message: string | RegExp) {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as { message: string };
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

/** A code other than the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

beforeAll(async () => {
  t = await createTestApp({ seedBoard: false });
});
afterAll(async () => t.close());

describe('verification codes', () => {
  it('sends a 6-digit code to the outbox, newest first, and the right code completes the sign-up', async () => {
    const u = fresh('coder');
    const up = await signUp(u.email, u.username);
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: 'needs_verification' });
    const mail = await outbox(u.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.code).toMatch(/^\d{6}$/);
    expect(mail[0]!.to).toBe(u.email);
    expect(mail[0]!.text).toContain(mail[0]!.code);
    expect(mail[0]!.subject).toContain(mail[0]!.code);

    const done = await verify(u.email, mail[0]!.code!);
    expect(done.statusCode).toBe(200);
    const body = done.json() as { status: string; user_id: string; token: string };
    expect(body.status).toBe('complete');
    expect(body.user_id).toMatch(/^user_/);
    expect(body.token.split('.')).toHaveLength(3);
    const me = await t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${body.token}` } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: body.user_id, email: u.email, screen_name: u.username });
  });

  it('a wrong code answers 400 "Invalid verification code" and the right one still works', async () => {
    const u = fresh('wrongcode');
    await signUp(u.email, u.username);
    const code = await latestCode(u.email);
    expectError(await verify(u.email, wrong(code)), 400, 'Invalid verification code');
    expectError(await verify(u.email, 'abcdef'), 400, 'Invalid verification code');
    expect((await verify(u.email, code)).statusCode).toBe(200);
  });

  it('a verify for an address that was never sent a code is refused the same way', async () => {
    expectError(await verify('nobody-here@example.com', '123456'), 400, 'Invalid verification code');
  });

  it('a code works until 10 minutes have passed, and not after', async () => {
    const early = fresh('early');
    await signUp(early.email, early.username);
    const earlyCode = await latestCode(early.email);
    t.idpClock.advance(10 * MINUTE - 5_000);
    expect((await verify(early.email, earlyCode)).statusCode).toBe(200);

    const late = fresh('late');
    await signUp(late.email, late.username);
    const lateCode = await latestCode(late.email);
    t.idpClock.advance(10 * MINUTE + 1_000);
    expectError(await verify(late.email, lateCode), 400, 'Invalid verification code');
    // A new code can be asked for and works.
    expect((await signUp(late.email, late.username)).statusCode).toBe(200);
    expect((await verify(late.email, await latestCode(late.email))).statusCode).toBe(200);
  });

  it('a consumed code cannot be used again, not even for a later sign-in', async () => {
    const u = fresh('reuse');
    await signUp(u.email, u.username);
    const code = await latestCode(u.email);
    expect((await verify(u.email, code)).statusCode).toBe(200);
    expectError(await verify(u.email, code), 400, 'Invalid verification code');

    t.idpClock.advance(MINUTE);
    expect((await post('/idp/sign-in', { email: u.email })).statusCode).toBe(200);
    const signInCode = await latestCode(u.email);
    if (signInCode !== code) expectError(await verify(u.email, code), 400, 'Invalid verification code');
    expect((await verify(u.email, signInCode)).statusCode).toBe(200);
    expectError(await verify(u.email, signInCode), 400, 'Invalid verification code');
  });

  it('a new code replaces the earlier one', async () => {
    const u = fresh('replaced');
    await signUp(u.email, u.username);
    const first = await latestCode(u.email);
    t.idpClock.advance(MINUTE);
    await signUp(u.email, u.username);
    const second = await latestCode(u.email);
    if (first !== second) expectError(await verify(u.email, first), 400, 'Invalid verification code');
    expect((await verify(u.email, second)).statusCode).toBe(200);
  });

  it('after 5 wrong tries the code is dead: the sixth try fails even with the right code', async () => {
    const control = fresh('fourwrong');
    await signUp(control.email, control.username);
    const controlCode = await latestCode(control.email);
    for (let i = 0; i < 4; i++) expectError(await verify(control.email, wrong(controlCode)), 400, 'Invalid verification code');
    expect((await verify(control.email, controlCode)).statusCode).toBe(200);

    const u = fresh('fivewrong');
    await signUp(u.email, u.username);
    const code = await latestCode(u.email);
    for (let i = 0; i < 5; i++) expectError(await verify(u.email, wrong(code)), 400, 'Invalid verification code');
    expectError(await verify(u.email, code), 400, 'Invalid verification code');
    // Nothing was created: the address can still sign up with a new code.
    t.idpClock.advance(MINUTE);
    expect((await signUp(u.email, u.username)).statusCode).toBe(200);
    expect((await verify(u.email, await latestCode(u.email))).statusCode).toBe(200);
  });

  it('parallel wrong guesses cannot exceed the 5 tries', async () => {
    const u = fresh('parallelwrong');
    await signUp(u.email, u.username);
    const code = await latestCode(u.email);
    const guesses = await Promise.all(Array.from({ length: 8 }, (_, i) => verify(u.email, String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'))));
    for (const g of guesses) expectError(g, 400, 'Invalid verification code');
    expectError(await verify(u.email, code), 400, 'Invalid verification code');
  });

  it('asking for another code within a minute answers 429 with a clear message; after 60 s it is sent', async () => {
    const u = fresh('resend');
    expect((await signUp(u.email, u.username)).statusCode).toBe(200);
    t.idpClock.advance(30_000);
    const again = await signUp(u.email, u.username);
    expectError(again, 429, /wait \d+ seconds/);
    expect((again.json() as { message: string }).message).toMatch(/code was just sent/i);
    expect(await outbox(u.email)).toHaveLength(1);
    t.idpClock.advance(30_000);
    expect((await signUp(u.email, u.username)).statusCode).toBe(200);
    expect(await outbox(u.email)).toHaveLength(2);

    // Sign-in is throttled the same way.
    expect((await verify(u.email, await latestCode(u.email))).statusCode).toBe(200);
    t.idpClock.advance(MINUTE);
    expect((await post('/idp/sign-in', { email: u.email })).statusCode).toBe(200);
    expectError(await post('/idp/sign-in', { email: u.email }), 429, /wait \d+ seconds/);
    // The address's spelling does not matter.
    expectError(await post('/idp/sign-in', { email: u.email.toUpperCase() }), 429, /wait \d+ seconds/);
  });

  it('at most 10 codes per address per hour (429), then allowed again an hour later', async () => {
    const u = fresh('hourly');
    for (let i = 0; i < 10; i++) {
      const res = await signUp(u.email, u.username);
      expect(res.statusCode, res.body).toBe(200);
      t.idpClock.advance(61_000);
    }
    expectError(await signUp(u.email, u.username), 429, 'Too many codes were requested for this address. Please try again in an hour.');
    expect(await outbox(u.email)).toHaveLength(10);
    t.idpClock.advance(60 * MINUTE);
    expect((await signUp(u.email, u.username)).statusCode).toBe(200);
    expect((await verify(u.email, await latestCode(u.email))).statusCode).toBe(200);
  });

  it('stores codes hashed: no identity table holds the plain code (only the dev outbox does)', async () => {
    const u = fresh('hashed');
    await signUp(u.email, u.username);
    const code = await latestCode(u.email);
    const rows = await t.db.query<{ code_hash: string }>(`select * from idp_code where email = $1`, [u.email]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).not.toBe(code);
    expect(rows[0]!.code_hash).not.toContain(code);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);

    const columns = await t.db.query<{ table_name: string; column_name: string }>(
      `select table_name, column_name from information_schema.columns
       where table_schema = current_schema() and table_name like 'idp\\_%' and table_name <> 'idp_outbox'`,
    );
    expect(columns.length).toBeGreaterThan(5);
    for (const { table_name, column_name } of columns) {
      const hits = await t.db.query(`select 1 from ${table_name} where ${column_name}::text = $1`, [code]);
      expect(hits, `${table_name}.${column_name}`).toHaveLength(0);
    }
    // Completing the sign-up leaves no plain code behind either.
    expect((await verify(u.email, code)).statusCode).toBe(200);
    for (const { table_name, column_name } of columns) {
      const hits = await t.db.query(`select 1 from ${table_name} where ${column_name}::text = $1`, [code]);
      expect(hits, `${table_name}.${column_name}`).toHaveLength(0);
    }
  });

  it('rejects malformed requests with 422 and a message', async () => {
    expectError(await post('/idp/sign-up', { email: 'not-an-email', username: 'abc' }), 422, /valid email/);
    expectError(await post('/idp/sign-up', { email: '', username: 'abc' }), 422, /Please enter your email/);
    expectError(await post('/idp/verify', { email: 'a@example.com', code: '' }), 422, /Please enter the verification code/);
    expectError(await post('/idp/sign-in', { email: 'a@example.com', extra: 1 }), 422, /Unknown field/);
  });
});

describe('sign-up and sign-in', () => {
  it('usernames are unique case-insensitively, at sign-up and at verify', async () => {
    const a = fresh('CaseName');
    await signUp(a.email, a.username);
    expect((await verify(a.email, await latestCode(a.email))).statusCode).toBe(200);
    expectError(await signUp('someone-else1@example.com', a.username.toLowerCase()), 409, 'That username is already taken');
    expectError(await signUp('someone-else2@example.com', a.username.toUpperCase()), 409, 'That username is already taken');

    // Two pending sign-ups with the same name: the second to verify is refused, and may pick another name.
    const b = fresh('pendingb');
    const c = fresh('pendingc');
    await signUp(b.email, 'SameName');
    await signUp(c.email, 'samename');
    const codeC = await latestCode(c.email);
    expect((await verify(b.email, await latestCode(b.email))).statusCode).toBe(200);
    expectError(await verify(c.email, codeC), 409, 'That username is already taken');
    const retry = await verify(c.email, codeC, 'othername');
    expect(retry.statusCode, retry.body).toBe(200);
    const me = await t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${(retry.json() as { token: string }).token}` } });
    expect(me.json()).toMatchObject({ screen_name: 'othername' });
  });

  it('sign-up without a username: verify asks for it, the code stays valid, and the retry with a username completes', async () => {
    const u = fresh('nousername');
    const up = await signUp(u.email);
    expect(up.statusCode).toBe(200);
    const code = await latestCode(u.email);
    const first = await verify(u.email, code);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ status: 'missing_requirements', missing_fields: ['username'] });
    expect(first.cookies.find((c) => c.name === 'fr_session')).toBeUndefined();
    // Asking again changes nothing.
    expect((await verify(u.email, code)).json()).toEqual({ status: 'missing_requirements', missing_fields: ['username'] });

    const done = await verify(u.email, code, '  LateName  ');
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json() as { status: string; user_id: string; token: string };
    expect(body.status).toBe('complete');
    const me = await t.request('GET', '/api/auth/me', { headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ id: body.user_id, email: u.email, screen_name: 'LateName' });
    expectError(await verify(u.email, code, 'LateName2'), 400, 'Invalid verification code');
  });

  it('a username given at verify is checked against the rules', async () => {
    const u = fresh('shortname');
    await signUp(u.email);
    const code = await latestCode(u.email);
    expectError(await verify(u.email, code, 'x'), 422, /at least 2 characters/);
    expect((await verify(u.email, code, 'xy')).statusCode).toBe(200);
  });

  it('never makes a second account for an address that has one (any spelling): a second sign-up signs the account in', async () => {
    const u = fresh('dupemail');
    await signUp(u.email, u.username);
    const { user_id } = (await verify(u.email, await latestCode(u.email))).json() as { user_id: string };
    t.idpClock.advance(MINUTE);
    expect((await signUp(u.email, 'another1')).statusCode).toBe(200);
    expect((await verify(u.email, await latestCode(u.email), 'another1')).json()).toMatchObject({ status: 'complete', user_id });
    t.idpClock.advance(MINUTE);
    expect((await signUp(`  ${u.email.toUpperCase()} `, 'another2')).statusCode).toBe(200);
    expect((await verify(u.email, await latestCode(u.email))).json()).toMatchObject({ status: 'complete', user_id });
    expect(await t.db.query(`select username from idp_user where lower(email) = lower($1)`, [u.email])).toEqual([{ username: u.username }]);
    expect(await outbox(u.email)).toHaveLength(3);
  });

  it('sign-in of an unknown address answers as a known one, and mails a note with no code (account-guessing.test.ts)', async () => {
    const res = await post('/idp/sign-in', { email: 'ghost@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'needs_verification' });
    expect((await outbox('ghost@example.com')).map((m) => m.code)).toEqual([null]);
  });

  it('sign-in of a known address (any spelling) returns the same user', async () => {
    const u = fresh('SignInAgain');
    await signUp(u.email, u.username);
    const first = (await verify(u.email, await latestCode(u.email))).json() as { user_id: string };
    t.idpClock.advance(MINUTE);
    expect((await post('/idp/sign-in', { email: u.email.toUpperCase() })).statusCode).toBe(200);
    const again = await verify(u.email.toUpperCase(), await latestCode(u.email));
    expect(again.statusCode).toBe(200);
    expect((again.json() as { user_id: string }).user_id).toBe(first.user_id);
  });
});

describe('racing verifications', () => {
  async function race(email: string) {
    const code = await latestCode(email);
    const results = await Promise.all([verify(email, code), verify(email, code)]);
    return results;
  }

  it('two sign-up verifications with the same code create one user, one session, one token', async () => {
    for (let i = 0; i < 3; i++) {
      const u = fresh('racesignup');
      await signUp(u.email, u.username);
      const results = await race(u.email);
      const winners = results.filter((r) => r.statusCode === 200);
      expect(winners).toHaveLength(1);
      expect((winners[0]!.json() as { token?: string }).token).toBeTruthy();
      const loser = results.find((r) => r.statusCode !== 200)!;
      expect(loser.statusCode).toBe(400);
      expect(loser.json()).not.toHaveProperty('token');
      const users = await t.db.query<{ id: string }>(`select id from idp_user where email = $1`, [u.email]);
      expect(users).toHaveLength(1);
      const sessions = await t.db.query(`select 1 from idp_session where user_id = $1`, [users[0]!.id]);
      expect(sessions).toHaveLength(1);
    }
  });

  it('two sign-in verifications with the same code create one session and one token', async () => {
    const u = fresh('racesignin');
    await signUp(u.email, u.username);
    const { user_id } = (await verify(u.email, await latestCode(u.email))).json() as { user_id: string };
    for (let i = 0; i < 3; i++) {
      t.idpClock.advance(MINUTE);
      expect((await post('/idp/sign-in', { email: u.email })).statusCode).toBe(200);
      const before = await t.db.query(`select 1 from idp_session where user_id = $1`, [user_id]);
      const results = await race(u.email);
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(results.filter((r) => (r.json() as { token?: string }).token)).toHaveLength(1);
      const after = await t.db.query(`select 1 from idp_session where user_id = $1`, [user_id]);
      expect(after.length - before.length).toBe(1);
    }
  });
});

describe('per-IP rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ seedBoard: false, env: { IDP_IP_RATE_LIMIT: '5' }, deps: { idpLimits: { requestsPerIpPerMinute: 5 } } });
  });
  afterAll(async () => limited.close());

  it('answers 429 with a message once an IP has made too many code requests in a minute', async () => {
    const statuses: number[] = [];
    let last: LightMyRequestResponse | undefined;
    for (let i = 0; i < 6; i++) {
      last = await limited.request('POST', '/idp/sign-in', { body: { email: `ip-limit-${i}@example.com` } });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(last!.statusCode).toBe(429);
    const body = last!.json() as { message: string; detail: string; code: string };
    expect(body.message).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
    expect(body.detail).toBe(body.message);
    expect(body.code).toBe('TOO_MANY_REQUESTS');
    // Verify counts too, so codes cannot be guessed faster by spreading over addresses.
    const v = await limited.request('POST', '/idp/verify', { body: { email: 'x@example.com', code: '123456' } });
    expect(v.statusCode).toBe(429);
    // Token refresh and sign-out are not part of the budget.
    expect((await limited.request('POST', '/idp/token')).statusCode).toBe(401);
    expect((await limited.request('POST', '/idp/sign-out')).statusCode).toBe(200);
    // Another IP is not affected.
    const other = await limited.app.inject({ method: 'POST', url: '/idp/sign-in', payload: { email: 'elsewhere@example.com' }, remoteAddress: '10.1.2.3' });
    expect(other.statusCode).toBe(200);
  });
});
