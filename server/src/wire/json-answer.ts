import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { closesConnection } from '../draining.js';
import { bytesOf, etagMatches, jsonText, type JsonBody } from '../responses/json-body.js';
import { ALL_FAST_PATHS, type FastPaths } from './switch.js';

/**
 * A read's answer with its ETag: `304 Not Modified` when the client already holds these bytes. `private,
 * no-cache`: a browser may keep it but must ask each time (the answer depends on who asks and on the
 * draft), and shared caches must not keep it at all.
 */
export function sendRead(request: FastifyRequest, reply: FastifyReply, body: JsonBody, pieces: FastPaths = ALL_FAST_PATHS) {
  // Added to what is there: CORS has already said the answer varies by Origin.
  const vary = reply.getHeader('vary');
  reply.header('etag', body.etag).header('cache-control', 'private, no-cache').header('vary', vary ? `${String(vary)}, authorization` : 'authorization');
  if (etagMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  if (pieces.has('reply')) return writeAnswer(reply, body);
  return reply.type('application/json; charset=utf-8').send(jsonText(body));
}

/**
 * The `reply` piece (wire/switch.ts): a 200 answer written to the socket as its pieces, in one write: the headers, the caller's own text and
 * the shared page's bytes as they are. Through `reply.send` it had to be one string or one buffer: the
 * 18 KB page copied into a new string per read, copied again behind the headers and encoded on the way
 * out cost ~10 µs of a read's ~100, and a new buffer per read is worse (see writeJson). The reply is
 * hijacked for this: Fastify's onResponse hooks (request logging) still run, its onSend hooks do not,
 * so what the one onSend hook does (close the connection while the server drains, draining.ts) is done here.
 */
function writeAnswer(reply: FastifyReply, body: JsonBody) {
  const headers = reply.getHeaders() as OutgoingHttpHeaders; // a copy
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = byteLengthOf(body);
  if (closesConnection(reply)) headers.connection = 'close';
  reply.hijack();
  const res = reply.raw;
  res.writeHead(reply.statusCode, headers);
  res.cork();
  writePieces(res, body);
  // end() uncorks: headers, pieces and the end of the answer leave in one write.
  res.end();
  return reply;
}

/** The body's pieces in order, the text between shared pieces joined (the caller corks around it). */
function writePieces(out: { write(chunk: string | Buffer): unknown }, body: JsonBody): void {
  let text = '';
  for (const p of body.pieces) {
    if (typeof p === 'string') text += p;
    else {
      if (text) out.write(text);
      text = '';
      out.write(bytesOf(p));
    }
  }
  if (text) out.write(text);
}

/** The body's length in bytes, for Content-Length. */
function byteLengthOf(body: JsonBody): number {
  let length = 0;
  for (const p of body.pieces) length += typeof p === 'string' ? Buffer.byteLength(p) : bytesOf(p).length;
  return length;
}
