// `npm run bench:reads`: what one instance can serve of the reads every open page makes, as a ratio of
// what this machine can serve at all. Starts the game as `npm start` does (its own process, its own
// throwaway embedded PostgreSQL), fills it (20,000 entries, draft running, 8 picks recorded), then, in
// one run and from this process as the load generator (autocannon), measures each route beside a plain
// Fastify process serving the very same bytes. Prints req/s, p50, p99 and the ratio to the plain process.
// Options: --entries N (20000), --seconds N (10 per route), --slices N (5 turns each), --connections N (50), --write (docs/benchmarks.md),
//          --profile DIR (the game runs with --cpu-prof and leaves its profile in DIR),
//          --only TEXT[,TEXT…] (measure only the routes whose label contains one of the TEXTs, e.g. 'draft.status REST' to
//          profile one, or 'public standings,leaderboard REST' to set the spectators' route beside the players' in one run),
//          --against SPEC (a second game on the same database with FAST_PATHS=SPEC, e.g. 'on,-cors', measured in the same
//          turns: each route's gain with the game's fast paths over it, for docs/benchmarks.md's table of pieces)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { loadConfig } from '../server/src/config.js';
import { openAppDatabase } from '../server/src/db/database.js';
import { sql } from '../server/src/db/sql.js';
import { publish } from '../server/src/events/topic-bus.js';
import { loadSigningKeys } from '../server/src/modules/auth/keys.js';
import { signSessionToken } from '../server/src/modules/auth/local-idp.service.js';
import { draftSettings, recordPick, startDraft } from '../server/src/modules/draft/draft.service.js';
import { cpuMsOf } from './lib/process-cpu.js';
import { freePort } from '../server/src/free-port.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ENTRIES = opt('entries', 20_000);
const SECONDS = opt('seconds', 10);
const CONNECTIONS = opt('connections', 50);
const SLICES = opt('slices', 5);
const RECORDED = 8;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : undefined;
const against = args.includes('--against') ? args[args.indexOf('--against') + 1]! : undefined;
/** More environment for the other game only (--other-env NAME=VALUE). */
const otherEnv = args.includes('--other-env') ? Object.fromEntries([args[args.indexOf('--other-env') + 1]!.split('=')]) : {};
if (only !== undefined && args.includes('--write')) throw new Error('--only measures part of the table: it cannot --write docs/benchmarks.md');
const PAGE = 100;

/** The targets of the crowd-reads issue: share of the plain process's req/s, and p99 at 50 connections. */
const TARGETS: Record<string, number> = { 'leaderboard REST': 0.3, 'leaderboard tRPC': 0.2, 'public standings REST': 0.3, 'public standings tRPC': 0.2, 'draft.status REST': 0.35, 'auth.me REST': 0.35 };
const P99_TARGET_MS = 25;

const children: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'first-round-bench-reads-'));
// When run as root the embedded PostgreSQL runs as another user, which must reach its directory.
fs.chmodSync(dataDir, 0o755);


async function waitFor(check: () => Promise<boolean>, what: string, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** The game, started the way `npm start` starts it; its output goes to a log file beside its data. */
async function startGame(env: NodeJS.ProcessEnv, port: number, log = 'server.log'): Promise<number | undefined> {
  const out = fs.openSync(path.join(dataDir, log), 'a');
  const profileDir = args.includes('--profile') ? path.resolve(args[args.indexOf('--profile') + 1]!) : undefined;
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...profile, path.join(root, 'scripts', 'start.mjs')], { cwd: root, env, stdio: ['ignore', out, out] });
  children.push(child);
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).ok, 'the game to be ready');
  return child.pid;
}

async function startPlain(routes: Record<string, { type: string; body: string }>): Promise<{ port: number; pid: number | undefined }> {
  const file = path.join(dataDir, 'plain-routes.json');
  fs.writeFileSync(file, JSON.stringify(routes));
  const child = spawn(process.execPath, [path.join(root, 'scripts', 'lib', 'plain-server.mjs'), file], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve({ port: Number(match[1]), pid: child.pid });
    });
    child.once('exit', () => reject(new Error('the plain Fastify process exited')));
  });
}

async function fill(env: NodeJS.ProcessEnv) {
  const config = loadConfig(env);
  const db = await openAppDatabase(config, { poolMax: 2 });
  const em = db.orm.em.fork();
  const t0 = performance.now();
  await sql(em, `insert into participant (id, screen_name) select 'user_bench' || n, 'Bench ' || n from generate_series(1, $1::int) n`, [ENTRIES]);
  // 8–32 picks each, drawn mostly from the top of the board as real players would.
  await sql(
    em,
    `insert into pick (participant_id, group_id, player_id)
     select p.id, 1, c.id from participant p
     cross join lateral (select pl.id from player pl where pl.rank <= 90
                          order by md5(p.id || pl.id::text) limit 8 + abs(hashtext(p.id)) % 25) c
     where p.id like 'user_bench%'`,
  );
  const readers = ['user_bench1', 'user_bench2', 'user_bench3'];
  await sql(em, `insert into idp_user (id, email, username) select v, v || '@bench.local', null from unnest($1::text[]) v`, [readers]);
  await sql(em, `insert into idp_session (id, user_id, secret_hash) select 'sess_' || v, v, md5(v) from unnest($1::text[]) v`, [readers]);
  // Written beside the running game: announced as the app's writers announce entries, so its entry book reads them.
  await em.transactional(async (tx) => {
    for (let n = 1; n <= ENTRIES; n++) await publish(tx, 'participant', { kind: 'participant', participant_id: `user_bench${n}` });
  });
  await sql(em, 'analyze');
  const settings = draftSettings(config);
  await startDraft(em, settings, 'bench');
  const board = await sql<{ id: number }>(em, `select id from player order by rank limit $1`, [RECORDED]);
  for (const [i, player] of board.entries()) await recordPick(em, settings, 'bench', i + 1, player.id);
  console.log(`  filled ${ENTRIES} entries, draft running with ${RECORDED} picks in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await db.close();
  const keys = await loadSigningKeys({ dataDir: config.dataDir });
  const azp = config.appOrigins[0]!;
  return (user: string) => signSessionToken({ keys }, { userId: user, sessionId: `sess_${user}`, azp });
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Each turn's p99, to tell a steady tail from one bad moment. */
  p99s: number[];
  bad: number;
  /** The serving process's own CPU time per answer (µs): what a change to the server changes, whatever else the machine does. */
  cpuUs: number | undefined;
}

/** A process being measured: where to send requests, and its pid for its CPU time. */
interface Server {
  url: string;
  pid: number | undefined;
}

/** One stretch of load on one URL. */
async function stretch(server: Server, headers: Record<string, string>, seconds: number) {
  const cpu0 = cpuMsOf(server.pid);
  const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: seconds, headers });
  const cpu1 = cpuMsOf(server.pid);
  const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
  return { requests: result.requests.total, seconds, p50: result.latency.p50, p99: result.latency.p99, bad: result.non2xx + result.errors + result.timeouts, cpuMs };
}

/**
 * A route and its yardstick (and, with --against, the same route on the other game), measured in turns
 * (plain, game, other, plain, game, other…, SLICES each) so that anything else the machine does during the
 * run weighs on all alike; the ratio is then a property of the game, not of the minute it was measured in.
 * req/s over all of a side's turns; p50 their mean, p99 their worst.
 */
async function loadSides(label: string, sides: Array<Server & { name: string; headers: Record<string, string> }>): Promise<Measured[]> {
  for (const side of sides) await autocannon({ url: side.url, connections: CONNECTIONS, duration: 2, headers: side.headers }); // warm-ups, not reported
  const turns = sides.map(() => [] as Awaited<ReturnType<typeof stretch>>[]);
  for (let i = 0; i < SLICES; i++) for (const [n, side] of sides.entries()) turns[n]!.push(await stretch(side, side.headers, SECONDS / SLICES));
  const measured = (name: string, list: (typeof turns)[number]): Measured => ({
    name,
    rps: list.reduce((n, t) => n + t.requests, 0) / list.reduce((n, t) => n + t.seconds, 0),
    p50: Math.round(list.reduce((n, t) => n + t.p50, 0) / list.length),
    p99: Math.max(...list.map((t) => t.p99)),
    p99s: list.map((t) => t.p99),
    bad: list.reduce((n, t) => n + t.bad, 0),
    cpuUs: list.some((t) => t.cpuMs === undefined) ? undefined : (1000 * list.reduce((n, t) => n + t.cpuMs!, 0)) / list.reduce((n, t) => n + t.requests, 0),
  });
  return sides.map((side, n) => measured(n === 0 ? `plain Fastify, same bytes as ${label}` : side.name === 'game' ? label : `${label}, FAST_PATHS=${side.name}`, turns[n]!));
}

const cpuText = (m: Measured) => (m.cpuUs === undefined ? '–' : `${m.cpuUs.toFixed(0)} µs`);

async function main() {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SKIP_CLIENT_BUILD: '1' };
  // Always a throwaway embedded database: never fill the database a DATABASE_URL points at.
  delete env.DATABASE_URL;
  console.log(`Starting the game (npm start's way) on port ${port}, data in ${dataDir}…`);
  const gamePid = await startGame(env, port);
  console.log('Filling it…');
  const tokenFor = await fill(env);
  // The other game (--against): a second instance on the same database, its fast paths as SPEC.
  const otherPort = against === undefined ? undefined : await freePort();
  const otherPid = otherPort === undefined ? undefined : await startGame(
    // The readers' tokens name the first game's origin (its `azp`): the other one allows it too.
    { ...env, PORT: String(otherPort), CORS_ORIGINS: `http://localhost:${port}`, FAST_PATHS: against, ...otherEnv },
    otherPort,
    'other.log',
  );
  if (against !== undefined) console.log(`The other game: FAST_PATHS=${against} on port ${otherPort}`);
  const base = `http://127.0.0.1:${port}`;
  const auth = async () => ({ authorization: `Bearer ${await tokenFor('user_bench1')}` });
  const routes = {
    leaderboard: { rest: `/api/groups/1/leaderboard?limit=${PAGE}`, trpc: `/trpc/leaderboard.group?input=${encodeURIComponent(JSON.stringify({ group_id: 1, limit: PAGE }))}` },
    'draft.status': { rest: '/api/draft/status', trpc: '/trpc/draft.status' },
    'auth.me': { rest: '/api/auth/me', trpc: '/trpc/auth.me' },
    // The spectators' top 100: the same cached page as the leaderboard's, read signed out.
    'public standings': { rest: '/api/standings/public', trpc: '/trpc/leaderboard.public' },
  };
  /** Routes read as a signed-out visitor reads them: no token. */
  const signedOut = new Set(['public standings']);
  const headersFor = async (name: string): Promise<Record<string, string>> => (signedOut.has(name) ? {} : auth());
  // The game must be showing every entry before anything is measured.
  await waitFor(async () => {
    const body = (await (await fetch(base + routes.leaderboard.rest, { headers: await auth() })).json()) as { entries?: number };
    return body.entries === ENTRIES;
  }, 'the standings to count every entry');

  // The plain process serves the very bytes the game answered, route for route.
  const plainRoutes: Record<string, { type: string; body: string }> = {};
  for (const [name, paths] of Object.entries(routes)) {
    for (const [kind, p] of Object.entries(paths)) {
      const res = await fetch(base + p, { headers: await headersFor(name) });
      if (!res.ok) throw new Error(`${p} answered ${res.status}`);
      plainRoutes[`/${name}/${kind}`] = { type: res.headers.get('content-type') ?? 'application/json', body: await res.text() };
    }
  }
  const plainProcess = await startPlain(plainRoutes);
  const plain = `http://127.0.0.1:${plainProcess.port}`;

  const rows: Array<Measured & { ratio: number; bytes: number; target?: number }> = [];
  for (const [name, paths] of Object.entries(routes)) {
    for (const kind of ['rest', 'trpc'] as const) {
      const label = `${name} ${kind === 'rest' ? 'REST' : 'tRPC'}`;
      if (only !== undefined && !only.some((text) => label.includes(text))) continue;
      const headers = await headersFor(name);
      const [yardstick, game, other] = await loadSides(label, [
        { name: 'plain', url: `${plain}/${name}/${kind}`, pid: plainProcess.pid, headers: {} },
        { name: 'game', url: base + paths[kind], pid: gamePid, headers },
        ...(otherPort === undefined ? [] : [{ name: against!, url: `http://127.0.0.1:${otherPort}${paths[kind]}`, pid: otherPid, headers }]),
      ]);
      if (!yardstick || !game) throw new Error('a side was not measured');
      const bytes = plainRoutes[`/${name}/${kind}`]!.body.length;
      rows.push({ ...yardstick, ratio: 1, bytes }, { ...game, ratio: game.rps / yardstick.rps, bytes, target: TARGETS[label] });
      if (other) {
        rows.push({ ...other, ratio: other.rps / yardstick.rps, bytes });
        console.log(`  ${label}: with the game's fast paths ${game.rps.toFixed(0)} req/s, CPU ${cpuText(game)}; FAST_PATHS=${against} ${other.rps.toFixed(0)} req/s, CPU ${cpuText(other)}: gain ${((100 * game.rps) / other.rps - 100).toFixed(0)} % req/s`);
      }
      const verdict = TARGETS[label] === undefined ? '' : game.rps / yardstick.rps >= TARGETS[label]! && game.p99 <= P99_TARGET_MS ? ' ✓' : ' ✗ below target';
      console.log(`  ${label}: ${game.rps.toFixed(0)} req/s (plain ${yardstick.rps.toFixed(0)}), ${((100 * game.rps) / yardstick.rps).toFixed(0)} %, p99 ${game.p99} ms (turns ${game.p99s.join('/')}; plain ${yardstick.p99s.join('/')}); CPU per answer ${cpuText(game)} (plain ${cpuText(yardstick)})${verdict}`);
    }
  }

  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB; Node ${process.version}`;
  const table = [
    `Run ${new Date().toISOString().slice(0, 10)} on ${machine}. ${ENTRIES.toLocaleString('en-US')} entries, draft running (${RECORDED} picks), ${CONNECTIONS} connections, ${SECONDS} s per route and as long for its yardstick, in ${SLICES} alternating turns each after a 2 s warm-up; load generator, game and plain process share the machine.`,
    '',
    '| Route | Bytes | req/s | p50 | p99 | CPU per answer | Non-2xx | Share of plain | Target |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${r.bytes.toLocaleString('en-US')} | ${r.rps.toFixed(0)} | ${r.p50} ms | ${r.p99} ms | ${cpuText(r)} | ${r.bad} | ${r.ratio === 1 ? '' : `${(100 * r.ratio).toFixed(0)} %`} | ${r.target === undefined ? '' : `≥ ${r.target * 100} %, p99 ≤ ${P99_TARGET_MS} ms`} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  if (args.includes('--write')) {
    const file = path.join(root, 'docs', 'benchmarks.md');
    const doc = fs.readFileSync(file, 'utf8');
    const start = '<!-- bench:reads -->';
    const end = '<!-- /bench:reads -->';
    const from = doc.indexOf(start);
    const to = doc.indexOf(end);
    if (from < 0 || to < 0) throw new Error(`docs/benchmarks.md has no ${start} … ${end} section`);
    fs.writeFileSync(file, `${doc.slice(0, from + start.length)}\n${table}\n${doc.slice(to)}`);
    console.log('Written to docs/benchmarks.md');
  }
}

async function stopAll(keepData = false) {
  await Promise.all(
    children.map((child) =>
      child.exitCode !== null ? undefined : new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
    ),
  );
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
}

main()
  .then(() => stopAll())
  .catch(async (error: unknown) => {
    console.error(error);
    console.error(`(the game's log: ${path.join(dataDir, 'server.log')})`);
    await stopAll(true);
    process.exit(1);
  });
