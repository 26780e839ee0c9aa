import type { FastifyInstance } from 'fastify';

const METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
/** On every answer, page or API (set with the other constant headers in app.ts): CORS answers depend on the Origin. */
export const CORS_VARY = { vary: 'Origin' } as const;
/** How long a browser may keep a preflight's answer (seconds). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Cross-origin calls with credentials, from the configured origins only (CORS_ORIGINS, PUBLIC_URL, the
 * server's own: config.appOrigins). Every answer says `Vary: Origin` (CORS_VARY, set with the other
 * constant headers), so a cache never gives one origin what was allowed for another.
 *
 * Our own hook rather than @fastify/cors: the plugin copied its options and resolved the origin on every
 * request, a twentieth of a hot read (docs/benchmarks.md), although nearly every request (the web app's
 * own, same-origin) carries no Origin header and needs nothing. A request without an allowed Origin gets
 * no CORS header at all; a preflight from one gets the methods, the headers it asked for and a max age.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]) {
  const allowed = new Set(origins);
  const isAllowed = (origin: string | undefined): origin is string => origin !== undefined && allowed.has(origin);
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (isAllowed(origin)) reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true');
    done();
  });
  app.options('*', (request, reply) => {
    if (isAllowed(request.headers.origin)) {
      reply.header('access-control-allow-methods', METHODS).header('access-control-max-age', PREFLIGHT_MAX_AGE);
      const asked = request.headers['access-control-request-headers'];
      if (asked) reply.header('access-control-allow-headers', asked);
    }
    return reply.code(204).header('content-length', '0').send();
  });
}
