// The draft-night load generator, a process of its own (started by bench-draft.ts): N live clients in
// worker threads (bench-draft-clients.ts), each an open leaderboard page with its own user's SSE stream,
// and the operator, who records picks through the server's tRPC API as the admin page does. For each
// recorded pick it measures, from the operator's call returning, when every client got the event and when
// its page showed the new standings; what a page should show comes from the standings ranked here, by the
// game's own ranking code, from an entry book this process reads from the database (independent of the
// server's book and caches). Writes the figures to
// `resultFile`. With `plain`, the same clients measure the plain fan-out yardstick (lib/plain-fanout.mjs) the
// same way instead. Usage: node --import tsx scripts/bench-draft-load.ts <options.json>
import fs from 'node:fs';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { IsolationLevel } from '@mikro-orm/core';
import { openOrm } from '../server/src/db/orm.js';
import { rankGlobal } from '../server/src/modules/leaderboard/ranking.js';
import { loadBook } from '../server/src/modules/standings/book.repository.js';
import { loadSigningKeys } from '../server/src/modules/auth/keys.js';
import { signSessionToken } from '../server/src/modules/auth/local-idp.service.js';
import { leaderboardPath, nextPickPlayer, now, ownRow, PAGE_INPUT, showing, summary } from './lib/bench-live.js';
import { cpuMsOf, machineCpuMs, rssMbOf } from './lib/process-cpu.js';
import type { ClientKind, ClientsInit, FromWorker, RoundRecord, ToWorker } from './bench-draft-clients.js';

export interface LoadOptions {
  /** Where the clients connect: the server, or nginx in front of the instances. */
  base: string;
  /** Where the operator records picks (one instance, directly); `base` when absent. */
  operatorBase?: string;
  databaseUrl: string;
  dataDir: string;
  azp: string;
  /** The clients' user ids (each has an idp session `sess_<id>`). */
  users: string[];
  operator: string;
  picks: number;
  roundOnePicks: number;
  workers: number;
  jitterMs: number;
  /** The clients ask for gzip-compressed streams, as browsers do. */
  gzip: boolean;
  /** The clients parse every stream message as it comes, on the clock (bench-draft-clients.ts). */
  parseOnReceipt: boolean;
  /** How the clients read their streams: the generator's own way, or as a browser does (bench-draft-clients.ts). */
  kind: ClientKind;
  /** Slow readers beside the clients, in a worker of their own: their streams read at most `kbps` KB a second; not measured. */
  slow?: { users: string[]; kbps: number };
  /** Readers that poll the standings' ETag (REST and tRPC) every this many ms during each pick; 0: none. */
  pollMs: number;
  /** The server's process, whose CPU time each round reads from /proc (Linux). */
  serverPid?: number;
  /** More processes (name → pid: the instances and nginx) whose CPU time and memory each round reads from /proc. */
  processes?: Record<string, number>;
  roundTimeoutMs: number;
  resultFile: string;
  /**
   * `base` is the plain fan-out yardstick (lib/plain-fanout.mjs), not the game: a pick is its `POST /pick`, and
   * a page counts as shown when the pick's page came on its stream (fixed bytes: there is nothing to compare).
   */
  plain?: boolean;
}

export interface LoadResult {
  clients: number;
  connected: number;
  /** Live streams per instance (HOST:PORT from nginx's X-Upstream header; empty without nginx). */
  upstreams: Record<string, number>;
  failed: number;
  rounds: RoundResult[];
  /** One client's stream bytes at the last pick, as they came (base64): what the plain yardstick sends. */
  sample?: string;
  /** The same bytes as they came on the wire, when the stream was compressed (base64). */
  wireSample?: string;
}

export interface RoundResult {
  slot: number;
  player: string;
  /** The operator's recordPick call, sent to answered. */
  callMs: number;
  /**
   * The server process's CPU time (user + system) from the call until every page is in (the round's end if
   * some never is; PostgreSQL's not included).
   */
  serverCpuMs?: number;
  /** The server process's resident memory (MB) at the round's end. */
  serverRssMb?: number;
  /**
   * The same window's CPU: this load generator's (its clients' threads and the operator), and the whole
   * machine's, busy of all (the cores × the window): whether the two cores, not the server, set the pace.
   */
  loadCpuMs?: number;
  machineCpu?: { busyMs: number; totalMs: number };
  /** The same CPU for each of `processes`, and their resident memory (MB) at the round's end. */
  cpuMs?: Record<string, number | undefined>;
  rssMb?: Record<string, number | undefined>;
  /** The slowest page per instance (by the X-Upstream header of its stream's answer, when nginx adds one). */
  maxShownBy?: Record<string, number>;
  clients: number;
  events: number;
  shown: number;
  stale: number;
  notModified: number;
  /** Pages brought by the stream (the rest were read after the wait). */
  pushed: number;
  errors: string[];
  /** From the call's answer: the event at each client; the new standings on each client's page. */
  toEvent: number[];
  toShown: number[];
  /** Each read made because no page came on the stream in time, sent to answered. */
  refetch: number[];
  /** From the call's answer: when a reader polling the ETag every `pollMs` first got the new standings, by read (REST, tRPC). */
  etagMoved?: Record<string, number | undefined>;
}

const options = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadOptions;
const log = (line: string) => process.stderr.write(`${line}\n`);
const url = new URL(options.operatorBase ?? options.base);

function call(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        agent: false,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The standings reads a player polls (the REST adapter's and tRPC's), their answers' ETag changing with the standings. */
const POLLED = { rest: `/api/groups/${PAGE_INPUT.group_id}/leaderboard?limit=${PAGE_INPUT.limit}`, trpc: leaderboardPath };
const pollAgent = new http.Agent({ keepAlive: true, maxSockets: 2 });

function etagOf(path: string, token: string): Promise<string | undefined> {
  const base = new URL(options.base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, agent: pollAgent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? (res.headers.etag as string | undefined) : undefined));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A reader polling a standings read every `pollMs` (each read after the previous answer) from now until its
 * ETag is no longer `before` or `stop()` is called: resolves with when the new one was first answered.
 */
function pollUntilMoved(path: string, token: string, before: string | undefined, pollMs: number) {
  let stopped = false;
  const moved = (async () => {
    while (!stopped) {
      const etag = await etagOf(path, token).catch(() => undefined);
      if (etag !== undefined && etag !== before) return now();
      await new Promise((r) => setTimeout(r, pollMs));
    }
    return undefined;
  })();
  return { moved, stop: () => (stopped = true) };
}

interface CpuReadings {
  server?: number;
  load?: number;
  machine?: { busy: number; total: number };
  processes: (number | undefined)[];
}

const processes = Object.entries(options.processes ?? {});

/** CPU time so far: the server's, this load generator's (all its threads), the machine's, and `processes`'. */
function cpuReadings(): CpuReadings {
  return { server: cpuMsOf(options.serverPid), load: cpuMsOf(process.pid), machine: machineCpuMs(), processes: processes.map(([, pid]) => cpuMsOf(pid)) };
}

async function main() {
  const workerCount = Math.max(1, Math.min(options.workers, options.users.length));
  const slow = options.slow && options.slow.users.length > 0 ? options.slow : undefined;
  const workers: Worker[] = [];
  const inbox = new Map<Worker, FromWorker[]>();
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());
  /** Waits until every worker sent a message of `type` (taking it), or the deadline passes. */
  const fromAll = async <T extends FromWorker['type']>(type: T, timeoutMs = Infinity): Promise<Extract<FromWorker, { type: T }>[]> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const got = workers.map((w) => inbox.get(w)!.find((m) => m.type === type));
      if (got.every(Boolean) || Date.now() >= until) {
        for (const w of workers) {
          const box = inbox.get(w)!;
          const at = box.findIndex((m) => m.type === type);
          if (at >= 0) box.splice(at, 1);
        }
        return got.filter(Boolean) as Extract<FromWorker, { type: T }>[];
      }
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(done, Math.max(1, Math.min(1000, until - Date.now())));
        waiters.add(done);
      });
    }
  };
  const tell = (message: ToWorker) => workers.forEach((w) => w.postMessage(message));
  /**
   * The round's CPU readings, taken when every worker's pages are in (or, failing that, at the round's end);
   * then the workers report what their pages show (parsing them sooner would take cores other clients need).
   */
  let allIn = 0;
  let cpuAtAllIn: CpuReadings | undefined;
  const onAllIn = () => {
    // The measured clients' workers (the slow readers' is not waited for).
    if (++allIn !== workerCount) return;
    cpuAtAllIn = cpuReadings();
    tell({ type: 'report' });
  };

  log(
    `  ${options.users.length} clients (${options.kind === 'browser' ? 'browser-like' : "the generator's own"}) in ${workerCount} worker threads${options.slow?.users.length ? `, ${options.slow.users.length} slow readers (${options.slow.kbps} KB/s each) in one more` : ''}: opening their live streams and pages…`,
  );
  const openedAt = now();
  for (let i = 0; i < workerCount + (slow ? 1 : 0); i++) {
    const init: ClientsInit = {
      base: options.base,
      dataDir: options.dataDir,
      azp: options.azp,
      users: i === workerCount ? slow!.users : options.users.filter((_, j) => j % workerCount === i),
      jitterMs: options.jitterMs,
      gzip: options.gzip,
      parseOnReceipt: options.parseOnReceipt,
      sample: i === 0 && !options.plain,
      kind: i === workerCount ? 'bench' : options.kind,
      ...(i === workerCount ? { throttleKBps: slow!.kbps } : {}),
    };
    const worker = new Worker(new URL('./lib/tsx-worker.mjs', import.meta.url), {
      workerData: { ...init, module: new URL('./bench-draft-clients.ts', import.meta.url).href },
    });
    inbox.set(worker, []);
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'log') log(`  ${m.line}`);
      else if (m.type === 'allIn') onAllIn();
      else inbox.get(worker)!.push(m);
      wake();
    });
    worker.on('error', (error) => {
      log(`worker failed: ${error.stack ?? error.message}`);
      process.exit(1);
    });
    workers.push(worker);
  }
  const ready = await fromAll('ready');
  const connected = ready.reduce((n, r) => n + r.connected, 0);
  const failed = ready.flatMap((r) => r.failed);
  const upstreams: Record<string, number> = {};
  for (const r of ready) for (const [name, n] of Object.entries(r.upstreams)) upstreams[name] = (upstreams[name] ?? 0) + n;
  if (Object.keys(upstreams).length > 0) log(`  live streams per instance: ${Object.entries(upstreams).map(([name, n]) => `${name} ${n}`).join(', ')}`);
  log(`  ${connected}/${options.users.length + (slow?.users.length ?? 0)} live streams open and pages loaded in ${((now() - openedAt) / 1000).toFixed(1)} s`);
  for (const line of failed.slice(0, 5)) log(`    ${line}`);

  const keys = await loadSigningKeys({ dataDir: options.dataDir });
  const operatorToken = () => signSessionToken({ keys }, { userId: options.operator, sessionId: `sess_${options.operator}`, azp: options.azp });
  // The operator's first call sets up their participant row: not part of any measured pick (the yardstick has none).
  if (!options.plain) {
    const warm = await call('GET', '/trpc/auth.me', await operatorToken());
    if (warm.status !== 200) throw new Error(`operator sign-in failed: ${warm.status} ${warm.text}`);
  }

  const db = options.plain ? undefined : new pg.Client({ connectionString: options.databaseUrl });
  await db?.connect();
  const rounds: RoundResult[] = [];
  let sample: string | undefined;
  let wireSample: string | undefined;
  try {
    for (let round = 1; round <= options.picks; round++) {
      const { slot, player } = db ? await nextPick(db, options.roundOnePicks) : { slot: round, player: { id: 0, player_name: 'the same bytes' } };
      tell({ type: 'prepare' });
      await fromAll('prepared');
      tell({ type: 'round' });
      await fromAll('roundOpen');
      const token = await operatorToken();
      // A player reading the standings by polling (REST and tRPC), each from its ETag before the pick.
      const reader = options.users[0] ?? options.operator;
      const readerToken = await signSessionToken({ keys }, { userId: reader, sessionId: `sess_${reader}`, azp: options.azp });
      const pollers =
        options.pollMs > 0
          ? await Promise.all(Object.entries(POLLED).map(async ([name, path]) => [name, pollUntilMoved(path, readerToken, await etagOf(path, readerToken), options.pollMs)] as const))
          : [];
      allIn = 0;
      cpuAtAllIn = undefined;
      const cpu0 = cpuReadings();
      const sent = now();
      const answer = db ? await call('POST', '/trpc/draft.recordPick', token, { slot, player_id: player.id }) : await call('POST', '/pick', token);
      const answered = now();
      if (answer.status !== 200) throw new Error(`recordPick failed: ${answer.status} ${answer.text}`);
      const reports = await fromAll('roundDone', options.roundTimeoutMs);
      if (reports.length < workers.length) {
        tell({ type: 'collect' });
        reports.push(...(await fromAll('roundDone', 10_000)));
      }
      const polled = await Promise.all(
        pollers.map(async ([name, poller]) => {
          setTimeout(poller.stop, 10_000).unref();
          const at = await poller.moved;
          return [name, at === undefined ? undefined : at - answered] as const;
        }),
      );
      const cpu1 = cpuAtAllIn ?? cpuReadings();
      const spent = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined ? b - a : undefined);
      const records: RoundRecord[] = reports.flatMap((r) => r.records);
      sample = reports.find((r) => r.sample)?.sample ?? sample;
      wireSample = reports.find((r) => r.wireSample)?.wireSample ?? wireSample;
      // Refetches past the round's time still run: the next pick waits for them (rounds never overlap).
      tell({ type: 'drain' });
      const drainedAll = (await fromAll('drained', 300_000)).length === workers.length;
      if (!drainedAll) log('  some refetches still unanswered after 5 minutes: the next round overlaps');

      // What every page should show now: the standings as ranked here from the facts (read whole: only when
      // there are pages to compare), or on the yardstick the pick's page.
      const fresh = db && records.length > 0 ? await freshness(options.databaseUrl, options.roundOnePicks) : (r: RoundRecord) => r.via === 'push';
      const result: RoundResult = {
        slot,
        player: player.player_name,
        callMs: answered - sent,
        serverCpuMs: spent(cpu0.server, cpu1.server),
        serverRssMb: rssMbOf(options.serverPid),
        loadCpuMs: spent(cpu0.load, cpu1.load),
        machineCpu: cpu0.machine && cpu1.machine ? { busyMs: cpu1.machine.busy - cpu0.machine.busy, totalMs: cpu1.machine.total - cpu0.machine.total } : undefined,
        ...(processes.length > 0
          ? {
              cpuMs: Object.fromEntries(processes.map(([name], i) => [name, spent(cpu0.processes[i], cpu1.processes[i])])),
              rssMb: Object.fromEntries(processes.map(([name, pid]) => [name, rssMbOf(pid)])),
              maxShownBy: {},
            }
          : {}),
        clients: records.length,
        events: 0,
        shown: 0,
        stale: 0,
        notModified: 0,
        pushed: 0,
        errors: [],
        toEvent: [],
        toShown: [],
        refetch: [],
        ...(polled.length > 0 ? { etagMoved: Object.fromEntries(polled) } : {}),
      };
      for (const r of records) {
        if (r.eventAt === undefined) continue;
        result.events++;
        result.toEvent.push(r.eventAt - answered);
        if (r.doneAt === undefined) continue;
        if (r.via === 'push') result.pushed++;
        else if (r.sentAt !== undefined) result.refetch.push(r.doneAt - r.sentAt);
        if (r.status === 304) result.notModified++;
        if (r.error) {
          if (result.errors.length < 5) result.errors.push(`${r.user}: ${r.error}`);
          continue;
        }
        if (fresh(r)) {
          result.shown++;
          result.toShown.push(r.doneAt - answered);
          if (result.maxShownBy && r.upstream) result.maxShownBy[r.upstream] = Math.max(result.maxShownBy[r.upstream] ?? 0, r.doneAt - answered);
        } else result.stale++;
      }
      const e = summary(result.toEvent);
      const s = summary(result.toShown);
      log(
        `  pick ${slot} (${player.player_name}): call ${result.callMs.toFixed(0)} ms; events ${result.events}/${result.clients} (p50 ${e.p50.toFixed(0)}, max ${e.max.toFixed(0)} ms); ` +
          `new standings shown ${result.shown}/${result.clients} (p50 ${s.p50.toFixed(0)}, max ${s.max.toFixed(0)} ms; ${result.pushed} pushed); ${result.notModified} × 304, ${result.stale} stale, ${result.errors.length} errors; ` +
          `the server's CPU ${result.serverCpuMs ?? '–'} ms, RSS ${result.serverRssMb ?? '–'} MB; the load generator's CPU ${result.loadCpuMs ?? '–'} ms; ` +
          `the machine ${result.machineCpu ? `${Math.round(result.machineCpu.busyMs)} of ${Math.round(result.machineCpu.totalMs)} ms busy` : '–'}` +
          (result.etagMoved ? `; ETag moved after ${Object.entries(result.etagMoved).map(([name, v]) => `${name} ${v === undefined ? '–' : v.toFixed(0)}`).join(', ')} ms` : '') +
          (result.cpuMs
            ? `; CPU ${Object.entries(result.cpuMs).map(([name, v]) => `${name} ${v ?? '–'}`).join(', ')} ms; RSS ${Object.entries(result.rssMb ?? {}).map(([name, v]) => `${name} ${v ?? '–'}`).join(', ')} MB` +
              `; slowest page by instance ${Object.entries(result.maxShownBy ?? {}).map(([name, v]) => `${name} ${v.toFixed(0)}`).join(', ')} ms`
            : ''),
      );
      for (const line of result.errors) log(`    ${line}`);
      rounds.push(result);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await db?.end();
    tell({ type: 'close' });
  }
  const result: LoadResult = { clients: options.users.length, connected, upstreams, failed: failed.length, rounds, sample, wireSample };
  fs.writeFileSync(options.resultFile, JSON.stringify(result));
}

/** The next round-one slot and the player the operator records in it. */
async function nextPick(db: pg.Client, roundOnePicks: number) {
  const [{ slot }] = (await db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_round = 1`)).rows as [{ slot: number }];
  const player = await nextPickPlayer(db);
  if (!player || slot > roundOnePicks) throw new Error('no slot or player left for another pick');
  return { slot, player };
}

/**
 * Whether a client's page shows what it should now, by the global standings ranked here from the facts as
 * they are (an entry book read whole, ranked by the game's code; the draft does not move meanwhile).
 */
async function freshness(databaseUrl: string, roundOnePicks: number): Promise<(r: RoundRecord) => boolean> {
  const orm = await openOrm(databaseUrl, 1);
  try {
    const book = await orm.em.fork().transactional((tx) => loadBook(tx, roundOnePicks), { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
    const ranking = rankGlobal(book);
    const page = showing({ draft_started: true, entries: ranking.length, alive: ranking.alive, rankings: ranking.slice(0, PAGE_INPUT.limit), me: null }).page;
    return (r) => r.showing?.page === page && r.showing.me === ownRow(ranking.get(r.user) ?? null);
  } finally {
    await orm.close(true);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`load generator failed: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  },
);
