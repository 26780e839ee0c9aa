import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { z } from 'zod';
import { MESSAGES } from '@first-round/shared/messages';
import { usernameSchema } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { errorAnswer, forbidden, notFound, type DomainError } from '../../errors.js';
import * as idp from './local-idp.service.js';

export const SESSION_COOKIE = 'fr_session';
/**
 * A readable companion of the session cookie, holding no secret: it only tells the page that a session
 * may exist, so a signed-out visit does not ask POST /idp/token for a token it cannot get (a 401 on
 * every load). The session cookie alone still decides: the hint grants nothing.
 */
export const SESSION_HINT_COOKIE = 'fr_signed_in';
const SESSION_MAX_AGE_S = 30 * 24 * 3600;

const emailSchema = z.string().trim().min(1, MESSAGES.enterEmail).max(254).pipe(z.email('Please enter a valid email address'));
const signUpBody = z.strictObject({ email: emailSchema, username: usernameSchema.optional() });
const signInBody = z.strictObject({ email: emailSchema });
const verifyBody = z.strictObject({
  email: emailSchema,
  code: z.string().trim().min(1, MESSAGES.enterCode).max(20),
  username: usernameSchema.optional(),
});

/** The token's `azp`: the calling page's origin when it is one of ours, else the app's main origin. */
function authorizedParty(deps: AppDeps, req: FastifyRequest): string {
  const origin = req.headers.origin;
  if (origin && deps.config.appOrigins.includes(origin)) return origin;
  return deps.config.appOrigins[0]!;
}

const isLoopbackAddress = (address: string) => address === '::1' || address === '[::1]' || /^(::ffff:)?127\.\d+\.\d+\.\d+$/.test(address);

/**
 * The request comes from this machine and was addressed to it by a loopback name. The TCP peer, not
 * `req.ip`: with TRUST_PROXY that follows X-Forwarded-For. And the Host header too: a web page whose own
 * name has been pointed at 127.0.0.1 (DNS rebinding) connects from this machine and may read the answer,
 * but its requests carry its own name.
 */
export function isFromThisMachine(req: FastifyRequest): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress ?? '')) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${req.headers.host ?? ''}`).hostname;
  } catch {
    return false;
  }
  return hostname === 'localhost' || hostname.endsWith('.localhost') || isLoopbackAddress(hostname);
}

/**
 * A browser's cross-site POST carries a foreign Origin: refused, so another site can neither sign a
 * visitor out nor into an account of its choosing. Same-origin pages (whatever host name the game is
 * reached by), the configured origins, and clients that send no Origin (REST, tests) pass.
 */
export function isAllowedOrigin(deps: AppDeps, req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (deps.config.appOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

function setSessionCookie(req: FastifyRequest, reply: FastifyReply, secret: string) {
  reply.setCookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    path: '/idp',
    maxAge: SESSION_MAX_AGE_S,
  });
  reply.setCookie(SESSION_HINT_COOKIE, '1', { httpOnly: false, sameSite: 'lax', secure: req.protocol === 'https', path: '/', maxAge: SESSION_MAX_AGE_S });
}

/** An answer from the one error model, for a refusal decided in a hook or handler. */
function refuse(reply: FastifyReply, error: DomainError) {
  const { status, body } = errorAnswer(error);
  return reply.code(status).send(body);
}

/**
 * The built-in identity provider's HTTP interface (docs/api.md, 'Built-in sign-in'). Registered only when Clerk is
 * not configured. Errors are `{detail, message, code}` with the texts of shared/src/messages.ts.
 */
export async function registerIdpRoutes(app: FastifyInstance, deps: AppDeps) {
  if (deps.config.authProvider !== 'local') return;
  await app.register(async (scope) => {
    // Only these routes read or set cookies (the session cookie lives on /idp): parsing the Cookie header
    // here, not on every API read, keeps a hook off the draft-night hot path.
    await scope.register(fastifyCookie);
    // Per-IP limit on the calls that send or check codes, one budget shared by all of them (a per-route
    // config would give each route its own store, i.e. three times the budget); token refresh, sign-out
    // and the dev routes opt out.
    await scope.register(rateLimit, {
      global: true,
      max: deps.idp.limits.requestsPerIpPerMinute,
      timeWindow: 60_000,
      errorResponseBuilder: (_req, context) => {
        const message = `Too many requests. Please wait ${Math.ceil(context.ttl / 1000)} seconds and try again.`;
        return { statusCode: 429, message, detail: message };
      },
    });
    // Domain errors by kind, schema failures 422, the rate limiter's 429: the one error model (errors.ts).
    scope.setErrorHandler((error, req, reply) => {
      const { status, body, fault } = errorAnswer(error);
      if (fault) req.log.error({ err: error }, 'identity provider failed');
      return reply.code(status).send(body);
    });

    scope.addHook('onRequest', async (req, reply) => {
      if (req.method === 'POST' && !isAllowedOrigin(deps, req)) return refuse(reply, forbidden('Cross-site request refused'));
    });

    const em = () => deps.orm.em.fork();
    const unlimited = { config: { rateLimit: false as const } };

    scope.post('/idp/sign-up', async (req) => idp.signUp(em(), deps.idp, signUpBody.parse(req.body ?? {}), req.ip));
    scope.post('/idp/sign-in', async (req) => idp.signIn(em(), deps.idp, signInBody.parse(req.body ?? {}), req.ip));
    scope.post('/idp/verify', async (req, reply) => {
      const result = await idp.verify(em(), deps.idp, verifyBody.parse(req.body ?? {}), authorizedParty(deps, req));
      if (result.status !== 'complete') return result;
      setSessionCookie(req, reply, result.sessionSecret);
      return { status: result.status, user_id: result.user_id, token: result.token };
    });
    scope.post('/idp/token', unlimited, async (req) => idp.refreshToken(em(), deps.idp, req.cookies[SESSION_COOKIE], authorizedParty(deps, req)));
    scope.post('/idp/sign-out', unlimited, async (req, reply) => {
      // Ends the cookie's session, and the bearer token's session for clients without cookies.
      const auth = req.headers.authorization ? await deps.bearer.verify(em, req.headers.authorization) : null;
      await idp.signOut(em(), deps.idp, req.cookies[SESSION_COOKIE], auth?.ok ? (auth.identity.sessionId ?? undefined) : undefined);
      reply.clearCookie(SESSION_COOKIE, { path: '/idp' });
      reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
      return { status: 'signed_out' };
    });
    scope.get('/idp/dev/outbox', unlimited, async (req, reply) => {
      // The codes sign anyone in: only for the machine itself, and never in production.
      if (deps.config.NODE_ENV === 'production' || !isFromThisMachine(req)) return refuse(reply, notFound('Not found'));
      const { email } = z.object({ email: emailSchema }).parse(req.query);
      return idp.readOutbox(em(), email);
    });
    scope.get('/idp/config', unlimited, async () => ({ provider: 'local' }));
  });
}
