import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Whether an answer must close its connection: once the server has stopped listening (a shutdown's drain
 * has begun), a keep-alive connection left idle would hold the close open until its keep-alive timeout.
 */
export const closesConnection = (reply: FastifyReply) => !reply.server.server.listening;

/** Answers sent through Fastify while the server drains say `Connection: close` (hot reads write their own: responses/json-body.ts). */
export function closeConnectionsWhileDraining(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closesConnection(reply)) reply.header('connection', 'close');
    done(null, payload);
  });
}
