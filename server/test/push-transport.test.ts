import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushTransport } from '../src/modules/push/push.transport.js';

describe('posting pushes to a push service', () => {
  let server: http.Server;
  let origin: string;
  const connections: unknown[] = [];
  const bodies: string[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        if (request.url === '/silent') return; // never answers
        response.writeHead(request.url === '/gone' ? 410 : 201, { 'content-type': 'text/plain' }).end('a body nobody reads');
      });
    });
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("answers the service's status, sends the body, and reuses one connection for pushes one after another", async () => {
    const transport = new PushTransport(4);
    try {
      expect(await transport.post(`${origin}/push/a`, { 'content-type': 'application/octet-stream' }, Buffer.from('first'), 5000)).toBe(201);
      expect(await transport.post(`${origin}/gone`, {}, Buffer.from('second'), 5000)).toBe(410);
      expect(bodies.slice(-2)).toEqual(['first', 'second']);
      expect(connections).toHaveLength(1);
    } finally {
      transport.close();
    }
  });

  it('gives up on a service that does not answer, and on one that cannot be reached, with an error (the sender tries again)', async () => {
    const transport = new PushTransport(4);
    try {
      const started = Date.now();
      await expect(transport.post(`${origin}/silent`, {}, Buffer.from('x'), 300)).rejects.toThrow('no answer from the push service in 300 ms');
      expect(Date.now() - started).toBeLessThan(3000);
      await expect(transport.post('http://127.0.0.1:1/push/a', {}, Buffer.from('x'), 300)).rejects.toThrow(/ECONNREFUSED/);
      await expect(transport.post('ftp://127.0.0.1/push/a', {}, Buffer.from('x'), 300)).rejects.toThrow('not an http(s) endpoint');
    } finally {
      transport.close();
    }
  });
});
