import fs from 'node:fs';
import path from 'node:path';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppDeps } from './deps.js';
import { sql } from './db/sql.js';
import { answerClientError, BODY_DISCARD, discardRestOfBody, notFoundRefusal, refusalFor, type BodyDiscard, type Refusal } from './refusals.js';
import { registerTrpc } from './trpc/http.js';
import { registerHotReads } from './wire/hot-reads.js';
import { registerSseRoutes } from './wire/sse-route.js';
import { ALL_FAST_PATHS, NO_FAST_PATHS, type FastPaths } from './wire/switch.js';
import { registerEventStreams } from './event-streams.js';
import { registerRestAdapter } from './rest/adapter.js';
import { registerIdpRoutes } from './modules/auth/idp.routes.js';
import { registerOpenApi } from './rest/openapi.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import { CORS_VARY, registerCors } from './cors.js';
import { apiSecurityHeaders, isApiPath, securityHeaders } from './security-headers.js';
import { registerInvitePage } from './modules/join-links/invite-page.js';
import { inviteDraft } from './modules/join-links/join-links.router.js';
import { registerSharePages } from './modules/share/share-page.js';
import { registerReminderRoutes } from './modules/reminders/reminders.routes.js';
import { closeConnectionsWhileDraining, isDraining, trackConnections } from './draining.js';
import { fromRoot } from './paths.js';
import { redactUrl } from './redact-url.js';

export const CLIENT_DIST = fromRoot('client/dist');
const PLACEHOLDER_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>First Round</title></head>
<body><h1>First Round</h1><p>The web app has not been built yet: run <code>npm run build</code>.</p></body></html>`;

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
}

/** Hashed build output (`/assets/name-<hash>.js`): a new build has new names, so a copy never goes stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page names the current build's assets: always asked again (and revalidated by its ETag). */
const HTML_CACHE = 'no-cache';

/**
 * Asked again every time: the service worker (a browser checks it for updates, and must see a new build
 * at once) and the web app manifest (its name, icons and colours follow the build).
 */
const ALWAYS_ASKED = /[/\\](sw\.js|manifest\.webmanifest)(\.br|\.gz)?$/;

/** Cache-Control of a file of the build (its precompressed copies included). */
export function cacheControlOf(filePath: string): string {
  if (/\.html(\.br|\.gz)?$/.test(filePath) || ALWAYS_ASKED.test(filePath)) return HTML_CACHE;
  return filePath.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'public, max-age=3600';
}

/** A request slower than this is logged at `info` level even when it succeeded. */
export const SLOW_REQUEST_MS = 1000;

/**
 * Request logs: at `debug` every request and its answer; at `info` (the default) only answers that failed
 * on our side (5xx) and slow ones, which are what an operator looks for on draft night.
 */
function logRequests(app: FastifyInstance) {
  // Not even a hook to run per request unless its line would be written.
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ req: request }, 'incoming request');
      done();
    });
  }
  app.addHook('onResponse', (request, reply, done) => {
    const responseTime = reply.elapsedTime;
    if (reply.statusCode >= 500) request.log.warn({ req: request, res: reply, responseTime }, 'request failed');
    else if (responseTime >= SLOW_REQUEST_MS) request.log.info({ req: request, res: reply, responseTime }, 'slow request');
    else request.log.debug({ res: reply, responseTime }, 'request completed');
    done();
  });
}

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
  /**
   * The hand-written fast paths (server/src/wire/, wire/switch.ts): every piece (`true`), none (`false`),
   * or the pieces named; FAST_PATHS (config.ts) unless given. Off, plain Fastify and tRPC's own adapter
   * answer everything, which is what the contract tests hold each piece's bytes equal to.
   */
  fastPaths?: boolean | FastPaths;
  /** How much of a refused request's body is read before the refusal is answered (refusals.ts); tests make it small. */
  bodyDiscard?: BodyDiscard;
}

/**
 * How long a request may take to arrive whole (headers and body): a client sending slower is answered 408
 * and closed. Fastify's own default is none, which lets a slow sender hold a connection for ever.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** Builds the Fastify app around already-open dependencies; tests call it directly and use `inject`. */
export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const pieces = options.fastPaths === true ? ALL_FAST_PATHS : options.fastPaths === false ? NO_FAST_PATHS : (options.fastPaths ?? deps.config.FAST_PATHS);
  const app = Fastify({
    logger: options.logger ?? loggerOptions(deps.config.LOG_LEVEL),
    // Two JSON lines per request cost about as much as serving a hot read: see logRequests below.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 100 * 1024,
    // `/picks/` and `/picks` (the original REST contract writes some paths with a trailing slash) are one route.
    routerOptions: { maxParamLength: 5000, ignoreTrailingSlash: true },
    // Only trust X-Forwarded-For from the configured number of proxy hops: per-IP limits depend on it.
    trustProxy: (_address: string, hop: number) => hop < deps.config.TRUST_PROXY,
    // A request that arrives on a connection accepted before the listener closed is answered, not refused:
    // the kernel accepted it, so the client has no reason to think it went elsewhere (draining.ts).
    return503OnClosing: false,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // What Node's HTTP parser refuses (headers too large, an unreadable request) in the shape of the
    // protocol the request was for (refusals.ts).
    clientErrorHandler: (error, socket) => answerClientError(error, socket as Socket),
  });

  logRequests(app);
  closeConnectionsWhileDraining(app);
  trackConnections(app.server);

  const documentHeaders = {
    ...securityHeaders({
      // The SPA loads only its own bundle; Clerk's frontend API is allowed when Clerk is configured.
      contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(deps.config) },
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
    }),
    // Module scripts are fetched in CORS mode too.
    ...CORS_VARY,
  };
  const apiHeaders = { ...apiSecurityHeaders(documentHeaders), ...CORS_VARY };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiPath(request.url) ? apiHeaders : documentHeaders);
    done();
  });
  app.decorateReply('asDocument', function (this: FastifyReply) {
    return this.headers(documentHeaders);
  });
  await registerCors(app, deps.config.appOrigins);
  // REST clients send `Content-Type: application/json` on every call, bodyless ones included.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('Request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  // What the web app needs before anything else: which identity provider to talk to.
  app.get('/api/client-config', async () => ({
    auth_provider: deps.config.authProvider,
    clerk_publishable_key: deps.config.authProvider === 'clerk' ? (deps.config.CLERK_PUBLISHABLE_KEY ?? null) : null,
  }));
  app.get('/readyz', async (_req, reply) => {
    // First thing a shutdown changes: a balancer stops sending here while the requests it sent are answered.
    if (isDraining(app.server)) return reply.code(503).send({ status: 'draining', detail: 'Shutting down', message: 'Shutting down', code: 'UNAVAILABLE' });
    try {
      // Raw: the smallest round trip that proves the database answers.
      await sql(deps.orm.em.fork(), 'select 1');
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'unavailable', detail: 'Database unreachable', message: 'Database unreachable', code: 'UNAVAILABLE' });
    }
  });

  // Fastify's own refusals (unreadable or oversized bodies…) and anything a route threw: the one error
  // model's answer (errors.ts) in the protocol's shape (refusals.ts: a tRPC envelope under /trpc); 5xx
  // details stay in the log, the database out of reach is a 503. A body not yet read to its end (one too
  // large, of a type nothing reads) is read and dropped first, up to a bound, so the answer reaches a
  // client still sending it instead of a reset connection.
  const bodyDiscard = options.bodyDiscard ?? BODY_DISCARD;
  app.setErrorHandler(async (error, request, reply) => {
    const refusal = refusalFor(request.url, error);
    if (refusal.fault) request.log.error({ err: error }, 'request failed');
    if (!(await discardRestOfBody(request.raw, bodyDiscard))) reply.header('connection', 'close');
    return sendRefusal(reply, refusal);
  });

  // tRPC's own event streams (the live streams when the `streams` piece is off): gzip, and cut at shutdown.
  const eventStreams = registerEventStreams(app);
  // Live streams never finish on their own: end them first so closing drains instead of hanging.
  app.addHook('preClose', async () => {
    eventStreams.cutAtShutdown();
    deps.live.close();
    deps.publicLive.close();
  });

  await registerIdpRoutes(app, deps);
  await registerTrpc(app, deps, pieces);
  if (pieces.has('hot-reads')) registerHotReads(app, deps);
  if (pieces.has('streams')) registerSseRoutes(app, deps, pieces);
  await registerRestAdapter(app, deps, pieces);
  await registerOpenApi(app);

  const hasClient = fs.existsSync(path.join(CLIENT_DIST, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies (client/vite-precompress.ts): sent as they are, per Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlOf(filePath)),
    });
  }
  const sendSpa = (reply: FastifyReply) =>
    hasClient
      ? reply.header('cache-control', HTML_CACHE).sendFile('index.html', CLIENT_DIST, { cacheControl: false })
      : reply.type('text/html').send(PLACEHOLDER_PAGE);
  app.decorateReply('sendSpa', function (this: FastifyReply) {
    return sendSpa(this);
  });
  // Invite links answer the same page with the invitation's preview tags filled in. Read per request
  // (a small file): a rebuilt client is served without a restart, as the static files are.
  registerInvitePage(app, deps, {
    html: () => (hasClient ? fs.promises.readFile(path.join(CLIENT_DIST, 'index.html'), 'utf8') : Promise.resolve(PLACEHOLDER_PAGE)),
    draft: inviteDraft(deps),
  });
  // Share links: the card's picture and its page, for anyone holding the link.
  registerSharePages(app, deps);
  registerReminderRoutes(app, deps);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const isApi = /^\/(api|trpc|idp)(\/|$)/.test(url);
    if (request.method === 'GET' && !isApi) return sendSpa(reply);
    return sendRefusal(reply, notFoundRefusal(request));
  });

  return app;
}

function sendRefusal(reply: FastifyReply, refusal: Refusal): FastifyReply {
  // tRPC's JSON as bytes: Fastify leaves their content type as given, `application/json` as tRPC sends it (a
  // string would get a charset added).
  const body = typeof refusal.body === 'string' ? Buffer.from(refusal.body) : refusal.body;
  return reply.code(refusal.status).headers(refusal.headers).header('content-type', refusal.contentType).send(body);
}

declare module 'fastify' {
  interface FastifyReply {
    sendSpa(): FastifyReply;
    /** The page's security headers instead of the API's, for a page served under `/api` (security-headers.ts). */
    asDocument(): FastifyReply;
  }
}
