import type { Server } from 'node:net';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type Config } from '../config.js';
import { migrate, openOrm } from '../db/orm.js';
import { buildApp } from '../app.js';
import { createDeps, type AppDeps, type DepsOptions } from '../deps.js';
import { seedDefaultBoard } from '../modules/seasons/board.service.js';
import { createContextInner } from '../trpc/context.js';
import { createCaller } from '../trpc/root.js';
import { createTestDb, type TestDb } from './test-db.js';

export const ADMIN_EMAIL = 'operator@example.com';

export interface TestUser {
  id: string;
  email: string;
  username: string;
  token: string;
  /** The session cookie (`fr_session=…`) for /idp/token and /idp/sign-out. */
  cookie: string;
  authorization: string;
  /** When `token` was issued, by the wall clock (ms): `request` and `caller` renew a token older than TOKEN_RENEW_AFTER_MS. */
  tokenAt: number;
}

/**
 * A session token lasts a minute, and the web app swaps it for a new one (POST /idp/token with the session
 * cookie) before then. The harness does the same for the users it signed up: on a loaded machine a test
 * file's users outlive their first token, and a 401 there is the harness's fault, not the server's. Tests of
 * expiry move `idpClock`, not the wall clock, and pass tokens in headers: they are not renewed.
 */
export const TOKEN_RENEW_AFTER_MS = 30_000;

/** A clock tests can move; starts at real time. */
export class TestClock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
  set(date: Date) {
    this.offsetMs = date.getTime() - Date.now();
  }
}

export interface TestApp {
  app: FastifyInstance;
  orm(): AppDeps['orm'];
  deps: AppDeps;
  db: TestDb;
  config: Config;
  clock: TestClock;
  idpClock: TestClock;
  /** Signs a new user up through the real /idp routes, reading the code from the outbox. */
  signUp(username?: string, email?: string): Promise<TestUser>;
  /** A tRPC caller as that user (or anonymous), through the same context the HTTP adapters use. */
  caller(user?: TestUser | string): Promise<ReturnType<typeof createCaller>>;
  /** Real HTTP through Fastify's inject. */
  request(method: string, url: string, options?: { user?: TestUser; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

export async function createTestApp(
  options: {
    env?: Record<string, string>;
    deps?: DepsOptions;
    seedBoard?: boolean;
    startEvents?: boolean;
    /** A second app instance on the first one's database (multi-instance tests). */
    sameDatabaseAs?: TestApp;
    /** A database the test made itself (migrated here if it is not yet); the test closes it. */
    db?: TestDb;
  } = {},
): Promise<TestApp> {
  const db = options.sameDatabaseAs?.db ?? options.db ?? (await createTestDb());
  const ownsDb = !options.sameDatabaseAs && !options.db;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-test-data-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ADMIN_EMAILS: ADMIN_EMAIL,
    DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00',
    IDP_IP_RATE_LIMIT: '100000',
    // Tests ask for unknown groups from one address far more than a player would; the budget's own test sets it low.
    GROUP_PROBE_LIMIT: '1000000',
    PORT: '3000',
    // The fast paths as the run says (`FAST_PATHS=off npm run test:unit` runs every test on plain Fastify and tRPC).
    ...(process.env.FAST_PATHS ? { FAST_PATHS: process.env.FAST_PATHS } : {}),
    // Pushes go to the push service stand-in (startPushService), plain http on loopback: allowed except in
    // production, where the setting is refused (tests of what production refuses set it to 'false').
    ...(options.env?.NODE_ENV === 'production' ? {} : { PUSH_ALLOW_LOOPBACK_HTTP: 'true' }),
    ...options.env,
  });
  const orm = await openOrm(db.url, 8);
  await migrate(orm);
  // Before the instance is built, as the operator's command imports a board before the server starts.
  if (options.seedBoard !== false && !options.sameDatabaseAs) await seedDefaultBoard(orm.em.fork());
  const clock = new TestClock();
  const idpClock = new TestClock();
  const deps = await createDeps(config, orm, {
    now: clock.now,
    idpNow: idpClock.now,
    idpLimits: { requestsPerIpPerMinute: Number(config.IDP_IP_RATE_LIMIT) },
    ...options.deps,
  });
  if (options.startEvents) await deps.events.start();
  const app = await buildApp(deps, { logger: false });
  await app.ready();

  /** The user with a token not near its end (TOKEN_RENEW_AFTER_MS); a refused renewal (signed out) keeps the old one. */
  const renewed = async (user: TestUser): Promise<TestUser> => {
    if (Date.now() - user.tokenAt < TOKEN_RENEW_AFTER_MS) return user;
    const res = await app.inject({ method: 'POST', url: '/idp/token', headers: { cookie: user.cookie } });
    if (res.statusCode === 200) {
      user.token = (res.json() as { token: string }).token;
      user.authorization = `Bearer ${user.token}`;
      user.tokenAt = Date.now();
    }
    return user;
  };

  const request: TestApp['request'] = async (method, url, opts = {}) => {
    const user = opts.user ? await renewed(opts.user) : undefined;
    return app.inject({
      method: method as 'GET',
      url,
      headers: { ...(user ? { authorization: user.authorization } : {}), ...opts.headers },
      ...(opts.body === undefined ? {} : { payload: opts.body as object }),
    });
  };

  const latestCode = async (email: string) => {
    const rows = await db.query<{ code: string }>(`select code from idp_outbox where lower(to_address) = lower($1) and code is not null order by id desc limit 1`, [email]);
    return rows[0]!.code;
  };

  return {
    app,
    orm: () => orm,
    deps,
    db,
    config,
    clock,
    idpClock,
    request,
    async signUp(username, email) {
      const n = ++counter;
      const name = username ?? `player${n}_${process.pid}`;
      const address = email ?? `${name.toLowerCase()}@example.com`;
      const up = await request('POST', '/idp/sign-up', { body: { email: address, username: name } });
      if (up.statusCode !== 200) throw new Error(`sign-up failed: ${up.statusCode} ${up.body}`);
      const verified = await request('POST', '/idp/verify', { body: { email: address, code: await latestCode(address) } });
      if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.statusCode} ${verified.body}`);
      const { user_id, token } = verified.json() as { user_id: string; token: string };
      const cookie = verified.cookies.find((c) => c.name === 'fr_session');
      return { id: user_id, email: address, username: name, token, cookie: `fr_session=${cookie?.value}`, authorization: `Bearer ${token}`, tokenAt: Date.now() };
    },
    async caller(user) {
      const authorization = typeof user === 'string' ? user : user && (await renewed(user)).authorization;
      return createCaller(await createContextInner({ deps, authorization }));
    },
    async close() {
      await app.close();
      await deps.feed.stop();
      await deps.push.stop();
      await deps.events.stop();
      await orm.close(true);
      if (ownsDb) await db.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Serves `app` on a free loopback port, over real HTTP, for tests that need sockets (streams, two instances): its base URL. */
export async function listenOnLoopback(app: { listen(o: { port: number; host: string }): Promise<unknown>; server: Server }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

export async function latestOutboxCode(t: TestApp, email: string): Promise<string> {
  const rows = await t.db.query<{ code: string }>(`select code from idp_outbox where lower(to_address) = lower($1) and code is not null order by id desc limit 1`, [email]);
  return rows[0]!.code;
}
