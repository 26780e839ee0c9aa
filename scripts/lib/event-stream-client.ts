// The load generator's HTTP/1.1 client for a live stream (bench-draft-clients.ts): one GET on its own
// connection, as a browser's EventSource opens it, and the response body handed on as the bytes come.
// Written on a plain socket rather than node:http because 5,000 such clients share the two cores the server
// needs: node:http's parser and two layers of streams per read cost the generator ~0.08 ms per page and
// client (~190 ms of each client thread's CPU per pick), which the server then waited for
// (docs/benchmarks.md). wrk and autocannon read responses their
// own way for the same reason. Only what a stream's answer uses is read: a status line and headers, then a
// chunked body (the server's and nginx's for an event stream to an HTTP/1.1 client); a refusal's body is
// not read.
import net from 'node:net';

export interface StreamRequest {
  host: string;
  port: number;
  path: string;
  headers: Record<string, string>;
}

export interface StreamHandlers {
  /**
   * The response's status and headers (names in lower case): answers where the body's bytes go, or
   * undefined to close the connection (a refusal).
   */
  head(status: number, headers: Record<string, string>): ((bytes: Buffer) => void) | undefined;
  /** The response ended (its last chunk) or failed (the connection closed first, a body not chunked); called once. */
  end(error?: string): void;
}

const CRLF_CRLF = Buffer.from('\r\n\r\n');

/** Opens the stream; destroy the socket to leave it. */
export function openEventStream(request: StreamRequest, handlers: StreamHandlers): net.Socket {
  const socket = net.connect(request.port, request.host);
  socket.setNoDelay(true);
  let ended = false;
  const end = (error?: string) => {
    if (ended) return;
    ended = true;
    handlers.end(error);
    socket.destroy();
  };
  const head = [`GET ${request.path} HTTP/1.1`, `host: ${request.host}:${request.port}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`), '', ''];
  socket.write(head.join('\r\n'));

  let pending: Buffer | undefined;
  let body: ((bytes: Buffer) => void) | undefined;
  let decoder: ChunkedDecoder | undefined;
  socket.on('data', (chunk: Buffer) => {
    if (ended) return;
    if (!decoder) {
      const bytes = pending ? Buffer.concat([pending, chunk]) : chunk;
      const at = bytes.indexOf(CRLF_CRLF);
      if (at < 0) {
        pending = Buffer.from(bytes);
        return;
      }
      pending = undefined;
      const response = parseHead(bytes.toString('latin1', 0, at));
      if (!response) return end('unreadable response head');
      body = handlers.head(response.status, response.headers);
      if (!body) return end();
      if (!/chunked/i.test(response.headers['transfer-encoding'] ?? '')) return end('a stream whose body is not chunked');
      decoder = new ChunkedDecoder();
      chunk = bytes.subarray(at + CRLF_CRLF.length);
    }
    try {
      for (const part of decoder.push(chunk)) body!(part);
    } catch (error) {
      return end((error as Error).message);
    }
    if (decoder.finished) end();
  });
  socket.on('error', (error) => end(error.message));
  socket.on('close', () => end('connection closed'));
  return socket;
}

function parseHead(text: string): { status: number; headers: Record<string, string> } | undefined {
  const [statusLine, ...lines] = text.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(status[1]), headers };
}

const CR = 13;
const LF = 10;

/** A body in HTTP/1.1's chunked transfer coding (RFC 9112, 7.1), decoded as it comes, whatever the reads' sizes. */
export class ChunkedDecoder {
  /** The last chunk came: the body is complete. */
  finished = false;
  /** Where the decoder is: a size line, a chunk's data (`left` bytes of it to come), or the CR LF after it. */
  private state: 'size' | 'data' | 'crlf' = 'size';
  private left = 0;
  /** A size line split between reads. */
  private line = '';

  /** The body's bytes in `bytes` (views of it). */
  push(bytes: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < bytes.length && !this.finished) {
      if (this.state === 'data') {
        const n = Math.min(this.left, bytes.length - i);
        out.push(bytes.subarray(i, i + n));
        i += n;
        this.left -= n;
        if (this.left === 0) {
          this.state = 'crlf';
          this.left = 2;
        }
      } else if (this.state === 'crlf') {
        if (bytes[i] !== (this.left === 2 ? CR : LF)) throw new Error('a chunk without its CR LF');
        i++;
        if (--this.left === 0) this.state = 'size';
      } else {
        const lf = bytes.indexOf(LF, i);
        if (lf < 0) {
          this.line += bytes.toString('latin1', i);
          break;
        }
        // Hex digits, then perhaps `;extensions`, then CR LF.
        const line = this.line + bytes.toString('latin1', i, lf);
        this.line = '';
        i = lf + 1;
        const size = /^[0-9a-fA-F]+/.exec(line);
        if (!size) throw new Error(`a chunk size line that is not one: ${JSON.stringify(line.slice(0, 40))}`);
        this.left = parseInt(size[0], 16);
        // The last chunk: trailers and the final CR LF are not waited for (the stream is over).
        if (this.left === 0) this.finished = true;
        else this.state = 'data';
      }
    }
    return out;
  }
}
