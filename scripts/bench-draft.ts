// `npm run bench:draft`: draft night at scale on a throwaway embedded PostgreSQL. Builds 100,000 entries
// (~1.6 million picks) across 5,000 groups, then measures what players feel while picks are recorded:
// pick → refreshed standings, pick → 1,000 SSE subscribers, and leaderboard reads under 50 concurrent
// readers beside a plain Fastify JSON route. Writes the figures to docs/benchmarks.md.
// Options: --participants N (default 60000), --groups N (5000), --members N (8 per group),
//          --subscribers N (1000), --picks N (8 recorded picks), --seconds N (10 per read test), --no-write
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { EventSource } from 'eventsource';
import Fastify from 'fastify';
import pg from 'pg';
import { loadConfig } from '../server/src/config.js';
import { startEmbeddedPostgres, withDatabase } from '../server/src/db/embedded-postgres.js';
import { ensureDatabaseExists, migrate, openOrm } from '../server/src/db/orm.js';
import { createDeps } from '../server/src/deps.js';
import { buildApp } from '../server/src/app.js';
import { seedDefaultBoard } from '../server/src/modules/players/board.service.js';
import { recordPick, startDraft } from '../server/src/modules/draft/draft.service.js';
import { signSessionToken } from '../server/src/modules/auth/local-idp.service.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const PARTICIPANTS = opt('participants', 60_000);
const GROUPS = opt('groups', 5_000);
const MEMBERS = opt('members', 8);
const SUBSCRIBERS = opt('subscribers', 1_000);
const RECORDED = opt('picks', 8);
const SECONDS = opt('seconds', 10);
const WRITE = !args.includes('--no-write');

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const log = (line: string) => console.log(line);

async function timed<T>(label: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

/** 50 keep-alive clients hammering one URL for `seconds`; per-request latencies. */
async function readLoad(url: string, concurrency: number, seconds: number, headers: Record<string, string> = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) latencies.push(performance.now() - t0);
          else errors++;
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

async function main() {
  log(`First Round draft-night benchmark: ${PARTICIPANTS} participants, ${GROUPS} groups × ${MEMBERS} members, ${SUBSCRIBERS} subscribers`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-bench-'));
  await fs.chmod(dir, 0o755);
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { durable: false });
  const url = withDatabase(cluster.serverUrl, 'bench');
  const cleanups: (() => Promise<unknown>)[] = [async () => cluster.stop(), async () => fs.rm(dir, { recursive: true, force: true })];
  try {
    await ensureDatabaseExists(url);
    const orm = await openOrm(url, 20);
    cleanups.unshift(async () => orm.close(true));
    await migrate(orm);
    await seedDefaultBoard(orm.em.fork());
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.unshift(async () => db.end());

    log('Building entries…');
    await timed('participants', () =>
      db.query(`insert into participant (id, screen_name) select 'user_bench' || n, 'Bench ' || n from generate_series(1, $1) n`, [PARTICIPANTS]),
    );
    // Global entries: 8–32 picks each, drawn mostly from the top of the board as real players would.
    await timed('global picks', () =>
      db.query(`insert into pick (participant_id, group_id, player_id)
                select p.id, 1, c.id from participant p
                cross join lateral (
                  select pl.id from player pl where pl.rank <= 90
                   order by md5(p.id || pl.id::text) limit 8 + abs(hashtext(p.id)) % 25) c`),
    );
    await timed('groups and memberships', async () => {
      // Distinct random 8-digit ids, as the game gives every group (never a count).
      await db.query(
        `insert into groups (id, name, is_public)
         select id, 'Bench group ' || n, n % 10 = 0
           from (select id, row_number() over (order by random()) as n
                   from (select distinct 10000000 + floor(random() * 90000000)::int as id from generate_series(1, $1 * 2)) ids) r
          where n <= $1`,
        [GROUPS],
      );
      await db.query(
        `insert into group_membership (group_id, participant_id, is_owner, use_global_picks)
         select g.id, 'user_bench' || (1 + ((g.id::bigint * 7919 + m * 104729) % $2)), m = 0, m % 2 = 0
           from groups g cross join generate_series(0, $1 - 1) m where g.id <> 1
         on conflict do nothing`,
        [MEMBERS, PARTICIPANTS],
      );
    });
    await timed('group picks', () =>
      db.query(`insert into pick (participant_id, group_id, player_id)
                select m.participant_id, m.group_id, c.id from group_membership m
                cross join lateral (
                  select pl.id from player pl where pl.rank <= 90
                   order by md5(m.participant_id || m.group_id || pl.id::text) limit 8 + abs(hashtext(m.participant_id || m.group_id)) % 25) c
                where not m.use_global_picks`),
    );
    await db.query('analyze');
    const counts = (
      await db.query<{ entries: number; picks: number; groups: number }>(
        `select (select count(*) from entry_stat where pick_group_id = 1)::int + (select count(*) from group_membership m
                  where exists (select 1 from pick k where k.participant_id = m.participant_id and k.group_id = case when m.use_global_picks then 1 else m.group_id end))::int as entries,
                (select count(*)::int from pick) as picks, (select count(*)::int - 1 from groups) as groups`,
      )
    ).rows[0]!;
    const globalEntries = (await db.query<{ n: number }>(`select count(*)::int as n from entry_stat where pick_group_id = 1`)).rows[0]!.n;
    log(`  ${counts.entries} entries (${globalEntries} global), ${counts.picks} picks, ${counts.groups} groups`);

    const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: url, DATA_DIR: dir, LOG_LEVEL: 'silent', DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00', PORT: '0' });
    const deps = await createDeps(config, orm);
    await deps.events.start();
    cleanups.unshift(async () => deps.events.stop());
    const app = await buildApp(deps, { logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.unshift(async () => app.close());
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}`;

    // Sessions and tokens for the subscribers and the readers (tokens last 60 s: re-signed per phase).
    const viewers = Array.from({ length: SUBSCRIBERS }, (_, i) => `user_bench${i + 1}`);
    await db.query(`insert into idp_user (id, email, username) select v, v || '@bench.local', null from unnest($1::text[]) v`, [viewers]);
    await db.query(`insert into idp_session (id, user_id, secret_hash) select 'sess_' || v, v, md5(v) from unnest($1::text[]) v`, [viewers]);
    const tokenFor = (userId: string) => signSessionToken(deps.idp, { userId, sessionId: `sess_${userId}`, azp: config.appOrigins[0]! });

    await startDraft(orm.em.fork(), deps.draft, 'bench');
    await deps.leaderboards.get(1);
    const board = (await db.query<{ id: number }>(`select id from player order by rank limit 40`)).rows.map((r) => r.id);

    log('Recording picks (pick → refreshed standings)…');
    const refresh: number[] = [];
    for (let slot = 1; slot <= RECORDED; slot++) {
      const heard = new Promise<void>((resolve) => {
        const off = deps.events.onChange((c) => {
          if (c.kind === 'pick' && c.slot === slot) {
            off();
            resolve();
          }
        });
      });
      const t0 = performance.now();
      await recordPick(orm.em.fork(), deps.draft, 'bench', slot, board[slot * 3]!);
      await heard;
      const standings = await deps.leaderboards.get(1);
      refresh.push(performance.now() - t0);
      if (slot === 1) log(`  standings after pick 1: ${standings.rankings.length} ranked, ${standings.alive} alive`);
    }
    const groupTimes: number[] = [];
    const groupIds = (await db.query<{ id: number }>(`select id from groups where id <> 1 order by id`)).rows.map((r) => r.id);
    for (const g of [0, 499, 2499, 4998].map((i) => groupIds[Math.min(i, groupIds.length - 1)]!)) {
      deps.leaderboards.invalidate(g);
      const t0 = performance.now();
      await deps.leaderboards.get(g);
      groupTimes.push(performance.now() - t0);
    }
    refresh.sort((a, b) => a - b);
    log(`  pick → refreshed global standings: p50 ${ms(pct(refresh, 50))}, max ${ms(refresh.at(-1)!)}`);

    log(`Opening ${SUBSCRIBERS} SSE subscribers…`);
    const sources: EventSource[] = [];
    cleanups.unshift(async () => sources.forEach((s) => s.close()));
    const fanoutSlot = RECORDED + 1;
    let opened = 0;
    const arrivals: number[] = [];
    let t0 = 0;
    const allArrived = new Promise<void>((resolve) => {
      for (const viewer of viewers) {
        void tokenFor(viewer).then((token) => {
          const params = encodeURIComponent(JSON.stringify({ token }));
          const source = new EventSource(`${base}/trpc/draft.changes?connectionParams=${params}`);
          source.addEventListener('connected', () => opened++);
          source.onmessage = (event) => {
            const data = JSON.parse(event.data) as { kind?: string; slot?: number };
            if (data.kind === 'pick' && data.slot === fanoutSlot) {
              arrivals.push(performance.now() - t0);
              if (arrivals.length === SUBSCRIBERS) resolve();
            }
          };
          sources.push(source);
        });
      }
    });
    const openDeadline = Date.now() + 30_000;
    while (opened < SUBSCRIBERS && Date.now() < openDeadline) await new Promise((r) => setTimeout(r, 50));
    log(`  ${opened} subscribers connected`);
    t0 = performance.now();
    await recordPick(orm.em.fork(), deps.draft, 'bench', fanoutSlot, board[fanoutSlot * 3]!);
    await Promise.race([allArrived, new Promise((r) => setTimeout(r, 15_000))]);
    arrivals.sort((a, b) => a - b);
    log(`  pick → ${arrivals.length}/${SUBSCRIBERS} subscribers: p50 ${ms(pct(arrivals, 50))}, all ${ms(arrivals.at(-1) ?? NaN)}`);
    sources.forEach((s) => s.close());
    sources.length = 0;

    log(`Reads under 50 concurrent readers (${SECONDS} s each)…`);
    const readerToken = await tokenFor(viewers[0]!);
    const page = await (await fetch(`${base}/api/groups/1/leaderboard`, { headers: { authorization: `Bearer ${readerToken}` } })).text();
    const plain = Fastify({ logger: false });
    const payload = JSON.parse(page) as unknown;
    plain.get('/plain', async () => payload);
    await plain.listen({ port: 0, host: '127.0.0.1' });
    cleanups.unshift(async () => plain.close());
    const plainUrl = `http://127.0.0.1:${(plain.server.address() as { port: number }).port}/plain`;
    const leaderboardRead = await readLoad(`${base}/api/groups/1/leaderboard`, 50, SECONDS, { authorization: `Bearer ${await tokenFor(viewers[1]!)}` });
    const trpcRead = await readLoad(
      `${base}/trpc/leaderboard.group?input=${encodeURIComponent(JSON.stringify({ group_id: 1 }))}`,
      50,
      SECONDS,
      { authorization: `Bearer ${await tokenFor(viewers[2]!)}` },
    );
    const plainRead = await readLoad(plainUrl, 50, SECONDS);
    const row = (name: string, r: Awaited<ReturnType<typeof readLoad>>) =>
      `| ${name} | ${Math.round(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`;
    const reads = [
      '| Route (global leaderboard page, ' + `${(page.length / 1024).toFixed(0)} KB JSON) | req/s | p50 | p99 | errors |`,
      '|---|---|---|---|---|',
      row('REST `GET /api/groups/1/leaderboard`', leaderboardRead),
      row('tRPC `leaderboard.group`', trpcRead),
      row('Plain Fastify route, same JSON', plainRead),
    ];
    reads.forEach((l) => log(`  ${l}`));

    const pgVersion = (await db.query<{ v: string }>(`select version() as v`)).rows[0]!.v.split(' on ')[0];
    const report = `# Benchmarks

Figures from \`npm run bench:draft\` (scripts/bench-draft.ts), run on ${new Date().toISOString().slice(0, 10)}.

Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB;
Node ${process.version}; ${pgVersion} (embedded, fsync off); the server, the database and every client
share those cores, so the figures are conservative.

## Data
- ${counts.entries.toLocaleString('en-US')} entries (${globalEntries.toLocaleString('en-US')} global, the rest in groups; half of the group members reuse their global picks)
- ${counts.picks.toLocaleString('en-US')} picks, ${counts.groups.toLocaleString('en-US')} groups of ${MEMBERS}

## Draft night
| Measure | Target | Result |
|---|---|---|
| Recorded pick → global standings re-ranked (${RECORDED} picks) | ≤ 1 s | p50 ${ms(pct(refresh, 50))}, max ${ms(refresh.at(-1)!)} |
| Group standings, first read after a change (4 groups) | | max ${ms(Math.max(...groupTimes))} |
| Recorded pick → all ${SUBSCRIBERS} SSE subscribers have it | ≤ 2 s | ${arrivals.length}/${SUBSCRIBERS} received; p50 ${ms(pct(arrivals, 50))}, last ${ms(arrivals.at(-1) ?? NaN)} |

## Leaderboard reads, 50 concurrent readers, ${SECONDS} s each
${reads.join('\n')}

## How it works
- A recorded pick is one transaction: the player's row, the audit log and a NOTIFY. A trigger adds the
  hit to every pick set holding that player (\`entry_stat\`), so no request ranks picks against the board.
- Every instance hears the NOTIFY, re-ranks the global standings once from \`entry_stat\` and serves
  pages of that ranked copy; groups are ranked on their first read after a change (a few hundred rows).
- Subscribers get the change over SSE from the instance they are connected to.
`;
    if (WRITE) {
      await fs.writeFile(path.resolve('docs/benchmarks.md'), report);
      log('Wrote docs/benchmarks.md');
    } else {
      log(report);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
