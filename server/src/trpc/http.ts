import type { FastifyInstance, FastifyReply } from 'fastify';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { isHotRead } from '@first-round/shared/hot-reads';
import type { AppDeps } from '../deps.js';
import { describeError, errorHeaders } from '../errors.js';
import { etagMatches, etagOf } from '../responses/json-body.js';
import type { FastPaths } from '../wire/switch.js';
import { createContextInner } from './context.js';
import { appRouter, type AppRouter } from './root.js';

/**
 * Browsers' EventSource cannot send headers, so the live-draft subscription alone may carry its token in
 * `?connectionParams=`. Everywhere else a token in a URL is ignored: URLs end up in logs, histories and
 * Referer headers, and a plain call can always send the Authorization header.
 */
const TOKEN_IN_URL_PROCEDURES = new Set(['draft.changes']);

function tokenFromConnectionParams(info: CreateFastifyContextOptions['info']): string | undefined {
  const token = info.connectionParams?.token;
  if (!token || info.type !== 'subscription') return undefined;
  return info.calls.length > 0 && info.calls.every((call) => TOKEN_IN_URL_PROCEDURES.has(call.path)) ? token : undefined;
}

/** The headers the app set before tRPC answered (its Vary: Origin) joined with tRPC's own (its Vary). */
function joinVary(reply: FastifyReply, answer: Response, more: string[] = []) {
  const vary = [reply.getHeader('vary'), answer.headers.get('vary'), ...more].filter(Boolean).join(', ');
  if (vary) answer.headers.set('vary', vary);
}

/**
 * tRPC's adapter answers with a web Response, whose headers replace the reply's own of the same name: its
 * Vary is joined with the app's (Origin).
 */
function joinVaryOfAnswers(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (payload instanceof Response) joinVary(reply, payload);
    done(null, payload);
  });
}

/**
 * A hot read tRPC answers (FAST_PATHS without `hot-reads`: wire/switch.ts) gets what the fast path gives it:
 * an ETag, `304 Not Modified` when the client holds these bytes, and `private, no-cache` (the answer depends
 * on who asks: Vary: Authorization).
 */
function validatorsOfHotReads(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!(payload instanceof Response) || request.method !== 'GET' || payload.status !== 200) return payload;
    if (!request.url.startsWith('/trpc/') || !isHotRead(request.url.slice('/trpc/'.length).split('?')[0] ?? '')) return payload;
    joinVary(reply, payload, ['authorization']);
    const text = await payload.text();
    const etag = etagOf(text);
    for (const [name, value] of payload.headers) reply.header(name, value);
    reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (!etagMatches(request.headers['if-none-match'], etag)) return text;
    reply.code(304);
    return '';
  });
}

/** tRPC at /trpc (batching on; the live subscription over SSE reads its token from `connectionParams`). */
export async function registerTrpc(app: FastifyInstance, deps: AppDeps, pieces: FastPaths) {
  if (!pieces.has('hot-reads')) validatorsOfHotReads(app);
  joinVaryOfAnswers(app);
  const createContext = ({ req, info }: CreateFastifyContextOptions) => {
    const fromParams = tokenFromConnectionParams(info);
    const authorization = req.headers.authorization ?? (fromParams ? `Bearer ${fromParams}` : undefined);
    return createContextInner({ deps, authorization, ip: req.ip, headers: req.headers });
  };
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext,
      allowBatching: true,
      maxBatchSize: 20,
      // A refusal that lifts by itself (a 429 that knows when) says so in Retry-After, as REST does; in a
      // batch, the longest wait of its calls.
      responseMeta: ({ errors }) => {
        const waits = errors.map((error) => describeError(error).retryAfterSeconds).filter((wait) => wait !== undefined);
        return waits.length === 0 ? {} : { headers: errorHeaders({ retryAfterSeconds: Math.max(...waits) }) };
      },
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>);
}
