/**
 * `@first-round/server/testing`: the kit the project's own tests use, for anyone testing against the game
 * in-process (docs/typed-api.md, "Testing in-process"; examples/in-process.test.ts). Under vitest with
 * this package's global setup (`@first-round/server/testing/global-setup` in the config's `globalSetup`),
 * which starts one PostgreSQL for the run (the embedded one, or the server of DATABASE_URL) and migrates
 * a template database once:
 *
 * - `createTestApp()`: a fresh database cloned from the template, the whole app built on it (Fastify, the
 *   routers, the built-in sign-in), the 2025 board loaded; `close()` drops it all.
 * - `t.signUp(name?, email?)`: a participant signed up through the real /idp routes (the code read from
 *   the outbox); `t.signUp(name, ADMIN_EMAIL)` is a draft operator.
 * - `t.caller(user?)`: `createCaller` for that participant or operator, or, without a user, an anonymous
 *   caller, through the same context the HTTP adapters build.
 * - `t.request(method, url, {user, body})`: real HTTP through Fastify's inject (a user's token older than
 *   `TOKEN_RENEW_AFTER_MS` is renewed first, as the web app does); `listenOnLoopback(t.app)`
 *   serves it on a port for clients that need a socket.
 * - `kindOf(error)`: the error kind a caller's error would carry over the wire (`data.kind`, `code`).
 */
import { describeError, type ErrorKind } from '../errors.js';

export { ADMIN_EMAIL, createTestApp, latestOutboxCode, listenOnLoopback, TestClock, TOKEN_RENEW_AFTER_MS, type TestApp, type TestUser } from './test-app.js';
export { createTestDb, runServerUrl, type TestDb } from './test-db.js';
export { decryptAes128gcm, pushDeviceKeys, startPushService, type PushServiceStandIn, type ReceivedPush, type StandInDevice } from './push-service.js';

/**
 * The kind of an error an in-process caller threw, as a client over HTTP would read it (`error.data.kind`
 * over tRPC, `code` over REST): in-process callers throw the TRPCError itself, before any formatting.
 */
export function kindOf(error: unknown): ErrorKind {
  return describeError(error).kind;
}
