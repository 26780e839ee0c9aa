import crypto from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client';
import type { AppRouter } from '../../src/trpc/root.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { loadSigningKeys } from '../../src/modules/auth/keys.js';
import { resetDraft, startDraft } from '../../src/modules/draft/draft.service.js';
import { MAX_STREAMS_PER_USER } from '../../src/modules/leaderboard/live-stream.js';
import { createTestApp, latestOutboxCode, listenOnLoopback, type TestApp } from '../support/test-app.js';

/** Sign-in and session defects found by trying the game as an attacker. */

let t: TestApp;
let baseUrl: string;
let n = 0;
const fresh = (prefix: string) => {
  const name = `${prefix}${++n}`;
  return { email: `${name}@example.com`, username: name };
};

beforeAll(async () => {
  t = await createTestApp({ startEvents: true, seedBoard: false });
  baseUrl = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Waits for a condition the server reaches on its own time (the machine is shared and busy). */
async function until(check: () => boolean, ms = 5000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const attemptsOf = async (email: string) =>
  (await t.db.query<{ attempts: number }>(`select attempts from idp_code where lower(email) = $1 order by id desc limit 1`, [email]))[0]!.attempts;

describe('the development outbox', () => {
  const outbox = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/idp/dev/outbox?email=someone%40example.com', remoteAddress, headers });

  it('answers requests from the machine itself', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect((await outbox(address)).statusCode, address).toBe(200);
  });

  it('is not there for a web page that reaches this machine under a name of its own (DNS rebinding)', async () => {
    // A page from evil.example whose name now resolves to 127.0.0.1: the browser connects from this machine,
    // and the page may read the answer because, to the browser, it is its own origin.
    for (const host of ['evil.example:3000', 'evil.example', '192.168.1.5:3000']) {
      const res = await outbox('127.0.0.1', { host });
      expect(res.statusCode, host).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found', message: 'Not found', code: 'NOT_FOUND' });
    }
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'localhost']) expect((await outbox('127.0.0.1', { host })).statusCode, host).toBe(200);
  });

  it('is not there for anyone on the network, forwarded-for header or not', async () => {
    for (const address of ['192.168.1.20', '10.0.0.5', '::ffff:192.168.1.20', 'fe80::1']) {
      const res = await outbox(address);
      expect(res.statusCode, address).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found', message: 'Not found', code: 'NOT_FOUND' });
    }
    const trusting = await createTestApp({ seedBoard: false, env: { TRUST_PROXY: '1' }, sameDatabaseAs: t });
    try {
      const res = await trusting.app.inject({
        method: 'GET',
        url: '/idp/dev/outbox?email=someone%40example.com',
        remoteAddress: '192.168.1.20',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await trusting.close();
    }
  });
});

describe('sign-in codes under concurrency', () => {
  const wrongFor = (code: string) => (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it('25 simultaneous wrong guesses: exactly 5 are counted, and then the right code is refused', async () => {
    for (let round = 0; round < 3; round++) {
      const u = fresh('wrongburst');
      expect((await postJson('/idp/sign-up', u)).status).toBe(200);
      const code = await latestOutboxCode(t, u.email);
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => postJson('/idp/verify', { email: u.email, code: wrongFor(code)(i) })));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
      expect(await attemptsOf(u.email)).toBe(5);
      const right = await postJson('/idp/verify', { email: u.email, code });
      expect(right.status).toBe(400);
      expect(await right.json()).toMatchObject({ message: 'Invalid verification code' });
    }
  });

  it('25 simultaneous guesses evaluate at most 5: the right code among them cannot slip through late', async () => {
    // Several rounds: the old read-compare-increment let a burst through on almost every round.
    for (let round = 0; round < 3; round++) {
      const u = fresh('burst');
      expect((await postJson('/idp/sign-up', u)).status).toBe(200);
      const code = await latestOutboxCode(t, u.email);
      // 24 wrong guesses and the right one last, all on the wire at once through real sockets.
      const guesses = [...Array.from({ length: 24 }, (_, i) => wrongFor(code)(i)), code];
      const answers = await Promise.all(guesses.map((c) => postJson('/idp/verify', { email: u.email, code: c })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(1);
      for (const s of statuses) expect([200, 400]).toContain(s);
      // At most 5 wrong guesses were compared (a right answer gives its try back).
      expect(await attemptsOf(u.email)).toBeLessThanOrEqual(5);
      // Whatever happened, the code is spent now: it answers no more.
      expect((await postJson('/idp/verify', { email: u.email, code })).status).toBe(400);
    }
  });

  it('the right code for a sign-up whose username was taken meanwhile does not use up a try', async () => {
    const u = fresh('clash');
    expect((await postJson('/idp/sign-up', u)).status).toBe(200);
    const code = await latestOutboxCode(t, u.email);
    // Someone else finishes signing up with that name first.
    await t.signUp(u.username, `other-${u.email}`);
    for (let i = 0; i < 4; i++) expect((await postJson('/idp/verify', { email: u.email, code: wrongFor(code)(i) })).status).toBe(400);
    const taken = await postJson('/idp/verify', { email: u.email, code });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ message: 'That username is already taken' });
    // The player picks another name and retries with the same (right) code.
    const retried = await postJson('/idp/verify', { email: u.email, code, username: `${u.username}b` });
    expect(retried.status, await retried.clone().text()).toBe(200);
  });

  it('the right code that only lacks a username does not use up a try', async () => {
    const u = fresh('nameless');
    expect((await postJson('/idp/sign-up', { email: u.email })).status).toBe(200);
    const code = await latestOutboxCode(t, u.email);
    for (let i = 0; i < 6; i++) {
      const res = await postJson('/idp/verify', { email: u.email, code });
      expect(((await res.json()) as { status: string }).status).toBe('missing_requirements');
    }
    const done = await postJson('/idp/verify', { email: u.email, code, username: u.username });
    expect(done.status).toBe(200);
  });
});

describe('resend wait', () => {
  it('applies only while an unused code is outstanding: signing in right after signing up is allowed', async () => {
    const u = fresh('quick');
    expect((await postJson('/idp/sign-up', u)).status).toBe(200);
    expect((await postJson('/idp/verify', { email: u.email, code: await latestOutboxCode(t, u.email) })).status).toBe(200);
    const again = await postJson('/idp/sign-in', { email: u.email });
    expect(again.status, await again.clone().text()).toBe(200);
    // With that code unused, a second request within the minute still waits.
    const third = await postJson('/idp/sign-in', { email: u.email });
    expect(third.status).toBe(429);
  });

  it('holds under concurrency: 25 simultaneous requests for one address send one code', async () => {
    const u = await t.signUp(fresh('mailbomb').username);
    const mailsBefore = (await t.db.query(`select 1 from idp_outbox where lower(to_address) = $1`, [u.email])).length;
    const answers = await Promise.all(Array.from({ length: 25 }, () => postJson('/idp/sign-in', { email: u.email })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 24 }, () => 429)]);
    const mails = (await t.db.query(`select 1 from idp_outbox where lower(to_address) = $1`, [u.email])).length;
    expect(mails - mailsBefore).toBe(1);
  });
});

describe('tokens in the URL', () => {
  it('are accepted only for the live draft subscription, not for plain tRPC calls', async () => {
    const u = await t.signUp(fresh('urltoken').username);
    const params = encodeURIComponent(JSON.stringify({ token: u.token }));
    const viaUrl = await fetch(`${baseUrl}/trpc/auth.me?connectionParams=${params}`);
    expect(viaUrl.status).toBe(401);
    const viaHeader = await fetch(`${baseUrl}/trpc/auth.me`, { headers: { authorization: u.authorization } });
    expect(viaHeader.status).toBe(200);
  });
});

function subscribe(token: string, input?: { lastEventId?: string }) {
  const client = createTRPCClient<AppRouter>({
    links: [httpSubscriptionLink({ url: `${baseUrl}/trpc`, EventSource, connectionParams: async () => ({ token }) })],
  });
  // Settles on the first event replayed (a healthy stream) or on the refusal.
  let settle!: (v: string) => void;
  const outcome = new Promise<string>((r) => (settle = r));
  const sub = client.draft.changes.subscribe(input, {
    onData: () => settle('data'),
    onError: (e) => settle(`error: ${(e.data as { httpStatus?: number } | undefined)?.httpStatus ?? ''} ${e.message}`),
  });
  return { outcome, stop: () => sub.unsubscribe() };
}

describe('live streams', () => {
  // Two draft events, so a stream resuming after the first replays the second at once: a stream that
  // delivers it is open and healthy.
  let resumeFrom: string;
  beforeAll(async () => {
    const first = await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    await resetDraft(t.orm().em.fork(), 'test');
    resumeFrom = String(first.event_id);
  });

  // tRPC answers a subscription with an event stream whatever happens; a refusal arrives as its first
  // event, carrying the HTTP status the client sees as `data.httpStatus`.
  it('refuse a resume id beyond any event with 400, not an internal error', async () => {
    const u = await t.signUp(fresh('bigid').username);
    const s = subscribe(u.token, { lastEventId: '9223372036854775808' });
    expect(await s.outcome).toMatch(/^error: 400 /);
    s.stop();
  });

  it(`are capped at ${MAX_STREAMS_PER_USER} per player (429); a closed stream frees its place`, async () => {
    const u = await t.signUp(fresh('streams').username);
    const open = Array.from({ length: MAX_STREAMS_PER_USER }, () => subscribe(u.token, { lastEventId: resumeFrom }));
    expect(await Promise.all(open.map((s) => s.outcome))).toEqual(open.map(() => 'data'));
    const extra = subscribe(u.token, { lastEventId: resumeFrom });
    expect(await extra.outcome).toMatch(/^error: 429 Too many live connections/);
    extra.stop();
    // Another player is not affected.
    const other = subscribe((await t.signUp(fresh('neighbour').username)).token, { lastEventId: resumeFrom });
    expect(await other.outcome).toBe('data');
    other.stop();
    open[0]!.stop();
    // The place frees as soon as the server notices the closed stream.
    let again = '';
    for (let i = 0; i < 100 && again !== 'data'; i++) {
      const s = subscribe(u.token, { lastEventId: resumeFrom });
      again = await s.outcome;
      s.stop();
      if (again !== 'data') await new Promise((r) => setTimeout(r, 50));
    }
    expect(again).toBe('data');
    for (const s of open) s.stop();
  });

  it('give a place back when the client leaves before its stream has started', async () => {
    const u = await t.signUp(fresh('flaky').username);
    const url = `${baseUrl}/trpc/draft.changes?connectionParams=${encodeURIComponent(JSON.stringify({ token: u.token }))}`;
    // A flaky connection (or a page reloaded over and over): requests dropped a few milliseconds in,
    // while the server is still checking the token or setting the stream up.
    for (let i = 0; i < 2 * MAX_STREAMS_PER_USER; i++) {
      const leave = new AbortController();
      const request = fetch(url, { signal: leave.signal }).catch(() => undefined);
      await new Promise((r) => setTimeout(r, i % 10));
      leave.abort();
      await request;
    }
    await until(() => t.deps.live.streamsOpenBy(u.id) === 0);
    // The player still has all their places.
    const open = Array.from({ length: MAX_STREAMS_PER_USER }, () => subscribe(u.token, { lastEventId: resumeFrom }));
    expect(await Promise.all(open.map((s) => s.outcome))).toEqual(open.map(() => 'data'));
    for (const s of open) s.stop();
  });
});

describe('sign-out', () => {
  it('refuses a cross-site request (foreign Origin) and ends nothing', async () => {
    const u = await t.signUp(fresh('csrf').username);
    const foreign = await postJson('/idp/sign-out', {}, { cookie: u.cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const me = await fetch(`${baseUrl}/api/auth/me`, { headers: { authorization: u.authorization } });
    expect(me.status).toBe(200);
    const refreshed = await postJson('/idp/token', {}, { cookie: u.cookie });
    expect(refreshed.status).toBe(200);
    // From the app's own origin (and from clients that send none) it works.
    const own = await postJson('/idp/sign-out', {}, { cookie: u.cookie, origin: 'http://localhost:3000' });
    expect(own.status).toBe(200);
    expect((await postJson('/idp/token', {}, { cookie: u.cookie })).status).toBe(401);
  });
});

/** An SMTP server that greets, offers AUTH and turns every login down. */
async function refusingSmtpServer() {
  const server = net.createServer((socket) => {
    socket.write('220 mail.example.com ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (/^(EHLO|HELO)/i.test(line)) socket.write('250-mail.example.com\r\n250 AUTH PLAIN LOGIN\r\n');
        else if (/^AUTH/i.test(line)) socket.write('535 5.7.8 Authentication credentials invalid\r\n');
        else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('502 not here\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => new Promise((r) => server.close(r)) };
}

describe('SMTP failures', () => {
  it('say what failed in the log, without the server URL or its password', async () => {
    const smtp = await refusingSmtpServer();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const mailing = await createTestApp({
      seedBoard: false,
      sameDatabaseAs: t,
      env: { SMTP_URL: `smtp://mailer:hunter2secret@127.0.0.1:${smtp.port}` },
      deps: { log: pino({ level: 'trace' }, sink) as unknown as FastifyBaseLogger },
    });
    try {
      const res = await mailing.request('POST', '/idp/sign-up', { body: fresh('smtp') });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Failed to send verification code' });
      expect(res.body).not.toContain('hunter2secret');
      const log = lines.join('');
      // The operator learns why codes are not going out…
      expect(log).toContain('could not send a sign-in code by SMTP');
      expect(log).toContain('EAUTH');
      // …and nobody reading the log learns the password.
      expect(log).not.toContain('hunter2secret');
      expect(log).not.toContain(Buffer.from('\u0000mailer\u0000hunter2secret').toString('base64'));
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });
});

describe('configuration errors', () => {
  const message = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it('name the variable and the problem, never the secret', () => {
    const smtp = message({ SMTP_URL: 'http://mailer:hunter2secret@mail.example.com' });
    expect(smtp).toMatch(/^Invalid configuration: SMTP_URL/);
    expect(smtp).not.toContain('hunter2secret');
    const clerk = message({ CLERK_SECRET_KEY: 'xk_live_supersecretvalue123' });
    expect(clerk).toMatch(/^Invalid configuration: CLERK_SECRET_KEY/);
    expect(clerk).not.toContain('supersecretvalue123');
    const db = message({ DATABASE_URL: 'mysql://admin:s3cretpass@db:3306/x' });
    expect(db).toMatch(/^Invalid configuration: DATABASE_URL/);
    expect(db).not.toContain('s3cretpass');
    const key = message({ LOCAL_IDP_PRIVATE_KEY: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' });
    expect(key).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
    // Harmless values are still shown: they help.
    expect(message({ PORT: 'abc' })).toMatch(/^Invalid configuration: PORT="abc"/);
  });

  it('name LOCAL_IDP_PRIVATE_KEY when it is not a usable key, without printing it', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiGsecretbutbroken==\n-----END PRIVATE KEY-----';
    const error = await loadSigningKeys({ privateKeyPem: pem, dataDir: '/nonexistent' }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^Invalid configuration: LOCAL_IDP_PRIVATE_KEY: /);
    expect((error as Error).message).not.toContain('secretbutbroken');
    // A readable key of the wrong kind is caught at start, not at the first sign-in.
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(loadSigningKeys({ privateKeyPem: ec, dataDir: '/nonexistent' })).rejects.toThrow(
      new ConfigError('Invalid configuration: LOCAL_IDP_PRIVATE_KEY: must be an RSA private key (tokens are signed with RS256)'),
    );
  });
});
