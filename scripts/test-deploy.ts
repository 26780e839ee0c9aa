// `npm run test:deploy`: the game deployed as docs/deploy.md tells an operator to, on this machine alone, and
// used through its public address. It starts PostgreSQL (embedded, or a throwaway database on DATABASE_URL's
// server), a real SMTP server, two instances of the game (NODE_ENV=production, one PUBLIC_URL, TRUST_PROXY=1,
// one signing key) and nginx with deploy/nginx.conf terminating TLS with a certificate made for the run;
// then, in Chromium at https://first-round.test:<port> and with HTTPS clients through the proxy:
//   - a player signs up with the code mailed over SMTP and makes picks;
//   - a reminder before the lock arrives over SMTP with one-click unsubscribe headers, and the one-click
//     POST (form-encoded, as mail programs send it) through the proxy switches reminders off;
//   - a rolling restart: instance A gets SIGTERM while the page watches and 20 players save picks in a
//     loop, A comes back, then B the same way: every answer 200, no error on the page, no saved pick lost;
//   - the operator records a pick through B directly while the page's live stream is held by A: the page
//     shows it, pushed through that stream (how soon is a benchmark's question, not this test's).
// Every assertion is checked and reported (a failed one does not stop the next stage); everything started
// is stopped and every temporary file removed at the end, failed or not. Each stage's time is printed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { buildServer, isStale } from './lib/builds.mjs';
import { freePort } from '../server/src/free-port.js';
import { redactUrl } from '../server/src/redact-url.js';
import {
  codeIn,
  httpsClient,
  makeCertificate,
  ROOT,
  startDatabase,
  startInstance,
  startMailServer,
  siteValues,
  startNginx,
  type Answer,
  type Database,
  type HttpsClient,
  type Instance,
  type MailServer,
  type Proxy,
} from './lib/deploy-stack';

const NAME = 'first-round.test';
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const OPERATOR = 'operator@deploy.test';
const LOAD_CLIENTS = 20;
/**
 * A bound on a hang for a change recorded on one instance to reach a page whose live stream another instance
 * holds: a second on a quiet machine, many on a busy one. The check is that it arrives, through that stream.
 */
const LIVE_MS = 30_000;
/** The whole run, whatever happens: then everything is stopped and the run fails. */
const RUN_LIMIT_MS = 600_000;

// ------------------------------------------------------------------------------------ reporting

const runStarted = Date.now();
const stageTimes: { name: string; seconds: number; ok: boolean }[] = [];
const checks: { name: string; ok: boolean; detail?: string }[] = [];

function check(name: string, ok: boolean, detail?: string) {
  checks.push({ name, ok, detail });
  console.log(`  ${ok ? '✓' : '✗'} ${name}${!ok && detail ? `\n      ${detail.split('\n').join('\n      ')}` : ''}`);
}

async function stage<T>(name: string, run: () => Promise<T>): Promise<T> {
  console.log(`\n── ${name}`);
  const started = Date.now();
  try {
    const value = await run();
    stageTimes.push({ name, seconds: (Date.now() - started) / 1000, ok: true });
    return value;
  } catch (error) {
    stageTimes.push({ name, seconds: (Date.now() - started) / 1000, ok: false });
    throw error;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------------------ what is running

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-deploy-'));
fs.chmodSync(tmp, 0o755);
let db: Database | undefined;
let smtp: MailServer | undefined;
let proxy: Proxy | undefined;
let browser: Browser | undefined;
/** Chromium starting (beside the instances): awaited by the cleanup too, so a browser never outlives the run. */
let launching: Promise<Browser | undefined> | undefined;
let client: HttpsClient | undefined;
const instances = new Map<string, Instance>();

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
    client?.close();
    await proxy?.stop().catch(() => undefined);
    await Promise.all([...instances.values()].map((i) => i.stop().catch(() => undefined)));
    await smtp?.close().catch(() => undefined);
    await db?.stop().catch((error: unknown) => console.error(`Could not stop the database: ${(error as Error).message}`));
    fs.rmSync(tmp, { recursive: true, force: true });
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`${signal}: stopping everything`);
    void cleanup().then(() => process.exit(130));
  });
}
// A last resort if the process exits some other way: nothing it started may outlive it.
process.once('exit', () => {
  for (const instance of instances.values()) instance.child.kill('SIGKILL');
  proxy?.child.kill('SIGKILL');
  fs.rmSync(tmp, { recursive: true, force: true });
});
const limit = setTimeout(() => {
  console.error(`The deployment test did not finish within ${RUN_LIMIT_MS / 1000} s: stopping everything`);
  void cleanup().then(() => process.exit(1));
}, RUN_LIMIT_MS);
limit.unref();

// ------------------------------------------------------------------------------------ players, through the proxy

interface Session {
  email: string;
  /** The Set-Cookie lines of the sign-in's answer, attributes and all. */
  setCookies: string[];
  token(): Promise<string>;
}

const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const cookiesOf = (answer: Answer) => ([] as string[]).concat(answer.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');

/** A new account through the built-in sign-in's HTTP interface, the code read from the mail the SMTP server received. */
async function signUp(email: string, username: string): Promise<Session> {
  const since = Date.now();
  const asked = await client!.request('POST', '/idp/sign-up', json({ email, username }));
  if (asked.status !== 200) throw new Error(`sign-up for ${email}: ${asked.status} ${asked.text}`);
  const mail = await smtp!.waitFor((m) => m.to.includes(email) && m.receivedAt >= since && /your First Round code/.test(m.subject), 15_000, `code for ${email}`);
  const verified = await client!.request('POST', '/idp/verify', json({ email, code: codeIn(mail), username }));
  if (verified.status !== 200) throw new Error(`verify for ${email}: ${verified.status} ${verified.text}`);
  let token = verified.json<{ token: string }>().token;
  let issued = Date.now();
  const cookie = cookiesOf(verified);
  return {
    email,
    setCookies: ([] as string[]).concat(verified.headers['set-cookie'] ?? []),
    // Tokens last 60 s: a fresh one from the session cookie, as the web app gets it, before then.
    async token() {
      if (Date.now() - issued > 40_000) {
        const fresh = await client!.request('POST', '/idp/token', { headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
        if (fresh.status !== 200) throw new Error(`token refresh for ${email}: ${fresh.status} ${fresh.text}`);
        token = fresh.json<{ token: string }>().token;
        issued = Date.now();
      }
      return token;
    },
  };
}

async function api(session: Session, method: string, pathAndQuery: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${await session.token()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return client!.request(method, `/api${pathAndQuery}`, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** An operator's call straight to one instance (not through the proxy). */
async function direct(instance: Instance, session: Session, method: string, pathAndQuery: string, body?: unknown) {
  const res = await fetch(`${instance.url}/api${pathAndQuery}`, {
    method,
    headers: { authorization: `Bearer ${await session.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  if (!res.ok) throw new Error(`${method} ${pathAndQuery} on ${instance.name}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<unknown>;
}

// ------------------------------------------------------------------------------------ the page

interface Stream {
  opened: number;
  /** The instance nginx sent it to (HOST:PORT, from the test's X-Upstream header), once it answered. */
  upstream?: string;
  ended?: number;
}

interface Watch {
  page: Page;
  /** The page's live streams (draft.changes over SSE), in the order they opened. */
  streams: Stream[];
  /** Its other requests that failed or answered 4xx/5xx. */
  failed: string[];
  /** Script errors in the page. */
  exceptions: string[];
}

const isStream = (request: Request) => new URL(request.url()).pathname === '/trpc/draft.changes';

function watch(page: Page): Watch {
  const w: Watch = { page, streams: [], failed: [], exceptions: [] };
  const byRequest = new Map<Request, Stream>();
  page.on('request', (request) => {
    if (!isStream(request)) return;
    const stream: Stream = { opened: Date.now() };
    byRequest.set(request, stream);
    w.streams.push(stream);
  });
  const ended = (request: Request) => {
    const stream = byRequest.get(request);
    if (stream) stream.ended = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', (request) => {
    if (isStream(request)) return ended(request);
    w.failed.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on('response', (response) => {
    const stream = byRequest.get(response.request());
    if (stream) stream.upstream = response.headers()['x-upstream'];
    else if (response.status() >= 400) w.failed.push(`${response.request().method()} ${response.url()}: ${response.status()}`);
  });
  page.on('pageerror', (error) => w.exceptions.push(error.message));
  return w;
}

/** The page's one open live stream once it has answered and nothing has changed for `quietMs`; throws after `timeoutMs`. */
async function settledStream(w: Watch, timeoutMs = 10_000, quietMs = 300): Promise<Stream> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let since = Date.now();
  for (;;) {
    const open = w.streams.filter((s) => s.ended === undefined);
    const state = `${w.streams.length}:${open.map((s) => s.upstream).join(',')}`;
    if (state !== last) {
      last = state;
      since = Date.now();
    }
    if (open.length === 1 && open[0]!.upstream && Date.now() - since >= quietMs) return open[0]!;
    if (Date.now() > deadline) throw new Error(`The page has no settled live stream (${open.length} open of ${w.streams.length}: ${open.map((s) => s.upstream ?? 'no answer yet').join(', ')})`);
    await sleep(50);
  }
}

/** What the page shows as an error: any alert, any error or warning toast. */
async function errorsShown(page: Page): Promise<string[]> {
  const alerts = await page.getByRole('alert').allInnerTexts();
  const toasts = await page.locator('[data-scope="toast"][data-part="root"][data-type="error"], [data-scope="toast"][data-part="root"][data-type="warning"]').allInnerTexts();
  return [...alerts, ...toasts].map((t) => t.replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/** The draft-night strip's headline once it contains `text` (as e2e/support/ui.ts liveStrip). */
const strip = (page: Page, text: string) => page.getByRole('region', { name: 'Draft live' }).getByRole('status').filter({ hasText: text });

// ------------------------------------------------------------------------------------ the run

let failure: unknown;
try {
  const ports = { https: await freePort(), http: await freePort(), a: await freePort(), b: await freePort() };
  const PUBLIC_URL = `https://${NAME}:${ports.https}`;
  const signingKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // Before the lock, and within 24 hours of it: the '24 hours left' reminder is due from the first check.
  const deadline = new Date(Date.now() + 2 * 3600_000).toISOString();
  let env: (name: string, port: number) => Record<string, string> = () => ({});

  await stage('the stack: PostgreSQL, SMTP, certificate, two instances, nginx, Chromium', async () => {
    const cert = makeCertificate(tmp, NAME);
    const [database, mail] = await Promise.all([
      startDatabase(path.join(tmp, 'db')),
      startMailServer(),
      (async () => {
        // Both builds once, before two instances start (each would make a stale one again: `npm start`).
        if (isStale(ROOT, 'server')) await buildServer(ROOT);
        if (!isStale(ROOT, 'client')) return;
        console.log('  building the web app (its build is missing or stale)…');
        execFileSync('npm', ['run', 'build', '--workspace', 'client'], { cwd: ROOT, stdio: 'inherit' });
      })(),
    ]);
    db = database;
    smtp = mail;
    env = (name, port) => {
      const dataDir = path.join(tmp, `data-${name}`);
      fs.mkdirSync(dataDir, { recursive: true });
      return {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        // Each instance its own (empty) data directory: all they share is the database and the key.
        DATA_DIR: dataDir,
        LOCAL_IDP_PRIVATE_KEY: signingKey,
        PUBLIC_URL,
        TRUST_PROXY: '1',
        SMTP_URL: mail.url,
        MAIL_FROM: 'First Round <no-reply@first-round.test>',
        ADMIN_EMAILS: OPERATOR,
        DRAFT_DEADLINE: deadline,
        REMINDER_CHECK_SECONDS: '1',
        // Every player of the run comes from 127.0.0.1: the per-IP limit on code requests would stop the sign-ups.
        IDP_IP_RATE_LIMIT: '10000',
        LOG_LEVEL: 'warn',
        SKIP_CLIENT_BUILD: '1',
      };
    };
    // One after the other: the first migrates the empty database, and nothing makes two instances' migrations
    // wait for each other (docs/deploy.md, "Upgrades").
    instances.set('A', await startInstance('A', env('A', ports.a)));
    launching = chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // first-round.test is this machine; the run's certificate is trusted by its key, nothing else is.
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${NAME} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${cert.spki}`],
    }).then((started) => (browser = started));
    instances.set('B', await startInstance('B', env('B', ports.b)));
    proxy = await startNginx(
      tmp,
      siteValues({ name: NAME, publicUrl: PUBLIC_URL, httpsPort: ports.https, httpPort: ports.http, certificate: cert, instancePorts: [ports.a, ports.b] }),
    );
    client = httpsClient(NAME, ports.https, cert.pem);
    await launching;
    console.log(`  ${PUBLIC_URL} → nginx → A :${ports.a}, B :${ports.b}; SMTP ${mail.url}`);
  });

  await stage('the proxy: TLS, the redirect, other names', async () => {
    const ready = await client!.request('GET', '/readyz');
    check('GET /readyz through nginx over TLS answers 200', ready.status === 200, `${ready.status} ${ready.text}`);
    const redirect = await fetch(`http://127.0.0.1:${ports.http}/groups?x=1`, { headers: { host: NAME }, redirect: 'manual' });
    check('plain HTTP is redirected to PUBLIC_URL', redirect.status === 301 && redirect.headers.get('location') === `${PUBLIC_URL}/groups?x=1`, `${redirect.status} ${redirect.headers.get('location')}`);
    const other = await client!.request('GET', '/readyz', { headers: { host: 'elsewhere.test' } }).then(
      (a) => `${a.status}`,
      (error: Error) => error.message,
    );
    check('a request for another host name gets no answer', !/^\d+$/.test(other), other);
    const page = await client!.request('GET', '/');
    check('the web app is served through the proxy', page.status === 200 && /<div id="root">/.test(page.text), `${page.status}`);
  });

  const board = (await client!.request('GET', '/api/players/')).json<{ id: number; player_name: string }[]>();
  const ids = board.map((p) => p.id);
  const playerIds = new Map(board.map((p) => [p.player_name, p.id]));

  // ---------------------------------------------------------------------------- a player in the browser
  const context = await browser!.newContext({ baseURL: PUBLIC_URL, viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const seen = watch(page);
  const playerEmail = `player-${Date.now().toString(36)}@deploy.test`;

  const [sessions, operator, reminded] = await stage('sign-ups: a player in Chromium, 20 players, the operator and one more by the API', () =>
    Promise.all([
      Promise.all(Array.from({ length: LOAD_CLIENTS }, (_, i) => signUp(`saver${i}@deploy.test`, `Saver${i}`))),
      signUp(OPERATOR, 'DeployOperator'),
      signUp('reminded@deploy.test', 'Reminded'),
      (async () => {
        await page.goto('/sign-up');
        await page.getByRole('heading', { name: 'Join the First Round' }).waitFor();
        await page.getByRole('textbox', { name: 'Email' }).fill(playerEmail);
        await page.getByRole('textbox', { name: 'Username' }).fill('DeployPlayer');
        const since = Date.now();
        await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
        const codeBox = page.getByRole('textbox', { name: 'Verification code' });
        await codeBox.waitFor();
        const mail = await smtp!.waitFor((m) => m.to.includes(playerEmail) && m.receivedAt >= since, 15_000, `code for ${playerEmail}`);
        await codeBox.fill(codeIn(mail));
        await page.getByRole('button', { name: 'Verify & Create Account' }).click();
        await page.waitForURL((url) => url.pathname === '/groups');
        const rules = page.getByRole('alertdialog', { name: 'Rules of the Game' });
        await rules.getByRole('button', { name: 'Play First Round' }).click();
        await page.waitForURL((url) => url.pathname === '/my-picks');
        await rules.waitFor({ state: 'hidden' });
        check('a player signs up in Chromium at PUBLIC_URL with the code mailed over SMTP', true);
      })(),
    ]),
  );

  // The game sees HTTPS behind the proxy (X-Forwarded-Proto, believed with TRUST_PROXY=1): its cookies are Secure.
  const insecure = operator.setCookies.filter((c) => !/;\s*secure/i.test(c));
  check('session cookies set through the proxy are Secure', operator.setCookies.length > 0 && insecure.length === 0, `Set-Cookie: ${operator.setCookies.join(' | ')}`);

  await stage('picks in the browser', async () => {
    await page.getByRole('link', { name: 'Select Players' }).click();
    const search = page.getByRole('textbox', { name: 'Search Players' });
    const used = page.getByRole('progressbar', { name: 'Picks used' });
    // The editor starts from the saved picks once they arrive: a tap before that is undone, as a person
    // would see, so each player is tapped until shown as picked and the bar counts all three.
    for (let attempt = 1; ; attempt++) {
      for (const name of ['Cam Ward', 'Travis Hunter', 'Shedeur Sanders']) {
        await search.fill(name);
        const player = page.getByRole('button', { name });
        if ((await player.getAttribute('aria-pressed')) !== 'true') await player.click();
      }
      const counted = await used
        .and(page.locator('[aria-valuenow="3"]'))
        .waitFor({ timeout: 3000 })
        .then(
          () => true,
          () => false,
        );
      if (counted) break;
      if (attempt === 3) throw new Error(`The picks bar shows ${await used.getAttribute('aria-valuetext')} after three rounds of taps`);
    }
    await page.getByRole('button', { name: 'Save Picks' }).click();
    await page.waitForURL((url) => url.pathname === '/my-picks');
    await page.getByRole('status', { name: 'Your entry' }).getByText('3 picks').waitFor();
    check('the player saves 3 picks and My Picks shows them', true);
  });

  await stage('a reminder over SMTP, and its one-click unsubscribe through the proxy', async () => {
    // The game learns of the player at their first call; the next check (every second) mails the reminder.
    const before = await api(reminded, 'GET', '/users/me/reminders');
    check('reminders are on for a new player', before.status === 200 && before.json<{ reminders: boolean }>().reminders === true, `${before.status} ${before.text}`);
    const mail = await smtp!.waitFor((m) => m.to.includes(reminded.email) && /not in/.test(m.subject), 15_000, 'reminder');
    const listUnsubscribe = mail.headers.get('list-unsubscribe') ?? '';
    const url = /^<(https:\/\/[^>]+)>$/.exec(listUnsubscribe)?.[1];
    check(`the reminder ('${mail.subject}') has List-Unsubscribe with a link at PUBLIC_URL`, url?.startsWith(`${PUBLIC_URL}/`) === true, `List-Unsubscribe: ${listUnsubscribe}`);
    check(
      'the reminder has List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      mail.headers.get('list-unsubscribe-post') === 'List-Unsubscribe=One-Click',
      `List-Unsubscribe-Post: ${mail.headers.get('list-unsubscribe-post')}`,
    );
    if (!url) return;
    // What a mail program sends for a one-click unsubscribe (RFC 8058): a form-encoded POST to that URL.
    const target = new URL(url);
    const posted = await client!.request('POST', target.pathname + target.search, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    check('the one-click POST (form-encoded, through the proxy) answers 200', posted.status === 200, `${posted.status} ${posted.text.slice(0, 200)}`);
    const after = await api(reminded, 'GET', '/users/me/reminders');
    check('reminders are off for that player afterwards', after.status === 200 && after.json<{ reminders: boolean }>().reminders === false, `${after.status} ${after.text}`);
  });

  // ---------------------------------------------------------------------------- the rolling restart
  const load = {
    running: true,
    answers: new Map<number, number>(),
    errors: [] as string[],
    /** Per client: the picks the game last answered 200 for, and those sent after it without a 200. */
    acked: sessions.map(() => null as number[] | null),
    unacked: sessions.map(() => [] as number[][]),
    count: 0,
  };
  const picksFor = (client: number, round: number) => [0, 1, 2].map((k) => ids[(client * 3 + round + k * 7) % 60]!).sort((a, b) => a - b);
  const savers = sessions.map(async (session, i) => {
    for (let round = 0; load.running; round++) {
      const picks = picksFor(i, round);
      load.unacked[i]!.push(picks);
      try {
        const res = await api(session, 'POST', '/picks/', { picks });
        load.answers.set(res.status, (load.answers.get(res.status) ?? 0) + 1);
        if (res.status === 200) {
          load.acked[i] = picks;
          load.unacked[i] = [];
        } else load.errors.push(`saver ${i}: ${res.status} ${res.text.replace(/\s+/g, ' ').slice(0, 120)}`);
      } catch (error) {
        load.errors.push(`saver ${i}: ${(error as Error).message}`);
        load.answers.set(0, (load.answers.get(0) ?? 0) + 1);
      }
      load.count++;
      // A player's pace, not a benchmark's: the instance restarting shares the machine's cores.
      await sleep(100);
    }
  });
  /** The page's stream that opened while only A was up (B stopped): held by A. */
  const streamName = (stream: Stream | undefined) => (stream?.upstream === `127.0.0.1:${ports.a}` ? 'A' : stream?.upstream === `127.0.0.1:${ports.b}` ? 'B' : `${stream?.upstream}`);

  await stage('rolling restart: A, then B, under 20 players saving picks and the page watching', async () => {
    await sleep(1000);
    for (const name of ['A', 'B'] as const) {
      const instance = instances.get(name)!;
      const before = load.count;
      const held = await settledStream(seen);
      const holder = streamName(held);
      const { code, ms } = await instance.stop();
      instances.delete(name);
      check(`${name} drains and exits 0 after SIGTERM (${(ms / 1000).toFixed(1)} s, ${load.count - before} saves meanwhile)`, code === 0, `exit code ${code}; its last lines:\n${instance.output.slice(-8).join('\n')}`);
      const exited = Date.now();
      const port = name === 'A' ? ports.a : ports.b;
      instances.set(name, await startInstance(name, env(name, port)));
      const ready = Date.now();
      // nginx skips an instance that failed for fail_timeout: the next one is stopped only once this one is
      // back in rotation (docs/deploy.md, "A rolling restart").
      await proxy!.servedBy(`127.0.0.1:${port}`);
      console.log(`  ${name} ready ${((ready - exited) / 1000).toFixed(1)} s after its exit, back in nginx's rotation ${((Date.now() - ready) / 1000).toFixed(1)} s later`);
      const now = await settledStream(seen).catch(() => undefined);
      // A stream on the stopped instance is ended by its drain and opened again through nginx: on the other
      // instance, or on this one once it is back (the drain's pause may also take one more connection first).
      check(
        `the page's live stream ${holder === name ? `was reopened when ${name} stopped` : `stayed on ${holder}`}`,
        now !== undefined && (holder === name ? now !== held && held.ended !== undefined : now === held),
        `its stream now: ${now ? streamName(now) : 'none settled'}${now === held ? ' (the same stream as before the stop)' : ''}`,
      );
    }
    load.running = false;
    await Promise.all(savers);

    const answers = [...load.answers].map(([status, n]) => `${status === 0 ? 'no answer' : status}: ${n}`).join(', ');
    console.log(`  ${load.count} saves by ${LOAD_CLIENTS} players (${answers})`);
    check(`every save through the proxy answered 200 during the rolling restart (${answers})`, load.errors.length === 0 && load.count > LOAD_CLIENTS, load.errors.slice(0, 10).join('\n'));
    const lost: string[] = [];
    await Promise.all(
      sessions.map(async (session, i) => {
        const res = await api(session, 'GET', '/picks/global-picks');
        if (res.status !== 200) return void lost.push(`saver ${i}: reading the picks back answered ${res.status}`);
        const stored = [...res.json<{ picks: number[] }>().picks].sort((a, b) => a - b).join(',');
        const acked = load.acked[i]?.join(',');
        // A save that got no 200 may or may not have been made; one that got 200 must be what is stored
        // unless a later save (answered or not) replaced it.
        const allowed = [acked, ...load.unacked[i]!.map((p) => p.join(','))];
        if (!allowed.includes(stored)) lost.push(`saver ${i}: stored [${stored}], last saved with 200 [${acked}]`);
      }),
    );
    check('no acknowledged save lost: each player has the picks last answered 200 (or a later one)', lost.length === 0, lost.join('\n'));

    const shown = await errorsShown(page);
    check('the page shows no error through the restart', shown.length === 0, shown.join('\n'));
    check("the page's own requests all succeeded (the live stream aside)", seen.failed.length === 0, seen.failed.slice(0, 10).join('\n'));
    check('no script error in the page', seen.exceptions.length === 0, seen.exceptions.join('\n'));
    await page.getByRole('status', { name: 'Your entry' }).getByText('3 picks').waitFor({ timeout: 5000 });
    check('My Picks still shows the 3 picks', true);
  });

  await stage("draft night across instances: the operator on one instance, the page's stream on the other", async () => {
    const byName = (name: string) => instances.get(name)!;
    const other = (name: string) => (name === 'A' ? 'B' : 'A');
    // The start, on the instance that does not hold the page's stream.
    let holder = streamName(await settledStream(seen));
    const startedAt = Date.now();
    await direct(byName(other(holder)), operator, 'POST', '/draft/start');
    const started = await strip(page, 'The draft has started')
      .waitFor({ timeout: LIVE_MS })
      .then(() => Date.now() - startedAt);
    check(`the start, made on ${other(holder)}, is on the page (its stream on ${holder}), ${started} ms later`, true);
    // The page opens its stream again for what it now shows (the standings): wherever nginx sent it, the
    // pick is recorded on the other instance.
    const stream = await settledStream(seen, 10_000, 500);
    holder = streamName(stream);
    const recordedAt = Date.now();
    await direct(byName(other(holder)), operator, 'POST', '/draft/picks', { slot: 1, player_id: playerIds.get('Cam Ward')! });
    const shownIn = await strip(page, 'Pick 1 · TEN · Cam Ward, QB, Miami')
      .waitFor({ timeout: LIVE_MS })
      .then(() => Date.now() - recordedAt);
    check(`a pick recorded on ${other(holder)} is on the page (its stream on ${holder}): 'Pick 1 · TEN · Cam Ward, QB, Miami', ${shownIn} ms later`, true);
    const open = seen.streams.filter((s) => s.ended === undefined);
    check(`…pushed through that stream (still the page's only one, on ${holder})`, open.length === 1 && open[0] === stream, `open streams: ${open.map(streamName).join(', ')}`);
    await strip(page, 'your entry ✓').waitFor({ timeout: 5000 });
    const shown = await errorsShown(page);
    check('the page shows no error', shown.length === 0, shown.join('\n'));
  });
} catch (error) {
  failure = error;
  console.error(`\nThe deployment test stopped: ${(error as Error)?.stack ?? error}`);
}

// ------------------------------------------------------------------------------------ the end

if (proxy && fs.existsSync(proxy.accessLog)) {
  // The live streams' URLs carry session tokens; the site's log format writes paths without their query.
  const lines = fs.readFileSync(proxy.accessLog, 'utf8').split('\n');
  const streams = lines.filter((l) => l.includes('"GET /trpc/draft.changes"'));
  const secrets = lines.filter((l) => /connectionParams|eyJ[\w-]{10,}/.test(l));
  check(`nginx's access log names the live streams (${streams.length}) and holds no token`, streams.length > 0 && secrets.length === 0, secrets.slice(0, 3).join('\n'));
}
const nginxErrors = proxy && fs.existsSync(proxy.errorLog) ? fs.readFileSync(proxy.errorLog, 'utf8').split('\n').filter((l) => /\[(error|crit|alert|emerg)\]/.test(l)) : [];
const cleanStarted = Date.now();
await cleanup();
stageTimes.push({ name: 'stopping everything, removing temporary files', seconds: (Date.now() - cleanStarted) / 1000, ok: true });

if (nginxErrors.length > 0) {
  // A refused connection is passed to the other instance (any method: nothing was sent yet); a request cut
  // after it was sent is retried only when idempotent, so a cut POST is a 502 for the player.
  const refused = nginxErrors.filter((l) => /connect\(\) failed \(111/.test(l));
  const cut = nginxErrors.filter((l) => /prematurely closed|reset by peer|broken pipe/i.test(l));
  console.log(`\nnginx's error log: ${refused.length} connection(s) refused by a stopped instance (passed to the other), ${cut.length} request(s) cut by an instance after nginx sent them, ${nginxErrors.length - refused.length - cut.length} other`);
  // nginx's error log quotes a live stream's request whole, session token and all (deploy/nginx.conf): not printed.
  for (const line of [...cut, ...nginxErrors.filter((l) => !refused.includes(l) && !cut.includes(l))].slice(0, 8)) {
    console.log(`  ${redactUrl(line.replace(/^\S+ \S+ \[\w+\] \d+#\d+: /, ''))}`);
  }
}
const failed = checks.filter((c) => !c.ok);
console.log('\nnpm run test:deploy, stage by stage:');
for (const s of stageTimes) console.log(`  ${s.seconds.toFixed(1).padStart(6)} s  ${s.ok ? '' : 'FAILED  '}${s.name}`);
console.log(`  ${((Date.now() - runStarted) / 1000).toFixed(1).padStart(6)} s  total`);
if (failed.length > 0) {
  console.log(`\n${failed.length} of ${checks.length} checks failed:`);
  for (const c of failed) console.log(`  ✗ ${c.name}${c.detail ? `\n      ${c.detail.split('\n').join('\n      ')}` : ''}`);
}
const ok = !failure && failed.length === 0;
console.log(`\nDeployment test ${ok ? 'passed' : 'FAILED'}: ${checks.length - failed.length} of ${checks.length} checks passed${failure ? ', and it stopped early' : ''}`);
process.exit(ok ? 0 : 1);
