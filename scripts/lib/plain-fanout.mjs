// The yardstick for the live part of `npm run bench:draft`: a plain Fastify process that holds the same
// 5,000 event streams and, at each "pick", writes every one of them the very bytes the game's stream
// wrote one client at a pick of the same run (the change, the reader's own part and the page, as captured
// by the load generator), with nothing else in the way: no auth, no database, no ranking, no logging. The
// same load generator measures it the same way, so the game's figure per pick can be set beside the
// machine's own floor for that many sockets and bytes, the first pick after the streams connect included.
//
// A client that accepts gzip gets, when the game's stream was compressed, the very bytes the game put on the
// wire at that pick (`gzipPick`: deflate pieces, each flushed to a byte boundary, so they follow any gzip
// stream's own), written after a gzip header and the `connected` frame compressed: the same decoding work for
// the client, in one write per pick.
//
// Reads `{ "connected": "...", "pick": "<base64>", "gzipPick"?: "<base64>" }` from the file named by argv[2], prints
// `listening <port>` once it can be measured. Routes: the stream (`GET /trpc/draft.changes`: the
// `connected` frame, then the pick's bytes once, as the game sends a new stream its page at once), the
// page's first load (`GET /trpc/leaderboard.group`: a fixed answer, not measured) and the operator's call
// (`POST /pick`: answered, then every stream written in one loop, each corked, as the game does).
import fs from 'node:fs';
import zlib from 'node:zlib';
import Fastify from 'fastify';

const { connected, pick, gzipPick } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const pickBytes = Buffer.from(pick, 'base64');
const gzipPickBytes = gzipPick ? Buffer.from(gzipPick, 'base64') : undefined;
/** A gzip header (deflate, no name, no time, unknown OS), then `connected` as deflate pieces flushed to a byte boundary. */
const gzipConnected = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]), zlib.deflateRawSync(connected, { finishFlush: zlib.constants.Z_SYNC_FLUSH })]);
const gzipStreams = new Set();
const streams = new Set();
const app = Fastify({ logger: false });

app.get('/trpc/draft.changes', (req, reply) => {
  reply.hijack();
  const res = reply.raw;
  const gzip = gzipPickBytes !== undefined && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
  res.cork();
  res.write(gzip ? gzipConnected : connected);
  res.write(gzip ? gzipPickBytes : pickBytes);
  res.uncork();
  (gzip ? gzipStreams : streams).add(res);
  res.on('close', () => (gzip ? gzipStreams : streams).delete(res));
});

app.get('/trpc/leaderboard.group', (_req, reply) => reply.header('etag', '"plain"').send({ result: { data: null } }));

app.post('/pick', (_req, reply) => {
  reply.send({ streams: streams.size + gzipStreams.size });
  setImmediate(() => {
    for (const res of streams) {
      res.cork();
      res.write(pickBytes);
      res.uncork();
    }
    for (const res of gzipStreams) {
      res.cork();
      res.write(gzipPickBytes);
      res.uncork();
    }
  });
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${app.server.address().port}`);
process.on('SIGTERM', () => {
  for (const res of [...streams, ...gzipStreams]) res.destroy();
  app.close().then(() => process.exit(0));
});
