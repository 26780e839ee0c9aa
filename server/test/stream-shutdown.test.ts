import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beginDrain } from '../src/draining.js';
import { createTestApp, listenOnLoopback, type TestApp } from './support/test-app.js';

/**
 * A live stream ended by the server's shutdown must not leave its connection looking reusable. Behind
 * nginx (upstream keepalive), a stream that ends with the chunked terminator hands its connection back to
 * nginx's pool as idle; the stopping server then closes its idle connections, and a POST nginx has just
 * sent on that one is reset: a 502 for a player saving picks (seen in the deployment test's rolling
 * restart: "recv() failed (104: Connection reset by peer) while reading response header"). So a stream the
 * drain ends is cut (no terminator): nginx drops the connection, the page reconnects and replays by its
 * last event id as it does after any cut.
 */
let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  port = Number(new URL(await listenOnLoopback(t.app)).port);
});
afterAll(async () => t.close());

/** Opens the spectators' stream on a raw keep-alive connection, as nginx's upstream keepalive does: every byte the server sends. */
function openStream(): Promise<{ received: () => string; closed: Promise<void>; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let bytes = '';
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      bytes += chunk.toString('latin1');
      if (bytes.includes('\r\n\r\n')) resolve({ received: () => bytes, closed, socket });
    });
    socket.once('connect', () =>
      socket.write(`GET /trpc/draft.publicChanges HTTP/1.1\r\nHost: first-round.test\r\nAccept: text/event-stream\r\nConnection: keep-alive\r\n\r\n`),
    );
    setTimeout(() => reject(new Error(`no answer: ${bytes}`)), 10_000);
  });
}

describe('a refused request behind a stream under way', () => {
  it('closes the connection instead of writing a refusal into the stream', async () => {
    // What Node's parser refuses on a connection whose answer is under way cannot be answered there: a 400
    // written into the stream's body would corrupt it. The connection is closed instead, as Node itself does
    // (refusals.ts asks draining.ts which answers are under way).
    const stream = await openStream();
    stream.socket.write('NOT A REQUEST\r\n\r\n');
    await stream.closed;
    expect(stream.received().match(/HTTP\/1\.1 \d{3}/g)).toEqual(['HTTP/1.1 200']);
  });
});

describe('a live stream at shutdown', () => {
  it('is cut, not finished, so a proxy never reuses its connection as the server closes it', async () => {
    const stream = await openStream();
    const head = stream.received().split('\r\n\r\n')[0]!.toLowerCase();
    expect(head).toMatch(/^http\/1\.1 200/);
    expect(head).toContain('transfer-encoding: chunked');
    expect(head).not.toContain('connection: close');
    // The drain as main.ts begins it, then Fastify's close: its preClose ends every live stream.
    beginDrain(t.app.server);
    const closing = t.app.close();
    await stream.closed;
    await closing;
    expect(stream.received().endsWith('\r\n0\r\n\r\n'), 'the stream ended with the chunked terminator: its connection looked reusable').toBe(false);
  });
});
