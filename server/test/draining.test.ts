import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { jsonBody, prepareJson, sendRead } from '../src/responses/json-body.js';
import { closeConnectionsWhileDraining } from '../src/draining.js';

/**
 * A shutdown drains: the server stops listening and waits for its connections to end. An answer that
 * leaves a keep-alive connection open after that holds the shutdown until the keep-alive timeout, so
 * every answer finished during the drain closes its connection, the hot reads written to the socket
 * (sendRead) as much as those sent through Fastify.
 */
describe('answers finished while the server drains', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(() => close?.());

  it('close their connection, hot reads and ordinary answers alike; before the drain they keep it', async () => {
    const app = Fastify({ logger: false });
    closeConnectionsWhileDraining(app);
    const page = prepareJson(Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, name: `Entry ${i}` })));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const entered: string[] = [];
    app.get('/read', async (request, reply) => {
      entered.push('read');
      if (request.headers['x-hold']) await held;
      return sendRead(request, reply, jsonBody({ rankings: page, me: { rank: 2 } }));
    });
    app.get('/plain', async (request) => {
      entered.push('plain');
      if (request.headers['x-hold']) await held;
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    close = () => app.close();
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

    for (const path of ['/read', '/plain']) expect((await fetch(base + path)).headers.get('connection')).toBe('keep-alive');

    entered.length = 0;
    const answers = ['/read', '/plain'].map((path) => fetch(base + path, { headers: { 'x-hold': '1' } }));
    await expect.poll(() => entered.length).toBe(2);
    const stopped = new Promise((resolve) => app.server.close(resolve));
    release();
    for (const answer of await Promise.all(answers)) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('connection')).toBe('close');
      await answer.arrayBuffer();
    }
    // Nothing holds the server open: it has stopped well inside any keep-alive timeout.
    await stopped;
  });
});
