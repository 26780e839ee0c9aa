import type { FastifyInstance } from 'fastify';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps.js';
import { describeError, errorHeaders } from '../errors.js';
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

/** tRPC at /trpc (batching on; the live subscription over SSE reads its token from `connectionParams`). */
export async function registerTrpc(app: FastifyInstance, deps: AppDeps) {
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
