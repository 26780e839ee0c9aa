import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { chunkedBody, chunkOf } from '../src/wire/chunked-socket.js';
import { GzipStream } from '../src/wire/gzip-stream.js';
import zlib from 'node:zlib';

/** A server whose every response is written by `write` through chunkedBody, after its head went out. */
async function serve(write: (res: http.ServerResponse) => void) {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    write(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** The raw bytes a request gets back, until the connection closes or the body's last chunk came. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (Buffer.concat(chunks).toString('latin1').endsWith('\r\n0\r\n\r\n')) socket.end();
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('a live stream written straight to its socket', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('sends shared pieces and own text as the chunks http.ServerResponse would, byte for byte', async () => {
    const page = Buffer.from('data: {"kind":"standings_page","name":"Zoë"}\nid: 7\n\n');
    const writes = (out: { write(chunk: string | Buffer, encoding?: BufferEncoding): unknown; end(chunk?: string | Buffer): unknown }) => {
      out.write(page);
      out.write('data: {"me":"Łukasz ✓"}\nid: 7\n\n');
      out.write('');
      out.write('\u00e9t\u00e9', 'latin1');
      out.write(page);
      out.end('data: bye\n\n');
    };
    let direct = false;
    ({ server } = await serve((res) => {
      const body = chunkedBody(res);
      direct = body !== res;
      writes(body);
    }));
    const port = (server.address() as AddressInfo).port;
    const got = await raw(port, 'GET / HTTP/1.1\r\nhost: x\r\n\r\n');
    expect(direct).toBe(true);
    server.close();

    // The same writes through the response itself.
    ({ server } = await serve((res) => writes(res)));
    const expected = await raw((server.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nhost: x\r\n\r\n');
    const body = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);
    expect(body(got)).toBe(body(expected));
    expect(body(got)).toContain('Łukasz ✓');
  });

  it('frames a shared piece once for every stream', () => {
    const page = Buffer.from('data: {}\n\n');
    expect(chunkOf(page)).toBe(chunkOf(page));
    expect(chunkOf(page).toString()).toBe('a\r\ndata: {}\n\n\r\n');
  });

  it('stays a valid gzip stream under the compression of shared pieces', async () => {
    const page = Buffer.from('data: {"kind":"standings_page"}\nid: 3\n\n'.repeat(50));
    ({ server } = await serve((res) => {
      const gzip = new GzipStream(chunkedBody(res));
      gzip.write(page);
      gzip.write('data: {"own":"part"}\nid: 3\n\n');
      gzip.write(page);
      gzip.end();
    }));
    const port = (server.address() as AddressInfo).port;
    const decoded = await new Promise<string>((resolve, reject) => {
      http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(zlib.gunzipSync(Buffer.concat(chunks)).toString()));
      }).on('error', reject);
    });
    expect(decoded).toBe(`${page}data: {"own":"part"}\nid: 3\n\n${page}`);
  });

  it('leaves to the response what it frames otherwise: a HEAD request, an HTTP/1.0 client', async () => {
    const kinds: string[] = [];
    ({ server } = await serve((res) => {
      kinds.push(chunkedBody(res) === res ? 'response' : 'socket');
      res.end();
    }));
    const port = (server.address() as AddressInfo).port;
    await raw(port, 'HEAD / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    await raw(port, 'GET / HTTP/1.0\r\n\r\n');
    await raw(port, 'GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(kinds).toEqual(['response', 'response', 'socket']);
  });
});
