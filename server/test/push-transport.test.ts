import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../src/config.js';
import { PushEndpointRefused, type PushLookup } from '../src/modules/push/endpoint-policy.js';
import { PushTransport } from '../src/modules/push/push.transport.js';

/** The default push services, and plain http to this machine for the test's server (as the tests' stand-in has it). */
const transportFor = (lookup?: PushLookup, hosts: string[] = DEFAULT_PUSH_SERVICE_HOSTS) =>
  new PushTransport({ maxSocketsPerOrigin: 4, policy: { hosts, allowLoopbackHttp: true }, lookup });

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
        if (request.url === '/trickle') {
          // Answers, then sends its body a byte at a time, never ending it.
          response.writeHead(201);
          const drip = setInterval(() => response.write('.'), 50);
          response.on('close', () => clearInterval(drip));
          return;
        }
        if (request.url === '/moved') return response.writeHead(307, { location: `${origin}/push/redirected` }).end();
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
    const transport = transportFor();
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
    const transport = transportFor();
    try {
      // The deadline's own error: the request was given up by it, not by a socket timeout or the service.
      await expect(transport.post(`${origin}/silent`, {}, Buffer.from('x'), 300)).rejects.toThrow('no answer from the push service in 300 ms');
      // One deadline for the whole exchange: a body trickled forever does not keep the request alive.
      await expect(transport.post(`${origin}/trickle`, {}, Buffer.from('x'), 300)).rejects.toThrow('no answer from the push service in 300 ms');
      await expect(transport.post('http://127.0.0.1:1/push/a', {}, Buffer.from('x'), 300)).rejects.toThrow(/ECONNREFUSED/);
      await expect(transport.post('ftp://127.0.0.1/push/a', {}, Buffer.from('x'), 300)).rejects.toThrow(PushEndpointRefused);
    } finally {
      transport.close();
    }
  });

  it('answers a redirect as the status it is, without following it', async () => {
    const transport = transportFor();
    try {
      const before = bodies.length;
      expect(await transport.post(`${origin}/moved`, {}, Buffer.from('once'), 5000)).toBe(307);
      expect(bodies.slice(before)).toEqual(['once']);
    } finally {
      transport.close();
    }
  });

  it('connects only to the addresses it checked: a name answering loopback or a private address gets no connection', async () => {
    const port = new URL(origin).port;
    const asked: string[] = [];
    const transport = transportFor(
      async (hostname) => {
        asked.push(hostname);
        return hostname === 'localhost' ? [{ address: '10.1.2.3', family: 4 }] : [{ address: '127.0.0.1', family: 4 }];
      },
      ['*'],
    );
    const before = connections.length;
    try {
      await expect(transport.post(`https://push.example.test:${port}/push/a`, {}, Buffer.from('x'), 1000)).rejects.toThrow(PushEndpointRefused);
      // Plain http to "localhost" whose answer is not loopback: refused too.
      await expect(transport.post(`http://localhost:${port}/push/a`, {}, Buffer.from('x'), 1000)).rejects.toThrow(PushEndpointRefused);
      expect(asked).toEqual(['push.example.test', 'localhost']);
      expect(connections.length).toBe(before);
    } finally {
      transport.close();
    }
  });
});
