import type { FastifyInstance } from 'fastify';
import { fastifyTRPCPlugin, type CreateFastifyContextOptions, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import type { AppDeps } from '../deps.js';
import { createContextInner } from './context.js';
import { appRouter, type AppRouter } from './root.js';

/** tRPC at /trpc (batching on; subscriptions over SSE read the token from `connectionParams`). */
export async function registerTrpc(app: FastifyInstance, deps: AppDeps) {
  const createContext = ({ req, info }: CreateFastifyContextOptions) => {
    const fromParams = info.connectionParams?.token;
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
    },
  } satisfies FastifyTRPCPluginOptions<AppRouter>);
}
