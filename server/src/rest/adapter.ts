import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { ZodError } from 'zod';
import type { AppDeps } from '../deps.js';
import { createContextInner } from '../trpc/context.js';
import { createCaller } from '../trpc/root.js';
import { NUL_MESSAGE } from '@first-round/shared/schemas';
import { containsNul, zodMessage } from '../trpc/trpc.js';
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../errors.js';
import { jsonBody, sendRead } from '../cache/json-body.js';
import { badRequestInput, RestInputError } from './input.js';
import { restRoutes, type RestRoute } from './routes.js';
import { HOT_READS } from '../trpc/hot-reads.js';
import { runHotRead } from '../trpc/hot-read.js';

type Caller = ReturnType<typeof createCaller>;
type AnyProcedureCall = (input?: unknown) => Promise<unknown>;

function procedureOf(caller: Caller, path: RestRoute['procedure']): AnyProcedureCall {
  const [ns, name] = path.split('.') as [keyof Caller, string];
  return (caller[ns] as unknown as Record<string, AnyProcedureCall>)[name]!;
}

/** `{detail, message}` with the status that fits: zod failures 422, domain errors by kind, 5xx generic. */
export function restError(error: unknown): { status: number; message: string } {
  if (error instanceof RestInputError) return { status: 422, message: error.message };
  if (error instanceof TRPCError) {
    if (error.cause instanceof ZodError) return { status: 422, message: zodMessage(error.cause) };
    const status = getHTTPStatusCodeFromError(error);
    if (status === 503) return { status, message: UNAVAILABLE_MESSAGE };
    return { status, message: status >= 500 ? 'Internal server error' : error.message };
  }
  if (isDatabaseUnavailable(error)) return { status: 503, message: UNAVAILABLE_MESSAGE };
  return { status: 500, message: 'Internal server error' };
}

/** A browser navigating to an unprefixed path wants the page, not the JSON. */
function wantsPage(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return req.method === 'GET' && accept.includes('text/html');
}

/** Every row of the table at `/api<path>` and `<path>`, each one call of the same procedure. */
export async function registerRestAdapter(app: FastifyInstance, deps: AppDeps) {
  for (const route of restRoutes) {
    const handle = (prefixed: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (!prefixed && wantsPage(req)) return reply.sendSpa();
      try {
        // Every part of the request, unknown query keys included, as the procedures' own guard does.
        if (containsNul([req.params, req.query, req.body])) throw badRequestInput(NUL_MESSAGE);
        const ctx = await createContextInner({ deps, authorization: req.headers.authorization, ip: req.ip, headers: req.headers });
        const input = route.input?.({
          params: req.params as Record<string, string>,
          query: req.query as Record<string, string>,
          body: req.body,
        });
        const hot = HOT_READS[route.procedure];
        const result = hot ? await runHotRead(hot, ctx, input) : await procedureOf(createCaller(ctx), route.procedure)(input);
        if (route.method === 'GET') return sendRead(req, reply, jsonBody(result));
        return reply.send(result ?? { success: true });
      } catch (error) {
        const { status, message } = restError(error);
        if (status >= 500 && status !== 503) req.log.error({ err: error }, 'REST call failed');
        return reply.code(status).send({ detail: message, message });
      }
    };
    app.route({ method: route.method, url: `/api${route.path}`, handler: handle(true) });
    app.route({ method: route.method, url: route.path, handler: handle(false) });
  }
}
