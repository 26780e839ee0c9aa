import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.js';
import { createContextInner } from '../trpc/context.js';
import { createCaller } from '../trpc/root.js';
import { NUL_MESSAGE } from '@first-round/shared/schemas';
import { containsNul } from '../trpc/trpc.js';
import { errorAnswer, unprocessable } from '../errors.js';
import { jsonBody, sendRead } from '../responses/json-body.js';
import type { FastPaths } from '../wire/switch.js';
import { parseQuery, restRoutes, type RestRoute } from './routes.js';
import { HOT_READS } from '../wire/hot-reads.js';
import { isHotRead } from '@first-round/shared/hot-reads';
import { hotReadBody, runHotRead } from '../trpc/hot-read.js';

type Caller = ReturnType<typeof createCaller>;
type AnyProcedureCall = (input?: unknown) => Promise<unknown>;

function procedureOf(caller: Caller, path: RestRoute['procedure']): AnyProcedureCall {
  const [ns, name] = path.split('.') as [keyof Caller, string];
  return (caller[ns] as unknown as Record<string, AnyProcedureCall>)[name]!;
}

/** A browser navigating to an unprefixed path wants the page, not the JSON. */
function wantsPage(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return req.method === 'GET' && accept.includes('text/html');
}

/**
 * Every row of the table at `/api<path>` and `<path>`, each one call of the same procedure. Errors are
 * answered by the one error model (errors.ts): `{detail, message, code}` with the kind's status.
 */
export async function registerRestAdapter(app: FastifyInstance, deps: AppDeps, pieces: FastPaths) {
  for (const route of restRoutes) {
    const handle = (prefixed: boolean, absent?: string) => async (req: FastifyRequest, reply: FastifyReply) => {
      if (!prefixed && wantsPage(req)) return reply.sendSpa();
      // Only the spelling with the slash stands for the empty parameter; `/groups` itself is not a row.
      if (absent && !req.url.split('?')[0]!.endsWith('/')) return reply.callNotFound();
      try {
        // Every part of the request, unknown query keys included, as the procedures' own guard does.
        if (containsNul([req.params, req.query, req.body])) throw unprocessable(NUL_MESSAGE);
        const query = parseQuery(route.query, req.query);
        // Awaited only when not already here: a cached read makes no promise (cache/maybe-promise.ts).
        const made = createContextInner({ deps, authorization: req.headers.authorization, ip: req.ip, headers: req.headers });
        const ctx = made instanceof Promise ? await made : made;
        const params = { ...(req.params as Record<string, string>), ...(absent ? { [absent]: '' } : {}) };
        const input = route.input?.({ params, query, body: req.body });
        // With the `hot-reads` piece (wire/switch.ts) a hot read runs its read function, not a tRPC caller.
        const hot = pieces.has('hot-reads') && isHotRead(route.procedure) ? HOT_READS[route.procedure] : undefined;
        const answer = hot ? runHotRead(hot, ctx, input) : procedureOf(createCaller(ctx), route.procedure)(input);
        const result = answer instanceof Promise ? await answer : answer;
        if (route.method === 'GET') return sendRead(req, reply, hot ? hotReadBody(hot, result) : jsonBody(result));
        return reply.send(result ?? { success: true });
      } catch (error) {
        const { status, body, headers, fault } = errorAnswer(error);
        if (fault) req.log.error({ err: error }, 'REST call failed');
        return reply.code(status).headers(headers ?? {}).send(body);
      }
    };
    // The router ignores trailing slashes (app.ts), so `/groups/` arrives as `/groups`: a row whose path
    // ends in a parameter answers `/groups/` too, as the empty parameter it is (422, `group_id must be a
    // positive integer`), which is what matching `/groups/:id` with an empty id answered before.
    const lastParam = /\/:(\w+)$/.exec(route.path);
    for (const prefixed of [true, false]) {
      const url = `${prefixed ? '/api' : ''}${route.path}`;
      app.route({ method: route.method, url, handler: handle(prefixed) });
      if (lastParam) app.route({ method: route.method, url: url.slice(0, url.length - lastParam[0].length), handler: handle(prefixed, lastParam[1]) });
    }
  }
}
