import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

/*
 * A shutdown's drain (SIGTERM, Ctrl-C: main.ts), in this order:
 *
 * 1. Draining begins: /readyz answers 503 (a balancer stops sending new requests here) and every answer says
 *    `Connection: close`. The listener keeps accepting: whatever the kernel has accepted is still read.
 * 2. A pause (READY_DRAIN_SECONDS) for the balancer to notice, still accepting and answering.
 * 3. The listener closes, but only once the kernel's accept queue is empty: Node accepts one waiting
 *    connection per turn of the event loop, and a connection still queued when the listening socket closes
 *    is reset by the kernel, its request written and lost. So the listener closes after event-loop turns in
 *    which nothing new was accepted, and the connections accepted before have had a turn to be read: a
 *    connection whose request is in its buffer is then busy, not idle. Closing the listener closes the idle
 *    keep-alive connections (nothing to answer on them); the busy ones get their answers.
 * 4. Fastify closes: live streams end, requests in flight finish, each closing its connection. Steps 3 and 4
 *    together get DRAIN_SECONDS; what is still running then is cut off.
 *
 * docs/decisions.md, "Stopping without losing a request", says why this and not the alternatives.
 */

const drainingServers = new WeakSet<Server>();

/** Whether the server's drain has begun (main.ts's shutdown): /readyz then answers 503. */
export const isDraining = (server: Server) => drainingServers.has(server);

/**
 * Whether an answer must close its connection: once the drain has begun (or the server stopped listening
 * without one, as `app.close()` alone does), a keep-alive connection left open would hold the shutdown until
 * its keep-alive timeout, and its next request would find the listener gone.
 */
export const closesConnection = (reply: FastifyReply) => isDraining(reply.server.server) || !reply.server.server.listening;

/** Answers sent through Fastify while the server drains say `Connection: close` (hot reads write their own: responses/json-body.ts). */
export function closeConnectionsWhileDraining(app: FastifyInstance) {
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closesConnection(reply)) reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Step 1: /readyz turns 503 and every answer from now on closes its connection. */
export function beginDrain(server: Server): void {
  drainingServers.add(server);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Step 3: closes the listener once the accept queue is empty. Each `setImmediate` callback runs after one
 * poll phase of the event loop, and in a poll phase libuv accepts ONE connection waiting on the listening
 * socket (since libuv 1.45 it no longer accepts in a loop: libuv/libuv#3696; level-triggered polling reports
 * the socket again while more wait), and reads every socket with bytes waiting. So 20 queued connections take
 * 20 turns, and `quietTurns` turns in a row without a new connection mean the queue is empty and every
 * connection accepted before has been read once. Under a flood that never lets up (a balancer that did not
 * stop sending) it closes after `maxMs` anyway.
 *
 * `server.close()` closes the listening socket at once, and the idle connections with it (Node's
 * closeIdleConnections: no request begun, or between two requests).
 */
export async function closeListenerWhenAccepted(server: Server, options: { quietTurns?: number; maxMs?: number } = {}): Promise<{ turns: number }> {
  const quietTurns = options.quietTurns ?? 2;
  const deadline = Date.now() + (options.maxMs ?? 1000);
  let accepted = 0;
  const count = () => accepted++;
  server.on('connection', count);
  let quiet = 0;
  let turns = 0;
  try {
    // Called from a signal handler, this runs in a poll phase: the first immediate comes before the next
    // poll. From the check phase on, each turn has exactly one poll phase in it.
    await nextTurn();
    while (quiet < quietTurns && Date.now() < deadline) {
      const before = accepted;
      await nextTurn();
      turns++;
      quiet = accepted === before ? quiet + 1 : 0;
    }
  } finally {
    server.off('connection', count);
  }
  // Synchronously after the last turn's check: no poll phase in between in which a connection could be queued
  // and not accepted.
  if (server.listening) server.close();
  return { turns };
}

export interface DrainOptions {
  /** Step 2: how long the listener keeps accepting after /readyz turned 503 (READY_DRAIN_SECONDS). */
  pauseMs: number;
  /** Steps 3 and 4: how long, from the end of the pause, the queue and the requests in flight may take (DRAIN_SECONDS). */
  drainMs: number;
}

/**
 * The whole drain, steps 1 to 4. Resolves true when every request finished in time, false when some were
 * cut off after `drainMs`.
 */
export async function drain(app: FastifyInstance, options: DrainOptions): Promise<boolean> {
  beginDrain(app.server);
  if (options.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
  // DRAIN_SECONDS counts from here: emptying the accept queue (a turn per connection) and the requests.
  const deadline = Date.now() + options.drainMs;
  await closeListenerWhenAccepted(app.server, { maxMs: options.drainMs });
  let timer: NodeJS.Timeout | undefined;
  // Fastify's close: preClose hooks (live streams end), then the server's own close waits for every
  // connection (the listener is closed already), then onClose hooks.
  const closed = app.close().then(
    () => true,
    () => true,
  );
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()))));
  const drained = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  if (!drained) {
    app.server.closeAllConnections();
    await closed;
  }
  return drained;
}
