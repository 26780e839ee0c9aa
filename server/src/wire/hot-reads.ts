import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HotReadPath } from '@first-round/shared/hot-reads';
import type { AppDeps } from '../deps.js';
import { describeError, errorHeaders } from '../errors.js';
import { enveloped, sendRead } from '../responses/json-body.js';
import { readProfile } from '../modules/auth/auth.router.js';
import { readDraftStatus } from '../modules/draft/draft.router.js';
import { readField, readLeaderboard, readPublicStandings } from '../modules/leaderboard/leaderboard.router.js';
import { readPlayers } from '../modules/players/players.router.js';
import { createContextInner, type Context } from '../trpc/context.js';
import { hotReadBody, runHotRead, type AnyHotRead } from '../trpc/hot-read.js';
import { parseQueryInput, queryParam, trpcErrorAnswer } from './trpc-wire.js';

/**
 * The `hot-reads` piece (wire/switch.ts). The reads every open page repeats after each draft change
 * (shared/src/hot-reads.ts names them; trpc/hot-read.ts defines one). Over tRPC (an unbatched
 * GET, as the web app sends them, or a batch of one) they are answered here instead of by the tRPC
 * adapter: the same context and the same read function (so the same checks), but without tRPC's
 * middleware chain and its conversion to a web Request and back, and the answer goes out as the bytes its
 * cache prepared, with an ETag and `304 Not Modified`. The wire format is tRPC's own
 * (`{"result":{"data":…}}`, errors shaped by the router's error formatter), so any tRPC client reads it
 * unchanged. The REST rows of these procedures run the same functions (rest/adapter.ts).
 */
export const HOT_READS: Record<HotReadPath, AnyHotRead> = {
  'draft.status': readDraftStatus,
  'players.list': readPlayers,
  'leaderboard.group': readLeaderboard,
  'leaderboard.field': readField,
  'leaderboard.public': readPublicStandings,
  'auth.me': readProfile,
};

export function registerHotReads(app: FastifyInstance, deps: AppDeps) {
  for (const [path, read] of Object.entries(HOT_READS)) {
    app.get(`/trpc/${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.query as Record<string, string | string[] | undefined>;
      const batch = queryParam(query, 'batch') === '1';
      let input: unknown;
      let ctx: Context | undefined;
      try {
        input = parseQueryInput(queryParam(query, 'input'), batch);
        // Awaited only when not already here: a cached read makes no promise (cache/maybe-promise.ts).
        const made = createContextInner({ deps, authorization: request.headers.authorization, ip: request.ip, headers: request.headers });
        ctx = made instanceof Promise ? await made : made;
        const answer = runHotRead(read, ctx, input);
        const body = hotReadBody(read, answer instanceof Promise ? await answer : answer);
        const answered = batch ? enveloped(body, '[{"result":{"data":', '}}]', 'tb') : enveloped(body, '{"result":{"data":', '}}', 't');
        return sendRead(request, reply, answered);
      } catch (cause) {
        const { status, shape } = trpcErrorAnswer(cause, { type: 'query', path, input, ctx });
        if (status >= 500 && status !== 503) request.log.error({ err: cause }, 'hot read failed');
        const json = JSON.stringify({ error: shape });
        return reply
          .code(status)
          .headers(errorHeaders(describeError(cause)))
          .type('application/json')
          .send(batch ? `[${json}]` : json);
      }
    });
  }
}
