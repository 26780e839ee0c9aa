import type { FastifyInstance } from 'fastify';
import fastifyCors from '@fastify/cors';

/** On every answer, page or API (set with the other constant headers in app.ts): CORS answers depend on the Origin. */
export const CORS_VARY = { vary: 'Origin' } as const;

/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = 600;

/**
 * Cross-origin calls with credentials, from the configured origins only (CORS_ORIGINS, PUBLIC_URL, the
 * server's own: config.appOrigins), by @fastify/cors. Every answer says `Vary: Origin` (CORS_VARY, set with
 * the other constant headers), so a cache never gives one origin what was allowed for another. A request
 * without an allowed Origin gets no CORS header; a preflight from one gets the methods, the headers it asked
 * for and a max age.
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]) {
  const allowed = new Set(origins);
  await app.register(fastifyCors, {
    origin: (origin, done) => done(null, origin !== undefined && allowed.has(origin) ? origin : false),
    credentials: true,
    maxAge: PREFLIGHT_MAX_AGE,
  });
}
