import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getTRPCErrorFromUnknown, getTRPCErrorShape, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { AppDeps } from '../deps.js';
import { etagVariant, jsonBody, sendRead } from '../cache/json-body.js';
import { procedureOf } from '../rest/adapter.js';
import type { ProcedurePath } from '../rest/routes.js';
import { createContextInner, type Context } from './context.js';
import { appRouter, createCaller } from './root.js';

/**
 * The reads every open page repeats after each draft change. Over tRPC (an unbatched GET, as the web app
 * sends them, or a batch of one) they are answered here instead of by the tRPC adapter: the same context,
 * the same procedure through the same middleware (so the same checks), but the answer goes out as the
 * bytes its cache prepared, with an ETag and `304 Not Modified`, without the adapter's per-request
 * conversion to a web Request and back. The wire format is tRPC's own (`{"result":{"data":…}}`, errors
 * shaped by the router's error formatter), so any tRPC client reads it unchanged.
 */
export const HOT_READS = ['draft.status', 'players.list', 'leaderboard.group', 'auth.me'] as const satisfies readonly ProcedurePath[];

function parseInput(raw: string | undefined, batch: boolean): unknown {
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as unknown;
    return batch ? (parsed as Record<string, unknown> | null)?.['0'] : parsed;
  } catch (cause) {
    throw new TRPCError({ code: 'PARSE_ERROR', message: 'Input is not valid JSON', cause });
  }
}

export function registerHotReads(app: FastifyInstance, deps: AppDeps) {
  for (const path of HOT_READS) {
    app.get(`/trpc/${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Record<string, string | undefined>;
      const batch = query.batch === '1';
      const envelope = (json: string) => (batch ? `[${json}]` : json);
      let input: unknown;
      let ctx: Context | undefined;
      try {
        input = parseInput(query.input, batch);
        ctx = await createContextInner({ deps, authorization: request.headers.authorization, ip: request.ip, headers: request.headers });
        const body = jsonBody(await procedureOf(createCaller(ctx), path)(input));
        return sendRead(request, reply, { json: envelope(`{"result":{"data":${body.json}}}`), etag: etagVariant(body.etag, batch ? 'tb' : 't') });
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        const shape = getTRPCErrorShape({ config: appRouter._def._config, error, type: 'query', path, input, ctx });
        const status = getHTTPStatusCodeFromError(error);
        if (status >= 500 && status !== 503) request.log.error({ err: cause }, 'hot read failed');
        return reply.code(status).type('application/json').send(envelope(JSON.stringify({ error: shape })));
      }
    });
  }
}
