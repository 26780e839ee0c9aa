// The yardstick for `npm run bench:reads`: a plain Fastify process that serves fixed bytes, the very bytes
// the game answered for each measured route, with nothing else in the way (no auth, no database, no
// logging). Reads `{ "/path": { "type": "...", "body": "..." } }` from the file named by argv[2] and prints
// `listening <port>` once it can be measured.
import fs from 'node:fs';
import Fastify from 'fastify';

const routes = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const app = Fastify({ logger: false });
for (const [url, { type, body }] of Object.entries(routes)) {
  const bytes = Buffer.from(body);
  app.get(url, (_req, reply) => reply.type(type).send(bytes));
}
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${app.server.address().port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
