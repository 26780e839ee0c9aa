// `npm run bench:draft`: draft night at scale on a throwaway embedded PostgreSQL. Builds 100,000 global entries
// (~2 million picks) and 5,000 groups, then measures what players feel when a pick is recorded:
// 1. recorded pick → global standings re-ranked (in this process, the server's own LeaderboardCache);
// 2. recorded pick → 5,000 live clients showing the new standings: the server runs in its own process,
//    started as `npm start` starts it, and the clients in a load-generator process (bench-draft-load.ts):
//    each holds its user's SSE stream naming its leaderboard page, and shows the page the stream brings
//    after each change (reading it, after a random delay in [0, 1000 ms), only if none comes), as the web app does.
// Leaderboard read throughput is measured by `npm run bench:reads` (autocannon, out of process).
// Writes the "Draft night" section of docs/benchmarks.md.
// Options: --entries N (or --participants N; default 100000), --groups N (5000), --members N (8 per group),
//          --picks N (8 recorded picks for the re-rank), --clients N (5000), --live-picks N (5), --poll-ms N (10: the ETag-polling reader; 0 none),
//          --workers N (2 load-generator threads), --round-timeout S (120), --log-level L (the server's LOG_LEVEL; default as
//          `npm start`: info), --no-write, --keep (keep the throwaway directory: database, server log),
//          --gzip (the live clients ask for gzip-compressed streams, as browsers do, and decode them),
//          --parse-on-receipt (the live clients parse each stream message's JSON as it comes, on the clock, on the
//          server's cores; by default a pushed page is in on arrival plus its own parse, timed after the round),
//          --load-nice N (0: the load generator runs at the server's CPU priority; N > 0: at a lower one, `nice -n N`,
//          so the clients' work waits while the server's is under way instead of preempting it: how much sharing costs),
//          --profile DIR (the server, the load generator and the yardstick's processes run with --cpu-prof and leave their
//          profiles in DIR),
//          --server-flags "…" (Node/V8 flags for the server process alone, e.g. "--max-semi-space-size=4"),
//          --instances 2 (two instances on the one database, one signing key, TRUST_PROXY=1, behind nginx from
//          deploy/nginx.conf as the deployment test starts it: the live pages connect through nginx's plain-HTTP
//          listener, which its round-robin spreads over both; the operator records picks on the first instance;
//          writes the "Two instances behind nginx" section instead of "Draft night"; default 1: no nginx),
//          --nginx-workers N (2: nginx's worker processes with --instances 2, each with its own open-file limit),
//          --push-subscriptions N (0: N players hold the first live pick's player, each with a device at the push
//          service stand-in in this process; the figure: that pick → every device's push accepted, beside the live pages),
//          --push-control (with --push-subscriptions N: the same N players hold that player, no device is subscribed: the
//          run to set a push run's pages beside, the standings alike and no pushes),
//          --no-yardstick (with one instance and live clients, the bench then stops the game and has the same clients
//          measure a plain Fastify process writing them the same bytes per pick, lib/plain-fanout.mjs; this skips it),
//          --kinds K[,K] (bench: how the live clients read their streams, one live part per kind, each against its own
//          yardstick: `bench`, the generator's own (plain sockets, bytes; the default), `browser`, as a browser's
//          EventSource (node:http on a connection of its own, Accept-Encoding "gzip, deflate, br, zstd", decoded
//          as text and every message's JSON parsed on arrival); the first kind's figures fill the table),
//          --slow N --throttle [N:]KBps (N slow readers beside the clients, each stream read at most KBps KB a second
//          (default 8); not measured: the fast clients' p50/max, the server's memory per stream and the streams it
//          closed for falling behind are reported)
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../server/src/config.js';
import { startEmbeddedPostgres, withDatabase } from '../server/src/db/embedded-postgres.js';
import { ensureDatabaseExists, migrate, openOrm } from '../server/src/db/orm.js';
import { createDeps } from '../server/src/deps.js';
import { seedDefaultBoard } from '../server/src/modules/seasons/board.service.js';
import { recordPick, startDraft } from '../server/src/modules/draft/draft.service.js';
import { STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import { ms, summary } from './lib/bench-live.js';
import { makeCertificate, NGINX, siteValues, startInstance, startNginx, type Instance, type Proxy } from './lib/deploy-stack.js';
import type { LoadOptions, LoadResult } from './bench-draft-load.js';
import type { ClientKind } from './bench-draft-clients.js';
import { runLoad, startPlainFanOut } from './lib/bench-load.js';
import { rssMbOf } from './lib/process-cpu.js';
import { freePort } from '../server/src/free-port.js';
import { startPushService } from '../server/src/testing/push-service.js';
import { preparePushControl, startPushBench, type PushBenchResult } from './lib/bench-push.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
/** Global entries: one participant each (`--entries` and `--participants` are the same). */
const PARTICIPANTS = opt('entries', opt('participants', 100_000));
const GROUPS = opt('groups', 5_000);
const MEMBERS = opt('members', 8);
const RECORDED = opt('picks', 8);
const CLIENTS = Math.min(opt('clients', 5_000), PARTICIPANTS);
const LIVE_PICKS = opt('live-picks', 5);
/** The issue's memory bound: 1 GB with 100,000 entries and 5,000 pages, 2 GB with a million entries. */
const RSS_BOUND_MB = PARTICIPANTS >= 1_000_000 ? 2048 : 1024;
/** The re-rank's bound: 300 ms, and 1 s with a million entries. */
const RERANK_BOUND_MS = PARTICIPANTS >= 1_000_000 ? 1000 : 300;
/** The operator's recordPick answered within this, whatever the number of entries (p50 and max). */
const RECORD_PICK_BOUND_MS = 200;
/** The server started (spawned → its entry book read whole) within this with a million entries. */
const STARTUP_BOUND_MS = 30_000;
/** A reader polls the REST and tRPC standings' ETag this often (ms) during each live pick; 0: no reader. */
const POLL_MS = opt('poll-ms', 10);
const WORKERS = opt('workers', 2);
/** How long a round waits for every client's refetch before counting the rest as not shown. */
const ROUND_TIMEOUT_S = opt('round-timeout', 120);
const LOG_LEVEL = args.includes('--log-level') ? args[args.indexOf('--log-level') + 1]! : 'info';
const WRITE = !args.includes('--no-write');
/** Keep the throwaway directory (database, server log) for a look afterwards. */
const KEEP = args.includes('--keep');
const GZIP = args.includes('--gzip');
const PARSE_ON_RECEIPT = args.includes('--parse-on-receipt');
/**
 * The load generator's niceness. Its 5,000 clients stand for 5,000 devices, none of whose work competes with
 * the server's on the night; here they share its two cores, and at the same priority a page written can wake
 * a client thread that takes the core from the server mid-fan-out. At a lower priority the clients still do
 * all their work on the same cores, and a page counts only once its client has taken it in. The default
 * keeps the same priority (the method of every figure in docs/benchmarks.md); a lower one measures what the
 * sharing costs.
 */
const LOAD_NICE = opt('load-nice', 0);
/** Node/V8 flags for the server alone (space-separated, e.g. "--max-semi-space-size=4"): to measure one before adopting it. */
const SERVER_FLAGS = args.includes('--server-flags') ? args[args.indexOf('--server-flags') + 1]!.split(' ').filter(Boolean) : [];
const PROFILE_DIR = args.includes('--profile') ? path.resolve(args[args.indexOf('--profile') + 1]!) : undefined;
/** 1: the server alone, the clients connect to it. 2: two instances behind nginx (deploy/nginx.conf). */
const INSTANCES = opt('instances', 1);
/** nginx's worker processes with --instances 2: each has its own open-file limit (two connections per page). */
const NGINX_WORKERS = opt('nginx-workers', 2);
/** Devices told of the first live pick (target all within 10 s, the live pages unaffected); 0: none. */
const PUSH_SUBSCRIPTIONS = opt('push-subscriptions', 0);
/** The same standings as a --push-subscriptions run, without the devices: what its pages are compared with. */
const PUSH_CONTROL = args.includes('--push-control');
/**
 * The push service stand-in is plain http on this machine, which a production server refuses to send to
 * (PUSH_ALLOW_LOOPBACK_HTTP is a configuration error there): a push run starts its servers in development
 * with that setting, and its control run likewise, so the two differ in the devices alone.
 */
const PUSH_ENV: Record<string, string> = PUSH_SUBSCRIPTIONS > 0 ? { NODE_ENV: 'development', PUSH_ALLOW_LOOPBACK_HTTP: 'true' } : {};
/**
 * After the game's live part, the same clients measure a plain Fastify process sending the same bytes
 * (lib/plain-fanout.mjs): the machine's own floor for the fan-out, beside the game's figure. `--no-yardstick` skips it.
 */
const YARDSTICK = !args.includes('--no-yardstick');
const KINDS = (args.includes('--kinds') ? args[args.indexOf('--kinds') + 1]! : 'bench').split(',').map((k) => k.trim()) as ClientKind[];
if (KINDS.some((k) => k !== 'bench' && k !== 'browser')) throw new Error('--kinds takes bench, browser or both (bench,browser)');
/** `--throttle N:KBps` or `--throttle KBps`, with `--slow N`. */
const THROTTLE = (args.includes('--throttle') ? args[args.indexOf('--throttle') + 1]! : '').split(':').map(Number);
const SLOW = opt('slow', THROTTLE.length === 2 ? THROTTLE[0]! : 0);
const SLOW_KBPS = THROTTLE.at(-1) || 8;
const kindName = (kind: ClientKind) => (kind === 'browser' ? 'browser-like clients' : "the generator's own clients");
if (INSTANCES !== 1 && INSTANCES !== 2) throw new Error('--instances takes 1 or 2');
const ROUND_ONE_PICKS = 32;
const OPERATOR = 'user_benchoperator';
const OPERATOR_EMAIL = 'operator@bench.local';

/** A game server's environment as `npm start` runs it here: production, on 127.0.0.1, against `databaseUrl`. */
function serverEnv(at: { databaseUrl: string; dataDir: string; port: number; publicUrl: string }): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: at.databaseUrl,
    DATA_DIR: at.dataDir,
    HOST: '127.0.0.1',
    PORT: String(at.port),
    SKIP_CLIENT_BUILD: '1',
    LOG_LEVEL,
    ADMIN_EMAILS: OPERATOR_EMAIL,
    DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00',
    PUBLIC_URL: at.publicUrl,
    ...PUSH_ENV,
  };
}

const log = (line: string) => console.log(line);

/**
 * Inserts the pick sets `sets` names (participant_id, group_id, seed: a number), 8–32 picks each from
 * the board's top 90 (a permutation of them per seed: rank (a · i + b) mod 90 + 1, a coprime to 90).
 * Bulk-loaded: the foreign-key checks are off for the insert (`session_replication_role = replica`: the
 * sets and players exist), the indexes dropped and built again after it. Ordering every pick by the hash of
 * its id, as before, took 427 s for 100,000 entries on the busy machine.
 */
async function bulkPicks(db: pg.Client, sets: string) {
  const coprimes = [1, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 49, 53, 59, 61, 67, 71, 73, 77, 79, 83, 89];
  await db.query('begin');
  await db.query(`set local session_replication_role = replica`);
  await db.query(`set local maintenance_work_mem = '512MB'`);
  // The indexes and the primary key are built again after the insert, by one sort each, as they were.
  const { rows: key } = await db.query<{ name: string; def: string }>(
    `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'pick'::regclass and contype = 'p'`,
  );
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.tablename = 'pick' and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
  );
  for (const k of key) await db.query(`alter table pick drop constraint ${k.name}`);
  for (const i of indexes) await db.query(`drop index ${i.name}`);
  await db.query(
    `insert into pick (participant_id, group_id, player_id)
     select s.participant_id, s.group_id, pl.id
       from (${sets}) s
      cross join lateral generate_series(0, 7 + s.seed % 25) i
       join player pl on pl.rank = ((('{${coprimes.join(',')}}'::int[])[1 + (s.seed / 25) % ${coprimes.length}] * i + s.seed / 7) % 90) + 1
      order by 1, 2, 3`,
  );
  for (const k of key) await db.query(`alter table pick add constraint ${k.name} ${k.def}`);
  for (const i of indexes) await db.query(i.def);
  await db.query('commit');
}

async function timed<T>(label: string, run: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}


/** What the server logged when its entry book was read whole at start-up (modules/standings/entry-book.ts). */
interface BookLoaded {
  /** Its own `time` (epoch ms): when the read was done. */
  time: number;
  ms: number;
  participants: number;
  globalSets: number;
  ownSets: number;
  picks: number;
}

/** Waits for the server's 'entry book read whole' line in its log (JSON lines), from `from` bytes on. */
async function bookLoaded(logFile: string, from: number, server: ChildProcess, timeoutMs: number): Promise<BookLoaded> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode})`);
    const text = fsSync.readFileSync(logFile).subarray(from).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.startsWith('{') && line.includes('"entry book read whole"')) return JSON.parse(line) as BookLoaded;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not log its entry book read whole in time');
}

async function waitForHealth(base: string, server: ChildProcess, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited (code ${server.exitCode})`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not answer /healthz in time');
}

function machine() {
  let model = os.cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = /Model name:\s*(.+)/.exec(execFileSync('lscpu', { encoding: 'utf8' }))?.[1]?.trim() ?? model;
  } catch {
    // no lscpu: the model Node reports
  }
  let cores = os.cpus().length;
  try {
    cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim()) || cores;
  } catch {
    // no nproc
  }
  return { model, cores, memory: `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`, node: process.version };
}

/** Replaces the `## <heading>` section of docs/benchmarks.md (up to the next `## `), or appends it. */
async function writeSection(file: string, section: string, heading = 'Draft night') {
  const current = await fs.readFile(file, 'utf8').catch(() => '# Benchmarks\n');
  const start = current.search(new RegExp(`^## ${heading}\\b`, 'm'));
  let next = -1;
  if (start >= 0) {
    const after = current.slice(start + 3).search(/^## /m);
    next = after >= 0 ? start + 3 + after : -1;
  }
  const updated =
    start < 0 ? `${current.trimEnd()}\n\n${section}` : `${current.slice(0, start)}${section}${next >= 0 ? `\n${current.slice(next)}` : ''}`;
  await fs.writeFile(file, updated.endsWith('\n') ? updated : `${updated}\n`);
}

interface TwoInstances {
  /** nginx's plain-HTTP listener: where the live pages connect. */
  base: string;
  instances: Instance[];
  proxy: Proxy;
  /** Where the instances' and nginx's output is. */
  logs: string;
  /** The open-file limit the instances, nginx and the load generator got (soft:hard), and nginx's worker_connections. */
  nofile: string;
  workerConnections: number;
  /** nginx's processes to measure: its master and each worker. */
  nginxPids: Record<string, number>;
}

/** This process's open-file limit (soft:hard), from /proc; the children inherit it. */
function nofileLimit(): string {
  try {
    const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(fsSync.readFileSync('/proc/self/limits', 'utf8'));
    return line ? `${line[1]}:${line[2]}` : 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Two instances of the game on the one database, then nginx in front of them, as the deployment test starts
 * them (scripts/lib/deploy-stack.ts: startInstance, startNginx with deploy/nginx.conf). Both have the same
 * LOCAL_IDP_PRIVATE_KEY, which is also the key file in `dir` the load generator signs its tokens with, and
 * the same PUBLIC_URL (nginx's plain listener: the tokens' azp), so a token is good on either.
 */
async function startTwoInstances(dir: string, databaseUrl: string, cleanups: (() => Promise<unknown>)[]): Promise<TwoInstances> {
  // Each page holds a stream: nginx needs a connection to the page and one to the instance for each, and the
  // load generator a socket per stream and per page read. Raise this process's open-file limit (its children
  // inherit it; Node raises its own soft limit to the hard one) when it is lower than that needs.
  const needed = 4 * CLIENTS + 4096;
  const hard = Number(nofileLimit().split(':')[1]);
  if (!(hard >= needed)) {
    try {
      execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${needed}:${needed}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (error) {
      log(`  could not raise the open-file limit to ${needed} (${(error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message}): it stays ${nofileLimit()}`);
    }
  }
  const nofile = nofileLimit();
  const ports = { a: await freePort(), b: await freePort(), https: await freePort(), http: await freePort(), plain: await freePort() };
  const base = `http://127.0.0.1:${ports.plain}`;
  const signingKey = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  // The load generator reads the key from the data directory (loadSigningKeys), as it does with one server.
  await fs.writeFile(path.join(dir, 'idp-private-key.pem'), signingKey, { mode: 0o600 });
  const profile: Record<string, string> = PROFILE_DIR ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${PROFILE_DIR}`.trim() } : {};
  const env = (name: string, port: number): Record<string, string> => {
    const dataDir = path.join(dir, `data-${name}`);
    fsSync.mkdirSync(dataDir, { recursive: true });
    return {
      // Each instance its own data directory: all they share is the database and the key.
      ...serverEnv({ databaseUrl, dataDir, port, publicUrl: base }),
      LOCAL_IDP_PRIVATE_KEY: signingKey,
      TRUST_PROXY: '1',
      ...profile,
    };
  };
  const instances: Instance[] = [];
  const logs = path.join(dir, 'instances');
  await fs.mkdir(logs, { recursive: true });
  cleanups.unshift(async () => {
    await Promise.all(instances.map((i) => i.stop().catch(() => undefined)));
    for (const i of instances) await fs.writeFile(path.join(logs, `${i.name}.log`), `${i.output.join('\n')}\n`).catch(() => undefined);
  });
  // One after the other: the database is migrated already, and nothing makes two instances' migrations wait for each other.
  for (const [name, port] of [['A', ports.a], ['B', ports.b]] as const) {
    log(`Starting instance ${name} as \`npm start\` does (scripts/start.mjs, LOG_LEVEL=${LOG_LEVEL}, port ${port})…`);
    instances.push(await startInstance(name, env(name, port), 120_000));
  }
  const nginxDir = path.join(dir, 'nginx');
  await fs.mkdir(nginxDir, { recursive: true });
  const cert = makeCertificate(nginxDir, 'first-round.test');
  // Per worker: each page's stream is two connections (the page's, the instance's), its reads two more
  // while they last; as many as the open-file limit allows.
  const hardLimit = Number(nofile.split(':')[1]) || Infinity;
  const rlimitNofile = Math.min(4 * CLIENTS + 2048, hardLimit);
  const workerConnections = rlimitNofile - 64;
  log(`Starting nginx (deploy/nginx.conf; plain HTTP for the bench on ${base}, ${NGINX_WORKERS} workers, worker_connections ${workerConnections}, open files ${nofile})…`);
  const proxy = await startNginx(
    nginxDir,
    siteValues({ name: 'first-round.test', publicUrl: base, httpsPort: ports.https, httpPort: ports.http, certificate: cert, instancePorts: [ports.a, ports.b] }),
    { workerConnections, rlimitNofile, plainPort: ports.plain, workerProcesses: NGINX_WORKERS },
  );
  for (let tries = 0; proxy.workerPids().length < NGINX_WORKERS && tries < 50; tries++) await new Promise((r) => setTimeout(r, 100));
  cleanups.unshift(async () => {
    await proxy.stop().catch(() => undefined);
    const errors = await fs.readFile(proxy.errorLog, 'utf8').catch(() => '');
    const lines = errors.split('\n').filter(Boolean);
    if (lines.length > 0) log(`  nginx's error log: ${lines.length} lines; the last: ${lines.at(-1)}`);
  });
  const ready = await fetch(`${base}/readyz`);
  if (!ready.ok) throw new Error(`GET /readyz through nginx: ${ready.status}`);
  log(`  ${base} → nginx → A ${instances[0]!.url}, B ${instances[1]!.url}; output in ${logs}, nginx's in ${nginxDir}`);
  const nginxPids = { nginx: proxy.child.pid!, ...Object.fromEntries(proxy.workerPids().map((pid, i) => [`nginx-w${i + 1}`, pid])) };
  return { base, instances, proxy, logs, nofile, workerConnections, nginxPids };
}

/** The "Two instances behind nginx" section of docs/benchmarks.md, from a run with --instances 2. */
function twoInstancesSection(run: {
  two: TwoInstances;
  live: LoadResult;
  m: ReturnType<typeof machine>;
  pgVersion: string;
  loadBefore: { rerank: number; live: number };
  counts: { entries: number; picks: number; groups: number };
  globalEntries: number;
  rerank: ReturnType<typeof summary>;
}): string {
  const { two, live, m } = run;
  const rounds = live.rounds;
  const nameOf = (address: string) => two.instances.find((i) => `127.0.0.1:${i.port}` === address)?.name ?? address;
  const total = rounds.reduce((n, r) => n + r.clients, 0);
  const shown = rounds.reduce((n, r) => n + r.shown, 0);
  const toShown = summary(rounds.flatMap((r) => r.toShown));
  const toEvent = summary(rounds.flatMap((r) => r.toEvent));
  const refetch = summary(rounds.flatMap((r) => r.refetch));
  const call = summary(rounds.map((r) => r.callMs));
  const perPick = rounds.map((r) => {
    const s = summary(r.toShown);
    return `${ms(s.p50)} / ${ms(s.max)}`;
  });
  // nginx: its master and workers together.
  const of = (values: Record<string, number | undefined> | undefined, name: string) =>
    name === 'nginx'
      ? Object.entries(values ?? {})
          .filter(([key]) => key.startsWith('nginx'))
          .reduce<number | undefined>((sum, [, v]) => (v === undefined ? sum : (sum ?? 0) + v), undefined)
      : values?.[name];
  const perProcess = (pick: (r: LoadResult['rounds'][number]) => Record<string, number | undefined> | undefined, unit: string) =>
    ['A', 'B', 'nginx'].map((name) => `${name} ${rounds.map((r) => of(pick(r), name)).map((v) => (v === undefined ? '–' : v.toFixed(0))).join(', ')} ${unit}`).join('; ');
  const slowestBy = rounds
    .map((r) => Object.entries(r.maxShownBy ?? {}).sort(([a], [b]) => nameOf(a).localeCompare(nameOf(b))).map(([address, v]) => `${nameOf(address)} ${ms(v)}`).join(', ') || '–')
    .join('; ');
  const streams = Object.entries(live.upstreams)
    .sort(([a], [b]) => nameOf(a).localeCompare(nameOf(b)))
    .map(([address, n]) => `${nameOf(address)} ${n.toLocaleString('en-US')}`)
    .join(', ');
  // `nginx -v` prints its version on stderr.
  const nginxVersion = /nginx\/\S+/.exec(spawnSync(NGINX, ['-v'], { encoding: 'utf8' }).stderr ?? '')?.[0] ?? 'nginx';
  const pages = CLIENTS.toLocaleString('en-US');
  const verdict = shown === total && toShown.max <= 1500 ? 'met' : `**missed**${shown === total ? ` by ${ms(toShown.max - 1500)}` : ''}`;
  return `## Two instances behind nginx

\`npm run bench:draft -- ${args.join(' ')}\` (scripts/bench-draft.ts), run on ${new Date().toISOString().slice(0, 10)}. Machine: ${m.model},
${m.cores} cores (\`nproc\`), ${m.memory}; Node ${m.node}; ${run.pgVersion} (embedded, fsync off); ${nginxVersion}. The database, both
instances, nginx and the load generator (${WORKERS} worker threads) share those cores with whatever else runs there: the 1-minute load
average was ${run.loadBefore.rerank.toFixed(1)} when the run began and ${run.loadBefore.live.toFixed(1)} when the live part began (${m.cores} = the cores fully busy).

Data: ${run.globalEntries.toLocaleString('en-US')} global entries and ${(run.counts.entries - run.globalEntries).toLocaleString('en-US')} group entries
(${run.counts.groups.toLocaleString('en-US')} groups of ${MEMBERS}), ${run.counts.picks.toLocaleString('en-US')} picks.

| Measure | Target | Result |
|---|---|---|
| Recorded pick → ${pages} live pages, spread by nginx over two instances, showing the new standings (${rounds.length} picks; from the operator's call returning) | ≤ 1.5 s | ${shown}/${total} shown; p50 ${ms(toShown.p50)}, max ${ms(toShown.max)} (${verdict}) |
| … per pick, p50 / max | | ${perPick.join('; ')} |
| … live streams per instance (nginx's round-robin, from its X-Upstream header) | | ${streams || 'not known'} |
| … the slowest page per instance, per pick | | ${slowestBy} |
| … recorded pick → the SSE event at each page | | p50 ${ms(toEvent.p50)}, max ${ms(toEvent.max)} |
| … pages brought by the stream (no request) | | ${rounds.reduce((n, r) => n + r.pushed, 0)}/${total}; ${rounds.reduce((n, r) => n + r.stale, 0)} stale, ${rounds.reduce((n, r) => n + r.errors.length, 0)} errors |
| … pages read instead (no page on the stream within ${STANDINGS_PUSH_WAIT_MS / 1000} s) | | ${refetch.n === 0 ? 'none' : `${refetch.n}; p50 ${ms(refetch.p50)}, p99 ${ms(refetch.p99)}`} |
| … the operator's recordPick call, on instance A directly | | p50 ${ms(call.p50)}, max ${ms(call.max)} |
| … CPU time per pick (user + system, from the call until every page has the new standings; PostgreSQL's not included) | | ${perProcess((r) => r.cpuMs, 'ms')} |
| … resident memory at each pick's end | | ${perProcess((r) => r.rssMb, 'MB')} |
| Recorded pick → global standings re-ranked (in the bench's process, before the live part; as "Draft night") | ≤ 300 ms | p50 ${ms(run.rerank.p50)}, max ${ms(run.rerank.max)} |

How it is measured (as "Draft night", with these differences):
- Two instances started one after the other as the deployment test starts them (scripts/lib/deploy-stack.ts,
  \`startInstance\`: scripts/start.mjs, NODE_ENV=production, LOG_LEVEL=${LOG_LEVEL}), on the one database, each with its own
  data directory, the same LOCAL_IDP_PRIVATE_KEY (the load generator signs the pages' tokens with it) and PUBLIC_URL, and
  TRUST_PROXY=1. nginx runs deploy/nginx.conf through \`startNginx\` (a master and ${NGINX_WORKERS} worker processes, worker_connections
  ${two.workerConnections.toLocaleString('en-US')} each; open files ${two.nofile} soft:hard, which the bench raises with prlimit when it may). Its CPU and
  memory below are the master's and the workers' together.
- **Plain HTTP, not TLS**, between the pages and nginx: the bench's main configuration adds a listener on 127.0.0.1 that is
  the template's TLS server block with its listen line made plain and its ssl_ lines dropped (same locations, proxy
  settings and upstream, plus \`reuseport\` to spread connections over the workers and \`keepalive_timeout 5s\` so the
  pages' idle read connections do not hold file descriptors); deploy/nginx.conf itself is unchanged. ${pages} TLS sessions would be the load generator's work
  (handshakes, then decrypting every page) on the same two cores the instances need, which a real night spreads over
  ${pages} browsers; nginx's own share of TLS is not measured here.
- The pages connect to nginx, whose round-robin sends each new connection to the next instance; each page's stream stays
  on the instance that took it. The operator records each pick on instance A directly (the admin's call); the other
  instance hears it through PostgreSQL's NOTIFY, as every cache does, and pushes the page to its own streams.
`;
}

/** A garbage collection as `node --trace-gc` prints it: its kind and how long it paused the main thread. */
interface GcPause {
  kind: string;
  ms: number;
}

/**
 * The collections `--trace-gc` printed in `text` (lines such as `… 5234 ms: Mark-Compact 303.9 (339.4) ->
 * 250.2 (330.1) MB, 45.67 / 0.00 ms …`: the first figure after the sizes is the pause on the main thread).
 */
function gcPauses(text: string): GcPause[] {
  const pauses: GcPause[] = [];
  for (const m of text.matchAll(/ ms: ([A-Za-z][A-Za-z() -]*?) [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, ([\d.]+) \/ [\d.]+ ms/g)) {
    pauses.push({ kind: m[1]!.trim(), ms: Number(m[2]) });
  }
  return pauses;
}

/** One change's 'live fan-out written' log line (live-stream.ts): its streams, own parts sent, and ms from hearing it to ranked and to written. */
interface FanOut {
  eventId: number;
  streams: number;
  ownParts?: number;
  rankedMs?: number;
  /** Every stream's bytes made, before the sockets were let go (live/hub.ts). */
  madeMs?: number;
  ms: number;
}

function fanOutTimes(text: string): FanOut[] {
  const times: FanOut[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{') || !line.includes('"live fan-out written"')) continue;
    const entry = JSON.parse(line) as FanOut;
    times.push({ eventId: entry.eventId, streams: entry.streams, ownParts: entry.ownParts, rankedMs: entry.rankedMs, madeMs: entry.madeMs, ms: entry.ms });
  }
  return times;
}

/** "412 ms to 5000 (ranked at 130 ms, every stream's bytes made at 250 ms, 4870 own parts)". */
function fanOutText(f: FanOut): string {
  const details = [
    f.rankedMs === undefined ? undefined : `ranked at ${ms(f.rankedMs)}`,
    f.madeMs === undefined ? undefined : `every stream's bytes made at ${ms(f.madeMs)}`,
    f.ownParts === undefined ? undefined : `${f.ownParts} own parts`,
  ].filter(Boolean);
  return `${ms(f.ms)} to ${f.streams}${details.length > 0 ? ` (${details.join(', ')})` : ''}`;
}

/** One kind of client's live part against its yardstick: per pick p50 / max, the yardstick's, the ratio of the slowest pages. */
function kindLine(kind: ClientKind, live: LoadResult, plain: LoadResult | undefined, fanOuts: FanOut[]): string {
  const perPick = live.rounds.map((r) => summary(r.toShown));
  const plainPerPick = plain?.rounds.map((r) => summary(r.toShown)) ?? [];
  const pairs = (list: ReturnType<typeof summary>[]) => list.map((x) => `${ms(x.p50)} / ${ms(x.max)}`).join(', ');
  const shown = live.rounds.reduce((n, r) => n + r.shown, 0);
  const total = live.rounds.reduce((n, r) => n + r.clients, 0);
  const ratio = plain ? perPick.map((x, i) => (plainPerPick[i] ? `${(x.max / plainPerPick[i]!.max).toFixed(2)}×` : '–')).join(', ') : '–';
  return (
    `${kindName(kind)}: per pick p50 / max ${pairs(perPick)} (${shown}/${total} shown); the yardstick ${plain ? pairs(plainPerPick) : 'not measured'}; ` +
    `the game's slowest page against it ${ratio}; the server's fan-out ${fanOuts.map(fanOutText).join(', ') || '–'}; the server's CPU per pick ${live.rounds.map((r) => r.serverCpuMs?.toFixed(0) ?? '–').join(', ')} ms, the clients' ${live.rounds.map((r) => r.loadCpuMs?.toFixed(0) ?? '–').join(', ')} ms`
  );
}

/** With slow readers (--slow): the fast clients' pages, the server's memory per stream, the streams it closed for falling behind. */
function slowReport(slow: number, fast: number, runs: { kind: ClientKind; live: LoadResult }[], serverLog: string): string {
  const closed = serverLog.split('\n').filter((line) => line.includes('stream fell behind: closed')).length;
  const parts = runs.map(({ kind, live }) => {
    const all = summary(live.rounds.flatMap((r) => r.toShown));
    const rss = live.rounds.map((r) => r.serverRssMb).filter((v): v is number => v !== undefined);
    const perStream = rss.length > 0 ? `${((Math.max(...rss) * 1024) / (slow + fast)).toFixed(0)} KB` : '–';
    return `${kindName(kind)}: p50 ${ms(all.p50)}, max ${ms(all.max)}; the server's RSS at each pick's end ${rss.join(', ') || '–'} MB (${perStream} a stream, all ${slow + fast} counted)`;
  });
  return `with ${slow} slow readers at ${SLOW_KBPS} KB/s beside them, the fast clients' new standings: ${parts.join('; ')}; streams the server closed for falling behind: ${closed}`;
}

/** Per kind: how many, their total and the longest pause. */
function gcSummary(pauses: GcPause[]): string {
  if (pauses.length === 0) return 'none';
  const kinds = new Map<string, GcPause[]>();
  for (const p of pauses) kinds.set(p.kind, [...(kinds.get(p.kind) ?? []), p]);
  return [...kinds]
    .map(([kind, ps]) => `${kind} ${ps.length} × (total ${ms(ps.reduce((n, p) => n + p.ms, 0))}, longest ${ms(Math.max(...ps.map((p) => p.ms)))})`)
    .join('; ');
}

async function main() {
  log(`First Round draft-night benchmark: ${PARTICIPANTS} participants, ${GROUPS} groups × ${MEMBERS} members, ${CLIENTS} live clients`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-bench-'));
  await fs.chmod(dir, 0o755);
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { durable: false });
  const url = withDatabase(cluster.serverUrl, 'bench');
  const cleanups: (() => Promise<unknown>)[] = [async () => cluster.stop(), async () => (KEEP ? log(`Kept ${dir}`) : fs.rm(dir, { recursive: true, force: true }))];
  const closeOrm: { run?: () => Promise<unknown> } = {};
  try {
    await ensureDatabaseExists(url);
    const orm = await openOrm(url, 20);
    closeOrm.run = () => orm.close(true);
    cleanups.unshift(async () => closeOrm.run?.());
    await migrate(orm);
    await seedDefaultBoard(orm.em.fork());
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    cleanups.unshift(async () => db.end());

    log('Building entries…');
    // Each with the e-mail they signed up with (idp_user below), as a player who has made picks has: their
    // first call on the server then finds nothing to bring up to date and writes nothing.
    await timed('participants', () =>
      db.query(`insert into participant (id, email, screen_name) select 'user_bench' || n, 'user_bench' || n || '@bench.local', 'Bench ' || n from generate_series(1, $1) n`, [PARTICIPANTS]),
    );
    // Global entries: 8–32 picks each, drawn from the top 90 of the board as real players would (each held
    // by about one entry in four). Loaded in bulk (`bulkPicks`): a million entries in minutes, not hours.
    await timed('global picks', () => bulkPicks(db, `select 'user_bench' || n as participant_id, 1 as group_id, hashtext('user_bench' || n)::bigint & 2147483647 as seed from generate_series(1, ${PARTICIPANTS}) n`));
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
      bulkPicks(db, `select participant_id, group_id, hashtext(participant_id || group_id)::bigint & 2147483647 as seed from group_membership where not use_global_picks`),
    );
    await db.query('analyze');
    const counts = (
      await db.query<{ entries: number; picks: number; groups: number }>(
        `select (select count(distinct participant_id) from pick where group_id = 1)::int + (select count(*) from group_membership m
                  where exists (select 1 from pick k where k.participant_id = m.participant_id and k.group_id = case when m.use_global_picks then 1 else m.group_id end))::int as entries,
                (select count(*)::int from pick) as picks, (select count(*)::int - 1 from groups) as groups`,
      )
    ).rows[0]!;
    const globalEntries = (await db.query<{ n: number }>(`select count(distinct participant_id)::int as n from pick where group_id = 1`)).rows[0]!.n;
    log(`  ${counts.entries} entries (${globalEntries} global), ${counts.picks} picks, ${counts.groups} groups`);


    // 1. Recorded pick → global standings re-ranked, by the server's own cache, in this process.
    const config = loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'http://localhost', DATABASE_URL: url, DATA_DIR: dir, LOG_LEVEL: 'silent', DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00', PORT: '0' });
    const deps = await createDeps(config, orm);
    await deps.events.start();
    await startDraft(orm.em.fork(), deps.draft, 'bench');
    await timed('first global ranking (reads every entry)', () => deps.leaderboards.get(1));
    const board = (await db.query<{ id: number }>(`select id from player order by rank limit 40`)).rows.map((r) => r.id);

    // The machine is shared: how busy it was (other work included) goes with the figures.
    const loadBefore = { rerank: os.loadavg()[0]!, live: 0 };
    log(`Recording ${RECORDED} picks (pick → re-ranked global standings, ${globalEntries.toLocaleString('en-US')} entries; load average ${loadBefore.rerank.toFixed(1)})…`);
    const fromCommit: number[] = [];
    const fromCall: number[] = [];
    const transaction: number[] = [];
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
      const committed = performance.now();
      // This process's CPU and heap while it hears the pick and re-ranks: on a busy machine the wall time
      // is mostly waiting for a core, the CPU time is the work.
      const cpu0 = process.cpuUsage();
      const heap0 = process.memoryUsage().heapUsed;
      await heard;
      const standings = await deps.leaderboards.get(1);
      const done = performance.now();
      const cpu = process.cpuUsage(cpu0);
      const heapGrew = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
      transaction.push(committed - t0);
      fromCommit.push(done - committed);
      fromCall.push(done - t0);
      log(
        `  pick ${slot}: recordPick ${ms(committed - t0)}, then re-ranked in ${ms(done - committed)} (CPU ${ms((cpu.user + cpu.system) / 1000)}, heap ${heapGrew >= 0 ? '+' : ''}${heapGrew.toFixed(1)} MB; ${standings.alive.toLocaleString('en-US')} of ${standings.rankings.length.toLocaleString('en-US')} alive)`,
      );
    }
    const groupTimes: number[] = [];
    const groupIds = (await db.query<{ id: number }>(`select id from groups where id <> 1 order by id`)).rows.map((r) => r.id);
    for (const g of [0, 499, 2499, 4998].map((i) => groupIds[Math.min(i, groupIds.length - 1)]!)) {
      deps.leaderboards.invalidateGroup(g);
      const t0 = performance.now();
      await deps.leaderboards.get(g);
      groupTimes.push(performance.now() - t0);
    }
    const rerank = summary(fromCommit);
    const rerankCall = summary(fromCall);
    const recordPickCall = summary(transaction);
    log(`  pick → re-ranked: p50 ${ms(rerank.p50)}, max ${ms(rerank.max)} (from the operator's call: p50 ${ms(rerankCall.p50)}, max ${ms(rerankCall.max)}); recordPick p50 ${ms(recordPickCall.p50)}, max ${ms(recordPickCall.max)}`);
    await deps.events.stop();
    await closeOrm.run?.();
    closeOrm.run = undefined;

    // 2. Recorded pick → live clients showing the new standings, the server and the clients in processes of their own.
    const users = Array.from({ length: CLIENTS }, (_, i) => `user_bench${i + 1}`);
    // Slow readers (--slow): entries of their own, after the clients'.
    const slowUsers = Array.from({ length: Math.min(SLOW, PARTICIPANTS - CLIENTS) }, (_, i) => `user_bench${CLIENTS + i + 1}`);
    await db.query(`insert into idp_user (id, email, username) select v, v || '@bench.local', null from unnest($1::text[]) v`, [[...users, ...slowUsers]]);
    await db.query(`insert into idp_user (id, email, username) values ($1, $2, 'BenchOperator')`, [OPERATOR, OPERATOR_EMAIL]);
    await db.query(`insert into idp_session (id, user_id, secret_hash) select 'sess_' || v, v, md5(v) from unnest($1::text[]) v`, [[...users, ...slowUsers, OPERATOR]]);
    // Push: the devices and their players' picks go in before the server starts (it reads the standings then).
    if (PUSH_CONTROL && PUSH_SUBSCRIPTIONS > 0) {
      const player = await preparePushControl(db, PUSH_SUBSCRIPTIONS);
      log(`Push control: ${PUSH_SUBSCRIPTIONS} players holding ${player.player_name}, the first live pick, and no device subscribed`);
    }
    const pushService = PUSH_SUBSCRIPTIONS > 0 && !PUSH_CONTROL ? await startPushService({ acceptFirst: true }) : undefined;
    if (pushService) cleanups.unshift(() => pushService.close());
    const pushBench = pushService ? await startPushBench(db, url, pushService, PUSH_SUBSCRIPTIONS) : undefined;
    if (pushBench) log(`Push: ${PUSH_SUBSCRIPTIONS} devices at the stand-in (${pushService!.origin}), their players all holding ${pushBench.player.player_name}, the first live pick`);
    const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
    let base: string;
    let azp: string;
    let serverLog: string;
    let serverPid: number | undefined;
    let stopServer: (() => Promise<void>) | undefined;
    /** The server's start-up: spawned → /healthz answered, → its entry book read whole; its RSS then. */
    let startup: { healthMs: number; bookMs: number; book: BookLoaded; rssMb: number | undefined } | undefined;
    let two: TwoInstances | undefined;
    if (INSTANCES === 1) {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      azp = `http://localhost:${port}`;
      serverLog = path.join(dir, 'server.log');
      const serverOut = fsSync.openSync(serverLog, 'a');
      log(`Starting the server as \`npm start\` does (scripts/start.mjs, LOG_LEVEL=${LOG_LEVEL}, output in ${serverLog})…`);
      // --trace-gc: every collection's pause goes to the server's output, summed up for the live part below.
      const logFrom = fsSync.statSync(serverLog).size;
      const spawnedAt = Date.now();
      const server = spawn(process.execPath, [...profile, ...SERVER_FLAGS, '--trace-gc', path.resolve('scripts/start.mjs')], {
        env: { ...process.env, ...serverEnv({ databaseUrl: url, dataDir: dir, port, publicUrl: base }) },
        stdio: ['ignore', serverOut, serverOut],
      });
      const serverExited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      stopServer = async () => {
        if (server.exitCode === null) {
          server.kill('SIGTERM');
          await Promise.race([serverExited, new Promise((r) => setTimeout(r, 15_000))]);
          if (server.exitCode === null) server.kill('SIGKILL');
        }
      };
      cleanups.unshift(stopServer);
      await waitForHealth(base, server, 120_000);
      const healthMs = Date.now() - spawnedAt;
      // The server reads its entry book whole at start (it ranks the global standings at once).
      const book = await bookLoaded(serverLog, logFrom, server, 300_000);
      startup = { healthMs, bookMs: book.time - spawnedAt, book, rssMb: rssMbOf(server.pid) };
      log(
        `  started: /healthz after ${ms(healthMs)}, the entry book read whole after ${ms(startup.bookMs)} (the read itself ${ms(book.ms)}: ${book.participants.toLocaleString('en-US')} participants, ${book.globalSets.toLocaleString('en-US')} global and ${book.ownSets.toLocaleString('en-US')} group sets, ${book.picks.toLocaleString('en-US')} picks); RSS ${startup.rssMb ?? '–'} MB`,
      );
      serverPid = server.pid;
    } else {
      two = await startTwoInstances(dir, url, cleanups);
      base = two.base;
      azp = two.base;
      serverLog = two.logs;
    }

    loadBefore.live = os.loadavg()[0]!;
    // Where the server's output stood when the live part began: its collections from here on are the live part's.
    const serverLogFrom = INSTANCES === 1 ? fsSync.statSync(serverLog).size : 0;
    log(`Load generator: ${CLIENTS} live clients, then ${LIVE_PICKS} recorded picks (nice ${LOAD_NICE}; load average ${loadBefore.live.toFixed(1)})…`);
    const loadOptions: LoadOptions = {
      base,
      operatorBase: two?.instances[0]!.url,
      databaseUrl: url,
      dataDir: dir,
      azp,
      users,
      operator: OPERATOR,
      picks: LIVE_PICKS,
      roundOnePicks: ROUND_ONE_PICKS,
      workers: WORKERS,
      jitterMs: 1000,
      gzip: GZIP,
      parseOnReceipt: PARSE_ON_RECEIPT,
      kind: KINDS[0]!,
      slow: slowUsers.length > 0 ? { users: slowUsers, kbps: SLOW_KBPS } : undefined,
      pollMs: POLL_MS,
      serverPid,
      processes: two ? { ...Object.fromEntries(two.instances.map((i) => [i.name, i.child.pid!])), ...two.nginxPids } : undefined,
      roundTimeoutMs: ROUND_TIMEOUT_S * 1000,
      resultFile: path.join(dir, 'load-result.json'),
    };
    // One live part per kind of client (--kinds), each with LIVE_PICKS picks.
    const runs: { kind: ClientKind; live: LoadResult; plain?: LoadResult }[] = [];
    for (const kind of KINDS) {
      if (KINDS.length > 1) log(`  ${kindName(kind)}:`);
      const result = await runLoad({ ...loadOptions, kind, resultFile: path.join(dir, `load-result-${kind}.json`) }, cleanups, { nodeArgs: profile, nice: LOAD_NICE }).catch((error: Error) => {
        throw new Error(`${error.message}; server output in ${serverLog}`);
      });
      runs.push({ kind, live: result });
    }
    const live = runs[0]!.live;
    // The yardstick: the game stopped, the same clients and the same bytes from a plain Fastify process (the
    // same bytes as on the game's wire, compressed, to a client that asked for gzip and got it).
    const sampleOf = (result: LoadResult) => (result.sample ? Buffer.from(result.sample, 'base64') : undefined);
    const sample = sampleOf(live);
    if (YARDSTICK && stopServer && sample && sample.length > 0) {
      await stopServer();
      for (const run of runs) {
        const bytes = sampleOf(run.live);
        if (!bytes || bytes.length === 0) continue;
        const wire = run.live.wireSample ? Buffer.from(run.live.wireSample, 'base64') : undefined;
        const yardstick = await startPlainFanOut(dir, bytes, cleanups, profile, wire);
        log(
          `The yardstick for ${kindName(run.kind)}: a plain Fastify process (scripts/lib/plain-fanout.mjs) writing the same ${CLIENTS} clients ${bytes.length.toLocaleString('en-US')} bytes each per pick${wire ? ` (${wire.length.toLocaleString('en-US')} on the wire, gzip, one write)` : ''}…`,
        );
        run.plain = await runLoad(
          { ...loadOptions, kind: run.kind, slow: undefined, base: yardstick.base, plain: true, pollMs: 0, serverPid: yardstick.pid, resultFile: path.join(dir, `plain-result-${run.kind}.json`) },
          cleanups,
          { nodeArgs: profile, nice: LOAD_NICE },
        );
        await yardstick.stop();
      }
    }
    const plain = runs[0]!.plain;
    let push: PushBenchResult | undefined;
    if (pushBench) {
      push = await pushBench.result();
      log(`  push: the first live pick → ${push.devices} devices' pushes accepted: first ${ms(push.first)}, half ${ms(push.p50)}, all ${ms(push.all)} (refused ${pushService!.refused.length})`);
    }
    const liveLog = INSTANCES === 1 ? fsSync.readFileSync(serverLog).subarray(serverLogFrom).toString('utf8') : '';
    const liveGc = gcPauses(liveLog);
    const fanOutsAll = fanOutTimes(liveLog);
    const fanOuts = fanOutsAll.slice(0, LIVE_PICKS);
    const longestGc = Math.max(0, ...liveGc.map((p) => p.ms));
    const rssMax = Math.max(0, ...live.rounds.map((r) => r.serverRssMb ?? 0));
    const etagAfter = (name: string) => live.rounds.map((r) => r.etagMoved?.[name]);
    const etagMax = (name: string) => Math.max(...etagAfter(name).map((v) => v ?? Infinity));
    const perPick = live.rounds.map((r) => summary(r.toShown));
    log(`  per pick, p50 / max to the new standings shown: ${perPick.map((s) => `${ms(s.p50)} / ${ms(s.max)}`).join(', ')}`);
    log(`  the server's own fan-out per pick (heard → last page written, its log): ${fanOuts.map(fanOutText).join(', ') || '–'}`);
    const plainPerPick = plain?.rounds.map((r) => summary(r.toShown)) ?? [];
    const plainText = plain ? `${plainPerPick.map((s) => `${ms(s.p50)} / ${ms(s.max)}`).join(', ')} (${plain.rounds.reduce((n, r) => n + r.shown, 0)}/${plain.rounds.reduce((n, r) => n + r.clients, 0)} in)` : 'not measured';
    const againstPlain = plain ? perPick.map((s, i) => (plainPerPick[i] ? `${(s.max / plainPerPick[i]!.max).toFixed(2)}×` : '–')).join(', ') : '–';
    log(`  the same bytes from a plain Fastify process, per pick p50 / max: ${plainText}; the game's slowest page against it: ${againstPlain}`);
    log(`  the server's garbage collections during the live part: ${gcSummary(liveGc)}; RSS at each pick's end ${live.rounds.map((r) => r.serverRssMb ?? '–').join(', ')} MB`);
    const kindLines = runs.map((run, i) => kindLine(run.kind, run.live, run.plain, fanOutsAll.slice(i * LIVE_PICKS, (i + 1) * LIVE_PICKS)));
    if (runs.length > 1) for (const line of kindLines) log(`  ${line}`);
    const slowLine = slowUsers.length > 0 ? slowReport(slowUsers.length, CLIENTS, runs, liveLog) : undefined;
    if (slowLine) log(`  ${slowLine}`);
    const rounds = live.rounds;
    const total = rounds.reduce((n, r) => n + r.clients, 0);
    const shownCount = rounds.reduce((n, r) => n + r.shown, 0);
    const staleCount = rounds.reduce((n, r) => n + r.stale, 0);
    const notModified = rounds.reduce((n, r) => n + r.notModified, 0);
    const pushed = rounds.reduce((n, r) => n + r.pushed, 0);
    const errorCount = rounds.reduce((n, r) => n + r.errors.length, 0);
    const toEvent = summary(rounds.flatMap((r) => r.toEvent));
    const toShown = summary(rounds.flatMap((r) => r.toShown));
    const refetch = summary(rounds.flatMap((r) => r.refetch));
    const call = summary(rounds.map((r) => r.callMs));
    const cpuOf = (values: (number | undefined)[]) => values.map((v) => (v === undefined ? '–' : `${v.toFixed(0)}`)).join(', ');
    // A client that never showed the new standings has no time: the figure is then "not all".
    const allShown = shownCount === total;
    log(`  all picks: event p50 ${ms(toEvent.p50)}, max ${ms(toEvent.max)}; new standings on ${shownCount}/${total} pages, p50 ${ms(toShown.p50)}, max ${ms(toShown.max)}; refetch p50 ${ms(refetch.p50)}, p99 ${ms(refetch.p99)}`);

    const m = machine();
    const pgVersion = (await db.query<{ v: string }>(`select version() as v`)).rows[0]!.v.split(' on ')[0];
    const gzipNote = GZIP
      ? 'ask for the stream gzip-compressed, as browsers do, and decode it (`--gzip`)'
      : "ask for the stream uncompressed (browsers ask for gzip: `--gzip` measures that; decoding 5,000 streams is then\n  the browsers' own work done on the server's two cores)";
    const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
    const section = `## Draft night

\`npm run bench:draft\` (scripts/bench-draft.ts), run on ${new Date().toISOString().slice(0, 10)}. Machine: ${m.model}, ${m.cores} cores
(\`nproc\`), ${m.memory}; Node ${m.node}; ${pgVersion} (embedded, fsync off). The database, the server (its own process,
started as \`npm start\` starts it, LOG_LEVEL=${LOG_LEVEL}) and the load generator (another process, ${WORKERS} worker threads)
share those cores, with whatever else runs there: the 1-minute load average was ${loadBefore.rerank.toFixed(1)} when the re-rank
part began and ${loadBefore.live.toFixed(1)} when the live part began (${m.cores} = the cores fully busy).

Data: ${globalEntries.toLocaleString('en-US')} global entries and ${(counts.entries - globalEntries).toLocaleString('en-US')} group entries
(${counts.groups.toLocaleString('en-US')} groups of ${MEMBERS}, half reusing their global picks), ${counts.picks.toLocaleString('en-US')} picks.${
  PUSH_CONTROL && PUSH_SUBSCRIPTIONS > 0 ? ` A push control run: ${PUSH_SUBSCRIPTIONS.toLocaleString('en-US')} players hold the first live pick's player, no device subscribed.` : ''
}${PUSH_SUBSCRIPTIONS > 0 ? ' The server ran with NODE_ENV=development and PUSH_ALLOW_LOOPBACK_HTTP=true: the push service stand-in is plain http on this machine.' : ''}

| Measure | Target | Result |
|---|---|---|
| The operator's recordPick answered (in the bench's process, ${RECORDED} picks; its transaction writes the player's result and the audit row) | ≤ ${ms(RECORD_PICK_BOUND_MS)}, p50 and max | p50 ${ms(recordPickCall.p50)}, max ${ms(recordPickCall.max)} (${verdict(recordPickCall.max <= RECORD_PICK_BOUND_MS)}) |
| Recorded pick → global standings re-ranked, ${globalEntries.toLocaleString('en-US')} entries (${RECORDED} picks; from the pick's commit) | ≤ ${ms(RERANK_BOUND_MS)} | p50 ${ms(rerank.p50)}, max ${ms(rerank.max)} (${verdict(rerank.max <= RERANK_BOUND_MS)}) |
| … the same from the operator's call | | p50 ${ms(rerankCall.p50)}, max ${ms(rerankCall.max)} |
| The server's start-up: spawned → /healthz answered; → its entry book read whole (the read itself) | ${PARTICIPANTS >= 1_000_000 ? `≤ ${ms(STARTUP_BOUND_MS)} to the book` : ''} | ${startup ? `${ms(startup.healthMs)}; ${ms(startup.bookMs)} (${ms(startup.book.ms)}: ${startup.book.picks.toLocaleString('en-US')} picks in ${(startup.book.globalSets + startup.book.ownSets).toLocaleString('en-US')} sets)${PARTICIPANTS >= 1_000_000 ? ` (${verdict(startup.bookMs <= STARTUP_BOUND_MS)})` : ''}` : 'not measured'} |
| … the server's resident memory then | ≤ ${RSS_BOUND_MB / 1024} GB | ${startup?.rssMb ?? '–'} MB |
| Group standings, first read after a change (4 groups) | | max ${ms(Math.max(...groupTimes))} |
| Recorded pick → ${CLIENTS.toLocaleString('en-US')} live clients showing the new standings (${rounds.length} picks; from the operator's call returning) | slowest ≤ 0.5 s on every pick | ${total === 0 ? 'no live pages (`--clients 0`)' : `${shownCount}/${total} shown; p50 ${ms(toShown.p50)}, max ${ms(toShown.max)} (${verdict(allShown && toShown.max <= 500)})`} |
| … per pick, p50 / max | | ${perPick.map((s) => `${ms(s.p50)} / ${ms(s.max)}`).join(', ')} |
| … the yardstick: the same clients sent the same bytes per pick (${sample ? sample.length.toLocaleString('en-US') : '–'} a stream) by a plain Fastify process, per pick p50 / max | | ${plainText} |
| … the game's slowest page per pick against the yardstick's | | ${againstPlain} |
| … a reader polling the REST standings' ETag every ${POLL_MS} ms: new standings after the call's answer, per pick | ≤ 0.5 s | ${etagAfter('rest').map((v) => (v === undefined ? '–' : ms(v))).join(', ')} (${verdict(etagMax('rest') <= 500)}) |
| … the same for tRPC's \`leaderboard.group\` | ≤ 0.5 s | ${etagAfter('trpc').map((v) => (v === undefined ? '–' : ms(v))).join(', ')} (${verdict(etagMax('trpc') <= 500)}) |
| … the server's resident memory at each pick's end | ≤ ${RSS_BOUND_MB / 1024} GB | ${live.rounds.map((r) => r.serverRssMb ?? '–').join(', ')} MB (${verdict(rssMax > 0 && rssMax <= RSS_BOUND_MB)}) |
| … the server's garbage-collection pauses during the live part (\`--trace-gc\`, from the load generator's start to its end) | none over 50 ms | ${gcSummary(liveGc)} (${verdict(longestGc <= 50)}) |
| … recorded pick → the SSE event at each client (it comes with the page: the change waits for it; negative: before the operator's call was answered) | | ${rounds.reduce((n, r) => n + r.events, 0)}/${total} received; p50 ${ms(toEvent.p50)}, max ${ms(toEvent.max)} |
| … pages brought by the stream (no request) | | ${pushed}/${total}; ${staleCount} stale, ${errorCount} errors |
| … pages read instead (no page on the stream within ${STANDINGS_PUSH_WAIT_MS / 1000} s), sent → answered | | ${refetch.n === 0 ? 'none' : `${refetch.n} read; p50 ${ms(refetch.p50)}, p99 ${ms(refetch.p99)}; ${notModified} × 304`} |
| … the operator's recordPick call under that load | | p50 ${ms(call.p50)}, max ${ms(call.max)} |
| … the server process's CPU time per pick (user + system, from the call until every page has the new standings; PostgreSQL's not included) | | ${cpuOf(rounds.map((r) => r.serverCpuMs))} ms |
| … in the same window, the load generator's CPU time (its 5,000 clients' threads; they share the machine's cores with the server) | | ${cpuOf(rounds.map((r) => r.loadCpuMs))} ms |
| … and the whole machine's, busy of all (every process and the kernel, summed over ${m.cores} cores) | | ${rounds.map((r) => (r.machineCpu ? `${Math.round(r.machineCpu.busyMs)} / ${Math.round(r.machineCpu.totalMs)}` : '–')).join(', ')} ms |
| … the server's own fan-out per pick: from hearing the change to the last open page written, ranking included (its log's 'live fan-out written') | | ${fanOuts.map(fanOutText).join(', ') || '–'} |
${push ? `| First live pick → all ${push.devices.toLocaleString('en-US')} subscribed devices' pushes accepted by the push service stand-in (\`--push-subscriptions\`; from the pick's NOTIFY) | ≤ 10 s, the live pages unaffected | first ${ms(push.first)}, half ${ms(push.p50)}, all ${ms(push.all)} (${verdict(push.all <= 10_000)}); that pick's pages p50 / max ${perPick[0] ? `${ms(perPick[0].p50)} / ${ms(perPick[0].max)}` : '–'}, the other picks' above |
` : ''}
How it is measured:
- recordPick and the re-rank: the operator's change is recorded as the command line records it (its answer timed); the server's
  LeaderboardCache (in the benchmark's process) hears the NOTIFY and re-ranks from its entry book; the re-rank's time runs from the
  pick's commit to the ranked copy.
- Start-up: the server process (\`npm start\`'s) from its spawn to /healthz answering, and to its log saying its entry book was read
  whole (it reads it at once, ranking the global standings); its resident memory then.
- Live clients: each holds its own user's SSE stream to \`draft.changes\` exactly as the web app's \`httpSubscriptionLink\`
  opens it (read as bytes on a plain socket: scripts/lib/event-stream-client.ts), naming its standings page (\`leaderboard.group\`, group 1, 100 rows), and behaves as the web app does
  (client/src/lib/live-refresh.ts): the stream brings the page re-ranked after each change; only when it has not come within
  ${STANDINGS_PUSH_WAIT_MS / 1000} s does the client wait a random delay in [0, 1000 ms) and GET the page (If-None-Match of its last ETag). A page
  counts as showing the new standings when its content (counts, rows and the caller's own row, not bytes) equals the
  global standings ranked after the round by the game's own code from an entry book the load generator reads from the database; a 304 keeps the page as it was. ${
    PARSE_ON_RECEIPT
      ? 'A page is shown when\n  its JSON is parsed, every message parsed as it comes (`--parse-on-receipt`)'
      : "A page brought by the\n  stream is shown when its message has arrived plus the time its JSON then takes to parse (timed after the round: a\n  browser parses its page on its own device; `--parse-on-receipt` parses all 5,000 on the clock, on the server's cores)"
  }; the comparison runs after the round, off the clock. The pick is recorded through the server's tRPC
  API by an admin.
- The yardstick (\`--no-yardstick\` skips it): once the game's picks are measured, the game is stopped and the same load
  generator opens the same ${CLIENTS.toLocaleString('en-US')} streams on a plain Fastify process (scripts/lib/plain-fanout.mjs: no auth, database,
  ranking or logging). At each pick, after answering the operator's call, it writes every stream, corked, in one loop,
  the bytes one client's stream brought at the game's last pick (the change, that reader's own part and the page;
  to a client that asked for gzip, as they came on the game's wire, compressed); a page is in when it has come. What both take is the machine's (the sockets, the kernel's writes, the clients' share of
  the cores, the first pick after the streams connect); what the game takes beyond it is its own work.
- The clients ${gzipNote}.
- ${
    LOAD_NICE > 0
      ? `The load generator runs at a lower CPU priority (\`--load-nice ${LOAD_NICE}\`: \`nice -n ${LOAD_NICE}\`, every thread of it): its clients\n  stand for devices whose work never competes with the server's. They still do all their work on these cores, and a\n  page counts only once its client has taken it in.`
      : 'The load generator runs at the same CPU priority as the server (`--load-nice N` lowers it: what the sharing costs).'
  }
- Leaderboard read throughput (REST, tRPC, plain Fastify) is \`npm run bench:reads\`.
`;
    if (two) {
      const twoSection = twoInstancesSection({ two, live, m, pgVersion: pgVersion ?? 'PostgreSQL', loadBefore, counts, globalEntries, rerank });
      if (WRITE) {
        await writeSection(path.resolve('docs/benchmarks.md'), twoSection, 'Two instances behind nginx');
        log('Wrote the "Two instances behind nginx" section of docs/benchmarks.md');
      } else {
        log(twoSection);
      }
    } else if (WRITE) {
      await writeSection(path.resolve('docs/benchmarks.md'), section);
      log('Wrote the "Draft night" section of docs/benchmarks.md');
    } else {
      log(section);
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
