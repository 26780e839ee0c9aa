import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipStream } from '../src/wire/gzip-stream.js';
import { acceptsGzip } from '../src/event-streams.js';

/** What a GzipStream writes to its response, chunk by chunk. */
function capture() {
  const chunks: Buffer[] = [];
  let ended = false;
  const sink = {
    cork() {},
    uncork() {},
    write: (chunk: string | Buffer, encoding?: BufferEncoding) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk) > 0,
    end: (chunk?: string | Buffer) => {
      if (chunk !== undefined) chunks.push(Buffer.from(chunk));
      ended = true;
    },
  };
  return { sink, bytes: () => Buffer.concat(chunks), ended: () => ended };
}

/** What a browser has decoded so far from a gzip stream that has not ended. */
const decodedSoFar = (bytes: Buffer) => zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('utf8');

describe('a gzip stream with shared pieces compressed once', () => {
  const page = Buffer.from(JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ rank: i + 1, participant_name: `Entry ${i} · Zoë 🏈` }))));
  const change = Buffer.from('data: {"kind":"pick","event_id":7}\nid: 7\n\n\n');

  it('decodes to exactly what was written, each frame as soon as it is written, and ends as valid gzip', () => {
    const out = capture();
    const stream = new GzipStream(out.sink);
    const frames: (string | Buffer)[][] = [
      ['event: connected\ndata: {}\n\n'],
      [change],
      ['data: {"kind":"standings","leaderboard":{"rankings":', page, ',"me":{"participant_name":"李雷"}}}\nid: 7\n\n\n'],
      ['x'.repeat(5000)],
      [''],
    ];
    let expected = '';
    for (const frame of frames) {
      for (const piece of frame) stream.write(piece);
      expected += frame.map(String).join('');
      expect(decodedSoFar(out.bytes())).toBe(expected);
    }
    stream.end();
    expect(out.ended()).toBe(true);
    // gunzip checks the trailer: the CRC-32 (combined from the shared pieces' own) and the length.
    expect(zlib.gunzipSync(out.bytes()).toString('utf8')).toBe(expected);
  });

  it('sends a shared piece as the same compressed bytes to every stream, much smaller than the piece', () => {
    const [a, b] = [capture(), capture()];
    const [first, second] = [new GzipStream(a.sink), new GzipStream(b.sink)];
    first.write('mine');
    const before = a.bytes().length;
    first.write(page);
    second.write(page);
    const compressed = a.bytes().subarray(before);
    expect(b.bytes().subarray(b.bytes().length - compressed.length)).toEqual(compressed);
    expect(compressed.length).toBeLessThan(page.length / 4);
    second.end('theirs');
    expect(zlib.gunzipSync(b.bytes()).toString('utf8')).toBe(`${page}theirs`);
  });

  it.each([
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['GZIP', true],
    ['*', true],
    ['gzip;q=0', false],
    ['br, deflate', false],
    ['identity', false],
    ['', false],
  ])('Accept-Encoding %j accepts gzip: %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });

  it('sends what is written while corked as one write (one HTTP chunk: a client decodes a pick in one go), the same bytes decoded', () => {
    const writes: Buffer[] = [];
    const sink = { cork() {}, uncork() {}, write: (chunk: string | Buffer, encoding?: BufferEncoding) => writes.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk) > 0, end() {} };
    const stream = new GzipStream(sink);
    const head = writes.length;
    stream.cork();
    stream.write(change);
    stream.write('data: {"kind":"standings_me","me":"Zoë"}\nid: 7\n\n\n');
    stream.write(page);
    expect(writes.length).toBe(head);
    stream.uncork();
    expect(writes.length).toBe(head + 1);
    const text = `${change.toString()}data: {"kind":"standings_me","me":"Zoë"}\nid: 7\n\n\n${page.toString()}`;
    expect(decodedSoFar(Buffer.concat(writes))).toBe(text);
    // Uncorked, each write goes at once.
    stream.write(change);
    expect(writes.length).toBe(head + 2);
    expect(decodedSoFar(Buffer.concat(writes))).toBe(text + change.toString());
  });
});

describe('a gzip stream with shared pieces over real HTTP', () => {
  it("decodes with a client's gunzip to what was written, through http.ServerResponse's chunks", async () => {
    const page = Buffer.from('data: {"kind":"standings_page"}\nid: 3\n\n'.repeat(50));
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = new GzipStream(res);
      gzip.write(page);
      gzip.write('data: {"own":"part"}\nid: 3\n\n');
      gzip.write(page);
      gzip.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const decoded = await new Promise<string>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/' }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(zlib.gunzipSync(Buffer.concat(chunks)).toString()));
        }).on('error', reject);
      });
      expect(decoded).toBe(`${page}data: {"own":"part"}\nid: 3\n\n${page}`);
    } finally {
      server.close();
    }
  });
});
