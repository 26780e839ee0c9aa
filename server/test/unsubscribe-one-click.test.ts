/**
 * One-click unsubscribe for mail programs (RFC 8058). Gmail and Apple Mail POST the
 * List-Unsubscribe URL with `Content-Type: application/x-www-form-urlencoded` and the body
 * `List-Unsubscribe=One-Click` (some send it as multipart/form-data): that must switch the player's reminders
 * off. Before the fix both answered 415 and changed nothing. Only this route takes form bodies: a form post to
 * any other route is still refused (a browser can send one cross-site without asking first), and another
 * content type here gets a clear 4xx. The reminder mail, sent through a real SMTP exchange, carries
 * `List-Unsubscribe: <PUBLIC_URL/api/reminders/unsubscribe?…>` and `List-Unsubscribe-Post`.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReminders, unsubscribeUrl } from '../src/modules/reminders/reminders.service.js';
import { createTestApp, listenOnLoopback, type TestApp, type TestUser } from './support/test-app.js';

const PUBLIC = 'https://play.example.org';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: PUBLIC } });
  base = await listenOnLoopback(t.app);
});
afterAll(async () => t?.close());

/** A player who wants reminders (the default), with a participant row. */
async function subscriber(): Promise<TestUser> {
  const user = await t.signUp();
  await t.request('GET', '/api/auth/me', { user });
  return user;
}

const remindersOf = async (user: TestUser) => (await (await t.caller(user)).users.reminders()).reminders;

/** The player's unsubscribe link, as the mail carries it, made relative to this server. */
const linkOf = (user: TestUser) => {
  const url = new URL(unsubscribeUrl(PUBLIC, t.deps.keys.hmacSecret, user.id));
  return `${base}${url.pathname}${url.search}`;
};

describe('POST /api/reminders/unsubscribe as mail programs send it', () => {
  it('application/x-www-form-urlencoded, List-Unsubscribe=One-Click (Gmail, Apple Mail): 200, reminders off', async () => {
    const user = await subscriber();
    expect(await remindersOf(user)).toBe(true);
    const res = await fetch(linkOf(user), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You will not get reminders any more');
    expect(await remindersOf(user)).toBe(false);
  });

  it('multipart/form-data with the same field: 200, reminders off', async () => {
    const user = await subscriber();
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const res = await fetch(linkOf(user), { method: 'POST', body: form });
    expect(res.status).toBe(200);
    expect(await remindersOf(user)).toBe(false);
  });

  it('a form post with a wrong signature: 403, nothing changes', async () => {
    const user = await subscriber();
    const forged = `${base}/api/reminders/unsubscribe?p=${encodeURIComponent(user.id)}&sig=${'0'.repeat(64)}`;
    const res = await fetch(forged, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(res.status).toBe(403);
    expect(await remindersOf(user)).toBe(true);
  });

  it('another content type: a clear 415, nothing changes', async () => {
    const user = await subscriber();
    const res = await fetch(linkOf(user), { method: 'POST', headers: { 'content-type': 'application/xml' }, body: '<List-Unsubscribe>One-Click</List-Unsubscribe>' });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/content.type/i);
    expect(await remindersOf(user)).toBe(true);
  });

  it('form posts stay refused everywhere else (no form parser for the API)', async () => {
    const user = await subscriber();
    for (const [url, body] of [
      ['/api/picks/', 'picks=1'],
      ['/api/users/me/reminders', 'reminders=true'],
      ['/idp/sign-in', 'email=someone%40example.com'],
      ['/trpc/users.setReminders', 'reminders=false'],
    ] as const) {
      const res = await fetch(`${base}${url}`, {
        method: url === '/api/users/me/reminders' ? 'PATCH' : 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: user.authorization },
        body,
      });
      expect(res.status, url).toBe(415);
    }
    expect(await remindersOf(user)).toBe(true);
  });
});

/** An SMTP server that takes every message and keeps what came after DATA. */
async function acceptingSmtpServer() {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data: string | null = null;
    let pending = '';
    socket.write('220 mail.example.com ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = pending.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(data + pending.slice(0, end));
          pending = pending.slice(end + 5);
          data = null;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = pending.indexOf('\r\n');
        if (eol < 0) return;
        const line = pending.slice(0, eol);
        pending = pending.slice(eol + 2);
        if (/^(EHLO|HELO)/i.test(line)) socket.write('250-mail.example.com\r\n250 8BITMIME\r\n');
        else if (/^DATA/i.test(line)) {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, messages, close: () => new Promise((r) => server.close(r)) };
}

describe('the reminder mail over SMTP', () => {
  it('carries List-Unsubscribe <PUBLIC_URL/…> and List-Unsubscribe-Post: List-Unsubscribe=One-Click', async () => {
    const smtp = await acceptingSmtpServer();
    // An instance that mails by SMTP, on the same database (players sign up on the other: their codes are
    // read from its outbox).
    const mailing = await createTestApp({ sameDatabaseAs: t, env: { PUBLIC_URL: PUBLIC, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
    try {
      const user = await subscriber();
      mailing.clock.set(new Date(mailing.deps.draft.deadline.getTime() - 30 * 60 * 1000));
      expect(await runReminders(mailing.deps)).toMatchObject({ reminder: '1h', failed: 0 });
      const raw = smtp.messages.find((m) => m.includes(user.email))!;
      expect(raw).toBeDefined();
      // Headers end at the first blank line; a long header may be folded onto the next lines.
      const headers = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
      const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(headers)?.[1];
      const expected = unsubscribeUrl(PUBLIC, mailing.deps.keys.hmacSecret, user.id);
      expect(header('List-Unsubscribe')?.replace(/\s+/g, '')).toBe(`<${expected}>`);
      expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      expect(expected.startsWith(`${PUBLIC}/api/reminders/unsubscribe?p=`)).toBe(true);
    } finally {
      await mailing.close();
      await smtp.close();
    }
  });
});
