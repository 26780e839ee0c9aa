import net from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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
 *    connection whose request is in its buffer is then busy, not idle.
 * 3b. Idle keep-alive connections are left for their peers to close, up to IDLE_CLOSE_MS: a proxy may be
 *    sending a request on one at the very moment this side would close it, and that request is then lost (a
 *    POST is not retried: nginx answers 502). A request that does come on one is answered and closes it. A
 *    proxy closes its idle connections after its own keepalive_timeout (deploy/nginx.conf: 3 s); what a
 *    browser keeps open longer is closed at IDLE_CLOSE_MS, or at the drain's deadline if that comes first.
 * 4. Fastify closes: live streams end, requests in flight finish, each closing its connection. Steps 3 and 4
 *    together get DRAIN_SECONDS; what is still running then is cut off.
 *
 * docs/decisions.md, "Stopping without losing a request", says why this and not the alternatives.
 */

const drainingServers = new WeakSet<Server>();

/** How long a drain waits for peers to close their idle keep-alive connections (step 3b). */
export const IDLE_CLOSE_MS = 4000;

/** Per server, its open connections and how many requests each has in flight (step 3b tells idle ones by it). */
const connections = new WeakMap<Server, Map<Socket, number>>();

/** Per connection, its answers not yet finished (a pipelined request's waits behind the one before it). */
const answersInFlight = new WeakMap<Socket, Set<ServerResponse>>();

/** Keeps count of the server's connections and their requests in flight, for the drain. */
export function trackConnections(server: Server) {
  const open = new Map<Socket, number>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.set(socket, 0);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    let answers = answersInFlight.get(socket);
    if (!answers) answersInFlight.set(socket, (answers = new Set()));
    answers.add(response);
    response.once('close', () => {
      answers.delete(response);
      if (open.has(socket)) open.set(socket, Math.max(0, open.get(socket)! - 1));
    });
  });
}

/** Whether an answer has begun on this connection (its head written): nothing else may be written to it then. */
export const answerUnderWay = (socket: Socket) => [...(answersInFlight.get(socket) ?? [])].some((response) => response.headersSent);

const idleConnections = (server: Server) => [...(connections.get(server) ?? new Map<Socket, number>()).values()].filter((inFlight) => inFlight === 0).length;

/** Step 3b: until no connection is idle (peers closed theirs, or sent a request that closes it), `untilMs` at most. */
async function waitForIdleClosedByPeers(server: Server, untilMs: number) {
  while (idleConnections(server) > 0 && Date.now() < untilMs) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** Whether the server's drain has begun (main.ts's shutdown): /readyz then answers 503. */
export const isDraining = (server: Server) => drainingServers.has(server);

/**
 * Whether an answer must close its connection: once the drain has begun (or the server stopped listening
 * without one, as `app.close()` alone does), a keep-alive connection left open would hold the shutdown until
 * its keep-alive timeout, and its next request would find the listener gone.
 */
export const closesConnection = (reply: FastifyReply) => isDraining(reply.server.server) || !reply.server.server.listening;

/** Answers sent through Fastify while the server drains say `Connection: close` (a live stream opened then, too: wire/sse-route.ts). */
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
 * Only the listening socket is closed (net.Server's close): the http server's own `close()` would also close
 * the idle connections at once (closeIdleConnections), which step 3b leaves to their peers.
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
  if (server.listening) net.Server.prototype.close.call(server);
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
  await waitForIdleClosedByPeers(app.server, Math.min(deadline, Date.now() + IDLE_CLOSE_MS));
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
