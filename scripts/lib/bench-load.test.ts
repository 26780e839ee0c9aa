import fs from 'node:fs/promises';
import type net from 'node:net';
import zlib from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONNECTED } from '../../server/src/wire/sse-frames.js';
import { GzipStream } from '../../server/src/wire/gzip-stream.js';
import { startPlainFanOut, type Cleanups } from './bench-load.js';
import { openEventStream } from './event-stream-client.js';

describe("the draft-night bench's plain fan-out yardstick", () => {
  const cleanups: Cleanups = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  // A pick's bytes as one client's stream brought them: the change, the reader's own part, the page.
  const pickBytes = Buffer.from(
    'data: {"kind":"pick","event_id":7}\nid: 7\n\n\ndata: {"kind":"standings_me","event_id":7}\nid: 7\n\n\n' +
      `data: {"kind":"standings_page","event_id":7,"rows":"${'r'.repeat(20_000)}"}\nid: 7\n\n\n`,
  );

  /** A stream opened as the load generator opens one; `received()` is everything its body brought so far. */
  const open = (base: string, headers: Record<string, string> = {}) => {
    const url = new URL(base);
    const parts: Buffer[] = [];
    let socket: net.Socket | undefined;
    const opened = new Promise<number>((resolve, reject) => {
      socket = openEventStream(
        { host: url.hostname, port: Number(url.port), path: '/trpc/draft.changes?input=%7B%7D', headers: { accept: 'text/event-stream', ...headers } },
        {
          head: (status) => {
            resolve(status);
            return (bytes) => parts.push(Buffer.from(bytes));
          },
          end: (error) => reject(new Error(error ?? 'ended')),
        },
      );
    });
    return { opened, received: () => Buffer.concat(parts), close: () => socket!.destroy() };
  };

  const until = async (check: () => boolean) => {
    for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it('opens each stream with the connected frame and the pick, then sends every stream the same bytes at each pick', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plain-fanout-'));
    const plain = await startPlainFanOut(dir, pickBytes, cleanups);
    const streams = [open(plain.base), open(plain.base)];
    expect(await Promise.all(streams.map((s) => s.opened))).toEqual([200, 200]);
    const opening = Buffer.concat([Buffer.from(CONNECTED), pickBytes]);
    await until(() => streams.every((s) => s.received().length === opening.length));
    for (const s of streams) expect(s.received().equals(opening)).toBe(true);

    for (const pick of [1, 2]) {
      const answer = await fetch(`${plain.base}/pick`, { method: 'POST' });
      expect(await answer.json()).toEqual({ streams: 2 });
      const expected = Buffer.concat([opening, ...Array.from({ length: pick }, () => pickBytes)]);
      await until(() => streams.every((s) => s.received().length === expected.length));
      for (const s of streams) expect(s.received().equals(expected)).toBe(true);
    }

    // A page's first load is answered (not measured), so the clients set up as they do against the game.
    const read = await fetch(`${plain.base}/trpc/leaderboard.group?input=%7B%7D`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBeTruthy();
    streams.forEach((s) => s.close());
    await plain.stop();
  });

  it("sends a client that accepts gzip the game's compressed bytes of a pick, after a gzip header and the connected frame: it decodes them to the pick", async () => {
    // The pick's bytes as the game's gzip stream put them on the wire (without the stream's own header).
    const wire: Buffer[] = [];
    const game = new GzipStream({ cork() {}, uncork() {}, write: (chunk) => wire.push(Buffer.from(chunk)) > 0, end() {} });
    wire.length = 0;
    game.write(pickBytes);
    const gzipPick = Buffer.concat(wire);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'plain-fanout-'));
    const plain = await startPlainFanOut(dir, pickBytes, cleanups, [], gzipPick);
    const [zipped, bare] = [open(plain.base, { 'accept-encoding': 'gzip, deflate, br, zstd' }), open(plain.base)];
    await Promise.all([zipped.opened, bare.opened]);
    const decoded = () => zlib.gunzipSync(zipped.received(), { finishFlush: zlib.constants.Z_SYNC_FLUSH }).toString('latin1');
    const opening = Buffer.concat([Buffer.from(CONNECTED), pickBytes]).toString('latin1');
    await until(() => zipped.received().length > 0 && decoded() === opening);
    await fetch(`${plain.base}/pick`, { method: 'POST' });
    await until(() => decoded() === opening + pickBytes.toString('latin1'));
    // On the wire: the compressed pick, once per pick.
    expect(zipped.received().subarray(-gzipPick.length).equals(gzipPick)).toBe(true);
    // A client that does not accept gzip gets the bytes as they are.
    await until(() => bare.received().equals(Buffer.concat([Buffer.from(CONNECTED), pickBytes, pickBytes])));
    zipped.close();
    bare.close();
    await plain.stop();
  });
});
