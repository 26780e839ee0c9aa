/**
 * Serves a results feed replaying a real round one at its pace, for rehearsing the feed without the
 * network: `npm run feed:fixture -- 2025 [--interval SECONDS] [--kind generic|espn] [--port 4100]`, then
 * start the server with FEED_URL=http://127.0.0.1:4100/ (and FEED_KIND to match) and start the draft.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureFeed, picksMadeAt, REAL_2025_SECONDS_PER_PICK, type FixtureKind, type RoundOnePick } from './lib/fixture-feed.js';

const USAGE = 'Usage: npm run feed:fixture -- 2025 [--interval SECONDS] [--kind generic|espn] [--port 4100]';

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

const args = process.argv.slice(2);
const season = args[0];
if (!season || !/^\d{4}$/.test(season)) {
  console.error(USAGE);
  process.exit(1);
}
const file = path.join(path.dirname(fileURLToPath(import.meta.url)), `../shared/data/round-one-${season}.json`);
if (!fs.existsSync(file)) {
  console.error(`No round-one data for ${season} (${path.relative(process.cwd(), file)})`);
  process.exit(1);
}
const picks = (JSON.parse(fs.readFileSync(file, 'utf8')) as { picks: RoundOnePick[] }).picks;
const interval = Number(option(args, 'interval') ?? REAL_2025_SECONDS_PER_PICK);
const kind = (option(args, 'kind') ?? 'generic') as FixtureKind;
const port = Number(option(args, 'port') ?? 4100);
if (!(interval > 0) || !['generic', 'espn'].includes(kind) || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(USAGE);
  process.exit(1);
}

const started = Date.now();
let announced = 0;
const server = http.createServer((_req, res) => {
  const made = picksMadeAt(picks.length, Date.now() - started, interval * 1000);
  if (made !== announced) {
    announced = made;
    const last = [...picks].sort((a, b) => a.slot - b.slot)[made - 1];
    if (last) console.log(`Feed now shows ${made} pick(s); latest: ${last.slot}. ${last.player_name}, ${last.school}`);
  }
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(fixtureFeed(picks, made, kind)));
});
server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address() as { port: number };
  console.log(`Serving the ${season} round one as a ${kind} feed at http://127.0.0.1:${bound}/, one pick every ${interval} s (Ctrl-C stops)`);
  console.log(`Start the server with FEED_URL=http://127.0.0.1:${bound}/ FEED_KIND=${kind}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
