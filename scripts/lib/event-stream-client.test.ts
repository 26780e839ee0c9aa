import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ChunkedDecoder, openEventStream } from './event-stream-client.js';

describe("the load generator's chunked body reader", () => {
  // Three chunks (one with an extension, one with a multi-byte character), the last chunk and a trailer.
  const wire = Buffer.from('5\r\nhello\r\n18;x=1\r\n, one chunk, 24 bytes...\r\nc\r\n✓ checked!\r\n0\r\nx-trailer: 1\r\n\r\n');
  const body = 'hello, one chunk, 24 bytes...✓ checked!';

  it.each([1, 2, 3, 7, 13, wire.length])('reads the same body from reads of %i bytes, and knows where it ends', (size) => {
    const decoder = new ChunkedDecoder();
    const parts: Buffer[] = [];
    for (let i = 0; i < wire.length && !decoder.finished; i += size) parts.push(...decoder.push(wire.subarray(i, i + size)));
    expect(Buffer.concat(parts).toString('utf8')).toBe(body);
    expect(decoder.finished).toBe(true);
  });

  it('refuses what is not chunked coding', () => {
    expect(() => new ChunkedDecoder().push(Buffer.from('zz\r\n'))).toThrow(/chunk size/);
    expect(() => new ChunkedDecoder().push(Buffer.from('2\r\nabXY'))).toThrow(/CR LF/);
  });
});

describe('a live stream read over a plain socket', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const listen = async (handler: http.RequestListener) => {
    server = http.createServer(handler);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  it("sends the request's path and headers, and hands on node:http's chunked answer byte for byte", async () => {
    let seen: http.IncomingHttpHeaders | undefined;
    let path: string | undefined;
    const port = await listen((req, res) => {
      seen = req.headers;
      path = req.url;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-upstream': 'a' });
      res.write('event: connected\ndata: {}\n\n');
      setTimeout(() => res.end('data: {"big":"' + 'x'.repeat(70_000) + '"}\n\n'), 20);
    });
    const got: Buffer[] = [];
    const result = await new Promise<{ status: number; headers: Record<string, string>; error?: string }>((resolve) => {
      let head: { status: number; headers: Record<string, string> };
      openEventStream(
        { host: '127.0.0.1', port, path: '/trpc/draft.changes?input=%7B%7D', headers: { accept: 'text/event-stream' } },
        {
          head: (status, headers) => {
            head = { status, headers };
            return (bytes) => got.push(Buffer.from(bytes));
          },
          end: (error) => resolve({ ...head, error }),
        },
      );
    });
    expect(path).toBe('/trpc/draft.changes?input=%7B%7D');
    expect(seen?.accept).toBe('text/event-stream');
    expect(result).toMatchObject({ status: 200, error: undefined, headers: { 'x-upstream': 'a', 'transfer-encoding': 'chunked' } });
    expect(Buffer.concat(got).toString('utf8')).toBe('event: connected\ndata: {}\n\ndata: {"big":"' + 'x'.repeat(70_000) + '"}\n\n');
  });

  it('gives a refusal its status, and an answer cut short an error', async () => {
    const port = await listen((req, res) => {
      if (req.url === '/refused') return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{}}');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n', () => res.destroy());
    });
    const open = (path: string) =>
      new Promise<{ status?: number; error?: string }>((resolve) => {
        let status: number | undefined;
        openEventStream(
          { host: '127.0.0.1', port, path, headers: {} },
          {
            head: (s) => {
              status = s;
              return s === 200 ? () => {} : undefined;
            },
            end: (error) => resolve({ status, error }),
          },
        );
      });
    expect(await open('/refused')).toEqual({ status: 401, error: undefined });
    expect(await open('/cut')).toEqual({ status: 200, error: 'connection closed' });
  });
});
