/**
 * Absolute links never come from the request: share pages, invite pages, the share API and the
 * reminder mail all point at the configured public address (PUBLIC_URL; in development and tests
 * http://localhost:PORT), whatever Host, X-Forwarded-Host or X-Forwarded-Proto a request carries, even with
 * a trusted proxy hop (TRUST_PROXY=1). In production the server refuses to start without PUBLIC_URL.
 * Before the fix a forged `Host: evil.example` made the share page say og:image="http://evil.example/…".
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDto, ShareLink } from '@first-round/shared/schemas';
import { ConfigError, loadConfig } from '../src/config.js';
import type { Mail } from '../src/modules/auth/mailer.js';
import { runReminders } from '../src/modules/reminders/reminders.service.js';
import { createTestApp, listenOnLoopback, type TestApp, type TestUser } from './support/test-app.js';
import { createGroup, expectStatus } from './game/helpers.js';

const PUBLIC = 'https://play.example.org';
const DEV = 'http://localhost:3000';
const FORGED: Record<string, string>[] = [
  { host: 'evil.example' },
  { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
  { 'x-forwarded-host': 'evil.example:8443', 'x-forwarded-proto': 'http' },
];

let dev: TestApp;
let prod: TestApp;
let bases: { dev: string; prod: string };
let owner: TestUser;
let group: GroupDto;
let share: ShareLink;
let invite: string;

beforeAll(async () => {
  // Both trust one proxy hop: a forwarded host or scheme would be believed by `request.host`/`protocol`.
  dev = await createTestApp({ env: { TRUST_PROXY: '1' } });
  prod = await createTestApp({ sameDatabaseAs: dev, env: { NODE_ENV: 'production', PUBLIC_URL: `${PUBLIC}/`, TRUST_PROXY: '1' } });
  bases = { dev: await listenOnLoopback(dev.app), prod: await listenOnLoopback(prod.app) };
  owner = await dev.signUp('linkowner');
  group = await createGroup(dev, owner);
  share = expectStatus<ShareLink>(await dev.request('POST', '/api/share/links', { user: owner, body: { group_id: group.id } }), 200);
  invite = expectStatus<{ token: string }>(await dev.request('POST', '/api/groups/join-links', { user: owner, body: { group_id: group.id, expiration_hours: 24 } }), 200).token;
});
afterAll(async () => {
  await prod?.close();
  await dev?.close();
});

/** A GET over real HTTP with the headers given as they are (fetch would not send a Host of our choosing). */
function getRaw(base: string, pathname: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(pathname, base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'GET', headers: { accept: 'text/html', ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every absolute http(s) URL in a text (attribute values, mail bodies). */
const absoluteUrls = (text: string) => [...text.matchAll(/https?:\/\/[^\s"'<>]+/g)].map((m) => m[0]);

describe('pages with absolute links, asked with a forged Host or X-Forwarded-Host', () => {
  const pages = () => [`/s/${share.token}`, `/groups/join/${invite}`];

  for (const [name, origin] of [
    ['development (PUBLIC_URL unset): http://localhost:PORT', DEV],
    ['production: PUBLIC_URL', PUBLIC],
  ] as const) {
    it(`point at the configured origin only: ${name}`, async () => {
      const base = origin === DEV ? bases.dev : bases.prod;
      for (const page of pages()) {
        for (const headers of FORGED) {
          const res = await getRaw(base, page, headers);
          expect(res.status, `${page} ${JSON.stringify(headers)}`).toBe(200);
          const urls = absoluteUrls(res.body).filter((u) => !u.startsWith('http://www.w3.org/'));
          // og:url, og:image and twitter:image at least.
          expect(urls.length, page).toBeGreaterThanOrEqual(3);
          for (const url of urls) expect(url, `${page} with ${JSON.stringify(headers)}`).toMatch(new RegExp(`^${origin}/`));
          expect(res.body).not.toContain('evil.example');
        }
      }
    });
  }

  it('the share API answers absolute links on the configured origin', async () => {
    expect(share.url).toBe(`${DEV}/s/${share.token}`);
    expect(share.image_url).toBe(`${DEV}/api/share/${share.token}.png`);
    const owner2 = await prod.signUp('linkowner2');
    const link = expectStatus<ShareLink>(await prod.request('POST', '/api/share/links', { user: owner2, headers: { host: 'evil.example' } }), 200);
    expect(link.url).toBe(`${PUBLIC}/s/${link.token}`);
    expect(link.image_url).toBe(`${PUBLIC}/api/share/${link.token}.png`);
  });
});

describe('mail', () => {
  it('the reminder links (picks pages, unsubscribe, List-Unsubscribe) use the configured origin', async () => {
    for (const [t, origin] of [
      [dev, DEV],
      [prod, PUBLIC],
    ] as const) {
      const player = await t.signUp();
      await t.request('GET', '/api/auth/me', { user: player });
      const sent: Mail[] = [];
      const capturing = { ...t.deps.mailer, send: async (em: Parameters<typeof t.deps.mailer.send>[0], mail: Mail) => (sent.push(mail), t.deps.mailer.send(em, mail)) };
      t.clock.set(new Date(t.deps.draft.deadline.getTime() - 30 * 60 * 1000));
      try {
        await runReminders({ ...t.deps, mailer: capturing });
      } finally {
        t.clock.set(new Date());
      }
      const mail = sent.find((m) => m.to === player.email)!;
      expect(mail, 'a reminder to the new player').toBeDefined();
      const urls = [...absoluteUrls(mail.text), ...absoluteUrls(mail.headers?.['List-Unsubscribe'] ?? '')];
      expect(urls.length).toBeGreaterThanOrEqual(3);
      for (const url of urls) expect(url).toMatch(new RegExp(`^${origin}/`));
      expect(mail.headers?.['List-Unsubscribe']).toMatch(new RegExp(`^<${origin}/api/reminders/unsubscribe\\?p=[^>]+&sig=[0-9a-f]+>$`));
      expect(mail.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
  });
});

describe('PUBLIC_URL in production', () => {
  it('is required: loadConfig throws a ConfigError naming it; in development the origin is localhost:PORT', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', PUBLIC_URL: '' })).toThrow(/^PUBLIC_URL is required when NODE_ENV=production/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://play.example.org/some/path' }).publicOrigin).toBe(PUBLIC);
    expect(loadConfig({ PORT: '4100' }).publicOrigin).toBe('http://localhost:4100');
    expect(loadConfig({ NODE_ENV: 'test' }).publicOrigin).toBe(DEV);
    // Only a web address: a link must open the game.
    expect(() => loadConfig({ PUBLIC_URL: 'javascript:alert(1)' })).toThrow(/PUBLIC_URL/);
  });

  it('npm start refuses to start without it, with one line that says what to set', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const result = spawnSync(process.execPath, [path.join(root, 'scripts', 'start.mjs')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, NODE_ENV: 'production', PUBLIC_URL: '', SKIP_CLIENT_BUILD: '1', DATABASE_URL: '', DATA_DIR: '/nonexistent/first-round' },
    });
    expect(result.status).toBe(1);
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^PUBLIC_URL is required when NODE_ENV=production/);
  });
});
