// The yardstick for the live part of `npm run bench:draft`: a plain Fastify process that holds the same
// 5,000 event streams and, at each "pick", writes every one of them the very bytes the game's stream
// wrote one client at a pick of the same run (the change, the reader's own part and the page, as captured
// by the load generator), with nothing else in the way: no auth, no database, no ranking, no logging. The
// same load generator measures it the same way, so the game's figure per pick can be set beside the
// machine's own floor for that many sockets and bytes, the first pick after the streams connect included.
//
// Reads `{ "connected": "...", "pick": "<base64>" }` from the file named by argv[2], prints
// `listening <port>` once it can be measured. Routes: the stream (`GET /trpc/draft.changes`: the
// `connected` frame, then the pick's bytes once, as the game sends a new stream its page at once), the
// page's first load (`GET /trpc/leaderboard.group`: a fixed answer, not measured) and the operator's call
// (`POST /pick`: answered, then every stream written in one loop, each corked, as the game does).
import fs from 'node:fs';
import Fastify from 'fastify';

const { connected, pick } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const pickBytes = Buffer.from(pick, 'base64');
const streams = new Set();
const app = Fastify({ logger: false });

app.get('/trpc/draft.changes', (_req, reply) => {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' });
  res.cork();
  res.write(connected);
  res.write(pickBytes);
  res.uncork();
  streams.add(res);
  res.on('close', () => streams.delete(res));
});

app.get('/trpc/leaderboard.group', (_req, reply) => reply.header('etag', '"plain"').send({ result: { data: null } }));

app.post('/pick', (_req, reply) => {
  reply.send({ streams: streams.size });
  setImmediate(() => {
    for (const res of streams) {
      res.cork();
      res.write(pickBytes);
      res.uncork();
    }
  });
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${app.server.address().port}`);
process.on('SIGTERM', () => {
  for (const res of streams) res.destroy();
  app.close().then(() => process.exit(0));
});
