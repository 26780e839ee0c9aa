import net from 'node:net';
import pg from 'pg';
import { signUpOverHttp, startServer, type ServerProcess } from './game-process.js';

/*
 * Trials of a shutdown with saves already sent: the real server as `npm start` runs it
 * (`node scripts/start.mjs`), a throwaway database (DATABASE_URL) kept from one trial to the next, and per
 * trial a fresh process that gets SIGTERM once every save has been written to its socket. Each save must get
 * a complete HTTP answer, and every save answered 200 must be in the database afterwards.
 *
 * No vitest here: server/test/lifecycle-drain.test.ts runs a few trials in the suite, and
 * `npm run drain:trials -- --trials 20` (scripts/drain-trials.ts) runs the full count.
 */

export interface DrainTrialOptions {
  /** A database of its own (migrated by the server's first start if it is not yet). */
  databaseUrl: string;
  /** DATA_DIR: where the server keeps its sign-in key, so the players' tokens outlive each process. */
  dataDir: string;
  trials: number;
  /** Saves per trial, each on a connection of its own (20). */
  saves?: number;
  /** Every `keepAliveEvery`-th save goes on a keep-alive connection that has already had an answer (4: 5 of 20). */
  keepAliveEvery?: number;
  /** Keep-alive connections left idle (no request when the signal comes): the server must close them. */
  idleConnections?: number;
  env?: Record<string, string>;
  log?: (line: string) => void;
}

/** What one save's connection got. */
export type SaveOutcome =
  | { kind: 'answer'; status: number; connection: string | undefined; body: string }
  | { kind: 'reset' | 'closed' | 'incomplete' | 'timeout'; detail: string };

export interface DrainTrialResult {
  trial: number;
  outcomes: SaveOutcome[];
  /** Saves answered 200, and of those the ones not found in the database afterwards. */
  ok: number;
  lost: string[];
  /** How each idle keep-alive connection ended: 'closed' is what is wanted (the server closed it). */
  idle: string[];
  /** GET /readyz on a new connection once the server has said it is shutting down (during the pause). */
  readyz: SaveOutcome | undefined;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  /** From the signal to the process's exit. */
  stopMs: number;
}

/** The server as `npm start` runs it, with what every trial shares. */
function startTrialServer(options: DrainTrialOptions): Promise<ServerProcess> {
  return startServer({
    dataDir: options.dataDir,
    env: {
      // The same in every trial: a session token names the origin it was made for (its `azp`).
      PUBLIC_URL: 'http://drain.test',
      DATABASE_URL: options.databaseUrl,
      REMINDERS: 'false',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
}

// ------------------------------------------------------------------------------------ raw HTTP

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes of the buffer this answer took. */
  length: number;
}

/** The first complete HTTP/1.1 answer at the start of `buffer` (Content-Length or chunked), or null. */
function parseAnswer(buffer: Buffer): Parsed | null {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...headerLines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let offset = end + 4;
  if (headers['transfer-encoding']?.includes('chunked')) {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', offset);
      if (lineEnd < 0) return null;
      const size = parseInt(buffer.subarray(offset, lineEnd).toString('latin1'), 16);
      if (buffer.length < lineEnd + 2 + size + 2) return null;
      parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) return { status, headers, body: Buffer.concat(parts).toString('utf8'), length: offset };
    }
  }
  const size = Number(headers['content-length'] ?? 0);
  if (buffer.length < offset + size) return null;
  return { status, headers, body: buffer.subarray(offset, offset + size).toString('utf8'), length: offset + size };
}

/** A raw connection: what it has read so far, and how it ended. */
class Connection {
  readonly socket: net.Socket;
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  ended: string | undefined;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.ended ??= error.code ?? error.message;
      this.wake?.();
    });
    this.socket.on('close', () => {
      this.ended ??= 'closed';
      this.wake?.();
    });
  }

  connected() {
    return new Promise<void>((resolve, reject) => {
      this.socket.once('connect', resolve);
      this.socket.once('error', reject);
    });
  }

  /** Resolves once the bytes are handed to the kernel. */
  write(bytes: string) {
    return new Promise<void>((resolve, reject) => this.socket.write(bytes, (error) => (error ? reject(error) : resolve())));
  }

  /** The next complete answer, or how the connection ended without one. */
  async answer(ms: number): Promise<SaveOutcome> {
    const deadline = Date.now() + ms;
    for (;;) {
      const parsed = parseAnswer(this.buffer);
      if (parsed) {
        this.buffer = this.buffer.subarray(parsed.length);
        return { kind: 'answer', status: parsed.status, connection: parsed.headers.connection, body: parsed.body };
      }
      if (this.ended !== undefined) {
        if (this.buffer.length > 0) return { kind: 'incomplete', detail: `${this.ended} after ${this.buffer.length} bytes` };
        return { kind: this.ended === 'ECONNRESET' ? 'reset' : 'closed', detail: this.ended };
      }
      if (Date.now() > deadline) return { kind: 'timeout', detail: `no answer within ${ms} ms` };
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, 50);
      });
      this.wake = undefined;
    }
  }

  /** How the connection ended (for one that should get no answer): 'closed', 'ECONNRESET', or 'open'. */
  async end(ms: number): Promise<string> {
    const deadline = Date.now() + ms;
    while (this.ended === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    return this.buffer.length > 0 ? `data (${this.buffer.length} bytes) then ${this.ended ?? 'open'}` : (this.ended ?? 'open');
  }
}

const request = (method: string, url: string, headers: Record<string, string>, body?: string) =>
  [
    `${method} ${url} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body === undefined ? [] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
    '',
    body ?? '',
  ].join('\r\n');

// ------------------------------------------------------------------------------------ players

interface Player {
  email: string;
  /** The session cookie: a new bearer token from /idp/token each trial (they last a minute). */
  cookie: string;
  authorization: string;
}

async function signUp(port: number, db: pg.Client, username: string): Promise<Player> {
  const player = await signUpOverHttp(`http://127.0.0.1:${port}`, db, username);
  // The first signed-in call makes the player's participant row.
  const me = await fetch(`http://127.0.0.1:${port}/api/picks/my-picks`, { headers: { authorization: player.authorization } });
  if (me.status !== 200) throw new Error(`my-picks: ${me.status} ${await me.text()}`);
  return player;
}

/** A fresh bearer token for the player's session. */
async function refresh(port: number, player: Player): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${port}/idp/token`, { method: 'POST', headers: { cookie: player.cookie } });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  player.authorization = `Bearer ${((await res.json()) as { token: string }).token}`;
}

// ------------------------------------------------------------------------------------ the trials

export async function runDrainTrials(options: DrainTrialOptions): Promise<DrainTrialResult[]> {
  const saves = options.saves ?? 20;
  const keepAliveEvery = options.keepAliveEvery ?? 4;
  const idleConnections = options.idleConnections ?? 2;
  const log = options.log ?? (() => {});
  const db = new pg.Client({ connectionString: options.databaseUrl });
  await db.connect();
  const results: DrainTrialResult[] = [];
  const players: Player[] = [];
  let board: number[] = [];
  try {
    for (let trial = 0; trial < options.trials; trial++) {
      const server = await startTrialServer(options);
      try {
        if (trial === 0) {
          const run = Date.now().toString(36);
          for (let i = 0; i < saves; i++) players.push(await signUp(server.port, db, `drain${run}p${i}`));
          board = (await db.query<{ id: number }>(`select id from player order by rank limit ${saves + options.trials + 1}`)).rows.map((r) => r.id);
          if (board.length < saves + options.trials) throw new Error('the board is too small for this many trials');
        } else {
          await Promise.all(players.map((p) => refresh(server.port, p)));
        }
        // Each trial saves other picks: what is in the database afterwards is this trial's save, or an older one.
        const picksOf = (i: number) => [board[i]!, board[saves + trial]!].sort((a, b) => a - b);
        const saveRequest = (i: number) => request('POST', '/api/picks/', { authorization: players[i]!.authorization }, JSON.stringify({ picks: picksOf(i) }));
        const warm = (i: number) => request('GET', '/api/picks/my-picks', { authorization: players[i % saves]!.authorization });

        // Keep-alive connections, each with one answer already: every `keepAliveEvery`-th save is a second
        // request on a connection the server has read from, and the idle ones get no request at all.
        const kept = new Map<number, Connection>();
        for (let i = keepAliveEvery - 1; i < saves; i += keepAliveEvery) kept.set(i, new Connection(server.port));
        const idle = Array.from({ length: idleConnections }, () => new Connection(server.port));
        await Promise.all(
          [...kept.values(), ...idle].map(async (c, i) => {
            await c.connected();
            await c.write(warm(i));
            const first = await c.answer(10_000);
            if (first.kind !== 'answer' || first.status !== 200) throw new Error(`warming a keep-alive connection: ${JSON.stringify(first)}`);
          }),
        );
        // The others are new: connected and written at once, as fast as a client can, so the signal may find
        // them anywhere from the kernel's accept queue to a request being read.
        const connections = players.map((_, i) => kept.get(i) ?? new Connection(server.port));

        // Every save written to its socket, then the signal.
        await Promise.all(connections.map((c, i) => c.write(saveRequest(i))));
        const signalled = Date.now();
        process.kill(server.child.pid!, 'SIGTERM');

        // Once the server says so, the drain has begun: /readyz answers 503 while the listener still accepts.
        let readyz: SaveOutcome | undefined;
        const probe = (async () => {
          const deadline = Date.now() + 10_000;
          while (!server.lines.some((l) => l.includes('received: finishing requests')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
          const c = new Connection(server.port);
          try {
            await c.write(request('GET', '/readyz', {}));
            readyz = await c.answer(10_000);
          } catch (error) {
            // The listener already closed (the connection refused).
            readyz = { kind: 'closed', detail: (error as NodeJS.ErrnoException).code ?? String(error) };
          } finally {
            c.socket.destroy();
          }
        })();
        const outcomes = await Promise.all(connections.map((c) => c.answer(30_000)));
        await probe;
        const idleEnds = await Promise.all(idle.map((c) => c.end(30_000)));
        let timer: NodeJS.Timeout | undefined;
        const exit = await Promise.race([server.exited, new Promise<{ code: null; signal: null }>((r) => (timer = setTimeout(() => r({ code: null, signal: null }), 60_000)))]);
        clearTimeout(timer);
        const stopMs = Date.now() - signalled;
        for (const c of [...connections, ...idle]) c.socket.destroy();

        const stored = await db.query<{ email: string; picks: number[] }>(
          `select lower(pt.email) as email, array_agg(p.player_id order by p.player_id) as picks
             from pick p join participant pt on pt.id = p.participant_id where p.group_id = 1 group by pt.email`,
        );
        const byEmail = new Map(stored.rows.map((r) => [r.email, r.picks]));
        const acknowledged = outcomes.map((o, i) => (o.kind === 'answer' && o.status === 200 ? i : -1)).filter((i) => i >= 0);
        const lost = acknowledged.filter((i) => JSON.stringify(byEmail.get(players[i]!.email)) !== JSON.stringify(picksOf(i))).map((i) => players[i]!.email);
        const result: DrainTrialResult = { trial: trial + 1, outcomes, ok: acknowledged.length, lost, idle: idleEnds, readyz, exit, stopMs };
        results.push(result);
        log(summarize(result));
      } finally {
        server.kill();
      }
    }
  } finally {
    await db.end();
  }
  return results;
}

/** One line per trial: '20/20 answered 200, 0 lost, idle: closed closed, exit 0 in 1234 ms' and what else there was. */
export function summarize(result: DrainTrialResult): string {
  const counts = new Map<string, number>();
  for (const o of result.outcomes) {
    const key = o.kind === 'answer' ? String(o.status) : o.kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const other = [...counts].filter(([k]) => k !== '200').map(([k, n]) => `${n}× ${k}`);
  return (
    `trial ${result.trial}: ${result.ok}/${result.outcomes.length} answered 200${other.length ? ` (${other.join(', ')})` : ''}, ` +
    `${result.lost.length} lost, idle keep-alive: ${result.idle.join(' ') || 'none'}, ` +
    `/readyz: ${result.readyz?.kind === 'answer' ? result.readyz.status : (result.readyz?.kind ?? 'not asked')}, exit ${result.exit.code ?? result.exit.signal ?? 'none'} ${result.stopMs} ms after SIGTERM`
  );
}
