import type { ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { ByteSink } from '../event-streams.js';

/*
 * The `chunks` piece (wire/switch.ts): a long-lived chunked response written straight to its socket, each shared piece framed as a chunk once
 * for every stream that sends it.
 *
 * After each pick the live fan-out writes the same page to 5,000 streams. Through http.ServerResponse each
 * write is framed again for its stream (a size line, the bytes, a CR LF: three buffers for the socket, and
 * Node's bookkeeping for each), so a stream's three messages per pick became nine pieces of one writev. Here
 * a shared Buffer (a page, a change, a ping, a compressed piece) is framed once, remembered by the buffer
 * itself, and a stream's own text is framed as one string: three pieces, the same bytes on the wire. In a
 * plain Node pair writing one page, one change and one own part to 5,000 streams, that took the loop from
 * ~130 ms to ~85 ms (docs/benchmarks.md).
 */

const framed = new WeakMap<Buffer, Buffer>();
const CRLF = Buffer.from('\r\n');

/** `bytes` as one chunk of a chunked body (RFC 9112, 7.1): its size in hex, CR LF, the bytes, CR LF. */
export function chunkOf(bytes: Buffer): Buffer {
  let chunk = framed.get(bytes);
  if (!chunk) framed.set(bytes, (chunk = Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`, 'latin1'), bytes, CRLF])));
  return chunk;
}

/**
 * Whether Node frames `res`'s body in chunks: an HTTP/1.1 request other than HEAD, whose answer names no
 * length (HTTP/1.0 may ask for chunks too; such a client is left to the response, as a HEAD request is).
 */
function isChunked(res: ServerResponse): boolean {
  const { req } = res;
  return req.method !== 'HEAD' && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && !res.hasHeader('content-length');
}

/**
 * Where a live stream writes `res`'s body: straight to its socket when the response holds a real one (a
 * response waiting behind another on a pipelined connection has none yet: Node gives it its socket when
 * the one before it has finished), its head has gone out and its body is chunked; otherwise (a HEAD
 * request, an HTTP/1.0 client, a response injected in tests without a socket) the response itself. Ending
 * goes through the response (its last chunk).
 */
export function chunkedBody(res: ServerResponse): ByteSink {
  const { socket } = res;
  if (!(socket instanceof Socket) || !res.headersSent || !isChunked(res)) return res;
  return {
    cork: () => socket.cork(),
    uncork: () => socket.uncork(),
    write: (chunk, encoding = 'utf8') => {
      if (typeof chunk !== 'string') return socket.write(chunkOf(chunk));
      const size = Buffer.byteLength(chunk, encoding);
      // An empty chunk would end the body.
      return size === 0 || socket.write(`${size.toString(16)}\r\n${chunk}\r\n`, encoding);
    },
    end: (chunk) => res.end(chunk),
  };
}
