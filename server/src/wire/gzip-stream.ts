import zlib from 'node:zlib';
import type { ByteSink } from '../event-streams.js';

/*
 * The `gzip` piece (wire/switch.ts): a gzip response stream whose shared parts are compressed once for every
 * stream that sends them.
 *
 * After each pick the live fan-out sends the same 18 KB standings page to 5,000 streams, each with a few
 * hundred bytes of its own around it. Compressing every stream with its own zlib state would cost as much
 * CPU as the fan-out itself; sending it uncompressed is 90 MB per pick per instance, most of the fan-out's
 * time in the kernel and more than a gigabit link carries in a second. Deflate allows both at once: a piece
 * compressed on its own, ending on a byte boundary (a sync flush) and not final, can be spliced into any
 * deflate stream. So a shared piece (a Buffer: the page, a change frame, a ping) is compressed once and its
 * compressed bytes are written to every stream, and a stream's own text (a string) goes as a stored block
 * beside it. The gzip trailer's CRC-32 is kept per stream by combining the shared pieces' CRCs
 * (zlib's crc32_combine), so the stream stays valid gzip to its end.
 */

/** A piece compressed once: its deflate blocks, and its CRC-32 and length for each stream's trailer. */
interface DeflatedPiece {
  blocks: Buffer;
  crc: number;
  /** x^(8·length) modulo the CRC polynomial: what combines it into a stream's CRC. */
  shift: number;
  length: number;
}

const POLY = 0xedb88320;

/** a·b modulo the CRC-32 polynomial, both in zlib's reflected bit order (zlib's multmodp). */
function multModP(a: number, b: number): number {
  let p = 0;
  for (let m = 0x80000000; ; m >>>= 1) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0…31. */
const X2N: number[] = [0x40000000];
for (let k = 1; k < 32; k++) X2N.push(multModP(X2N[k - 1]!, X2N[k - 1]!));

/** x^(8·bytes) modulo the polynomial (zlib's x2nmodp(bytes, 3)). */
function shiftFor(bytes: number): number {
  let p = 0x80000000;
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) if (n % 2) p = multModP(X2N[k & 31]!, p);
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's shift (zlib's crc32_combine). */
const crc32Combine = (crcA: number, crcB: number, shiftB: number) => (multModP(shiftB, crcA) ^ crcB) >>> 0;

const deflatedPieces = new WeakMap<Buffer, DeflatedPiece>();

/** Compressed on its own: no reference outside it, ends on a byte boundary, not the final block. */
function deflate(bytes: Buffer): DeflatedPiece {
  const blocks = zlib.deflateRawSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { blocks, crc: zlib.crc32(bytes), shift: shiftFor(bytes.length), length: bytes.length };
}

function deflatedOf(shared: Buffer): DeflatedPiece {
  let piece = deflatedPieces.get(shared);
  if (!piece) deflatedPieces.set(shared, (piece = deflate(shared)));
  return piece;
}

/** gzip member header: deflate, no name, no time, unknown OS. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** Longer own text is compressed (once, for this stream) rather than stored. */
const STORE_MAX = 1024;

/**
 * One response's gzip stream, written as the plain stream would be: a Buffer is a shared piece (compressed
 * once, remembered by the buffer itself, so it must not change), a string is this stream's own.
 *
 * What is written while corked (a change, the reader's own part and the page after a pick) goes out at
 * `uncork` as one write, so one HTTP chunk: each write of a response is a chunk of its own, and a client
 * decodes chunk by chunk (node:http hands its gunzip each chunk; zlib streams work each write on the
 * thread pool). Four chunks a pick cost the browser-like clients of `npm run bench:draft -- --kinds browser`
 * about twice the decoding CPU and the server four times the chunk framing (docs/benchmarks.md).
 */
export class GzipStream implements ByteSink {
  private crc = 0;
  private length = 0;
  private corked = 0;
  /** While corked: the pieces to write at `uncork`, as one. */
  private pieces: Buffer[] = [];

  constructor(private readonly out: ByteSink) {
    out.write(HEADER);
  }

  cork() {
    this.corked += 1;
    this.out.cork();
  }

  uncork() {
    if (this.corked > 0 && --this.corked === 0 && this.pieces.length > 0) {
      const pieces = this.pieces;
      this.pieces = [];
      this.out.write(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
    }
    this.out.uncork();
  }

  write(chunk: string | Buffer): boolean {
    if (typeof chunk === 'string') {
      const size = Buffer.byteLength(chunk);
      if (size <= STORE_MAX) return this.stored(chunk, size);
      return this.deflated(deflate(Buffer.from(chunk)));
    }
    return this.deflated(deflatedOf(chunk));
  }

  /** The final (empty) block and the trailer: CRC-32 and length of everything written. */
  end(chunk?: string | Buffer) {
    if (chunk !== undefined) this.write(chunk);
    // Ended while corked: what waits goes first.
    if (this.pieces.length > 0) this.out.write(Buffer.concat(this.pieces.splice(0)));
    this.corked = 0;
    const trailer = Buffer.alloc(13);
    trailer.set([1, 0, 0, 0xff, 0xff]);
    trailer.writeUInt32LE(this.crc, 5);
    trailer.writeUInt32LE(this.length >>> 0, 9);
    return this.out.end(trailer);
  }

  private deflated(piece: DeflatedPiece): boolean {
    this.crc = crc32Combine(this.crc, piece.crc, piece.shift);
    this.length += piece.length;
    return this.send(piece.blocks);
  }

  /** Out now, or at `uncork` with the rest. */
  private send(bytes: Buffer): boolean {
    if (this.corked === 0) return this.out.write(bytes);
    this.pieces.push(bytes);
    return true;
  }

  /**
   * Own text as a stored block (byte-aligned here: every piece ends on a byte boundary). Its 5-byte header
   * and the text go out as strings, not a new Buffer: thousands of small buffers per pick are memory
   * outside V8's heap, and enough of it makes V8 collect the whole heap.
   */
  private stored(text: string, size: number): boolean {
    this.crc = zlib.crc32(text, this.crc);
    this.length += size;
    const header = String.fromCharCode(0, size & 0xff, size >>> 8, ~size & 0xff, (~size >>> 8) & 0xff);
    if (this.corked > 0) {
      // Corked, it joins the write at `uncork`: a small buffer (from Node's shared pool, under 4 KB).
      const block = Buffer.allocUnsafe(5 + size);
      block.write(header, 0, 'latin1');
      block.write(text, 5, 'utf8');
      return this.send(block);
    }
    this.out.write(header, 'latin1');
    return this.out.write(text);
  }
}
