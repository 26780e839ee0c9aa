// A worker thread of the draft-night load generator (bench-draft-load.ts): a share of the live clients,
// each behaving like an open leaderboard page in the web app (client/src/lib/live-refresh.ts). It holds
// its user's SSE subscription to `draft.changes`, naming its standings page; after every change the
// stream brings that page re-ranked. Only if it has not come within STANDINGS_PUSH_WAIT_MS does the page
// wait its random jitter in [0, 1000 ms) and GET the page with If-None-Match of the last ETag. Records
// when the event came, when the new page was in (and how), and what the page then shows.
//
// A pushed page is in when its message has arrived, plus the time decoding and parsing its JSON takes: a
// browser does that on its own device (~0.1 ms), whereas 5,000 here would queue on the two cores the server
// needs (a third of a second of CPU per pick). So on receipt the stream is read as bytes and only the
// message's head is read (its kind, change and group, as the server writes them first); the page is decoded
// and parsed after the round, timed, and that time added. `--parse-on-receipt` parses every message as it
// comes, as this generator once did. The streams are read on plain sockets (lib/event-stream-client.ts).
//
// `kind: 'browser'`: each page's stream as a browser's EventSource reads it instead: node:http on a connection
// of its own, Accept-Encoding as a browser sends it, the body decoded (gunzip) and read as text as it comes,
// and every message's JSON parsed on arrival (as tRPC's client does). With `throttleKBps` this worker's
// clients are slow readers instead: their streams read at most that many KB a second, and they are not measured.
// Comparing the page with the reference (hashing its rows) is the benchmark's own check and also waits
// until the round is over, off the clock and off the server's cores.
import http from 'node:http';
import type net from 'node:net';
import zlib from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';
import { STANDINGS_PUSH_WAIT_MS } from '@first-round/shared/constants';
import type { Leaderboard, LiveMessage, StandingsMine, StandingsPage } from '@first-round/shared/schemas';
import { assembleStandings } from '@first-round/shared/live-standings';
import { loadSigningKeys } from '../server/src/modules/auth/keys.js';
import { signSessionToken } from '../server/src/modules/auth/local-idp.service.js';
import { changesPath, leaderboardPath, messageHead, now, SseParser, showing, type MessageHead, type Showing } from './lib/bench-live.js';
import { openEventStream } from './lib/event-stream-client.js';

/**
 * What a page received shows, once the round is over: a tRPC answer, or the stream's page put
 * together with the reader's own part last sent on that stream, as the web app does
 * (shared/src/live-standings.ts); and how long parsing its JSON took.
 */
const showingOf = (page: Buffer, mine: string | undefined): { showing: Showing; parseMs: number } => {
  const start = now();
  const parsed = JSON.parse(page.toString('utf8')) as StandingsPage | { result: { data: Leaderboard } };
  if ('result' in parsed) return { showing: showing(parsed.result.data), parseMs: now() - start };
  const own = JSON.parse(mine!) as StandingsMine;
  const parseMs = now() - start;
  return { showing: showing(assembleStandings(parsed, own)!.leaderboard), parseMs };
};

export interface ClientsInit {
  base: string;
  dataDir: string;
  azp: string;
  users: string[];
  /** Random delay before the refetch, as the web app waits after an event. */
  jitterMs: number;
  /** Ask for the stream gzip-compressed, as browsers do, and decode it. */
  gzip: boolean;
  /** Parse every stream message as it comes, on the clock (see the head of this file). */
  parseOnReceipt: boolean;
  /** Keep the bytes this worker's first client's stream brings during each round: the plain yardstick sends them. */
  sample: boolean;
  /** How each stream is read: the generator's own way (plain sockets, bytes), or as a browser reads it. */
  kind: ClientKind;
  /** Slow readers: each stream reads at most this many KB a second; none of their pages is measured. */
  throttleKBps?: number;
}

export type ClientKind = 'bench' | 'browser';

/** What a browser's EventSource sends (Chromium's, with zstd). */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** One client's part of a round: from the event to what its page shows after the refetch. */
export interface RoundRecord {
  user: string;
  eventAt?: number;
  sentAt?: number;
  doneAt?: number;
  /** How the page got its new standings: on the stream, or by reading them (no push in time). */
  via?: 'push' | 'read';
  status?: number;
  error?: string;
  showing?: Showing;
  /** The instance holding the client's stream (nginx's X-Upstream header), when there is a proxy that says. */
  upstream?: string;
  /** The page behind `showing`, as received, until the round is reported. */
  page?: Buffer;
  /** With a page from the stream: the reader's own part it was shown with. */
  mine?: string;
}

export type ToWorker = { type: 'prepare' } | { type: 'round' } | { type: 'report' } | { type: 'collect' } | { type: 'drain' } | { type: 'close' };
export type FromWorker =
  | { type: 'ready'; connected: number; failed: string[]; upstreams: Record<string, number> }
  | { type: 'prepared' }
  | { type: 'roundOpen' }
  | { type: 'allIn' }
  | { type: 'drained' }
  | { type: 'roundDone'; records: RoundRecord[]; sample?: string; wireSample?: string }
  | { type: 'log'; line: string };

interface Client {
  user: string;
  token: string;
  tokenAt: number;
  agent: http.Agent;
  sse?: net.Socket;
  connected: boolean;
  /** nginx's X-Upstream header on the stream's answer: the instance holding it. */
  upstream?: string;
  etag?: string;
  /** The page on screen, as received, and the own part shown with it when it came on the stream. */
  page?: Buffer;
  pageMine?: string;
  /** The reader's own part last sent on the stream (`standings_me`): it holds until a changed one comes. */
  mine?: { groupId: number; text: string };
  record?: RoundRecord;
  /** The newest change heard: a pushed page older than it is not shown. */
  lastChange: number;
  /** The read made if the page does not come on the stream in time. */
  fallback?: NodeJS.Timeout;
}

const init = workerData as ClientsInit;
const port = parentPort!;
const send = (message: FromWorker) => port.postMessage(message);
const url = new URL(init.base);
const keys = await loadSigningKeys({ dataDir: init.dataDir });
/** Tokens live 60 s (SESSION_TOKEN_TTL_S): re-signed before a round when older than this. */
const TOKEN_REFRESH_MS = 30_000;

/** A token with at least half its minute left, as the web app keeps one (signing is not part of any figure). */
const freshToken = async (client: Client) => {
  if (Date.now() - client.tokenAt < TOKEN_REFRESH_MS) return;
  client.token = await signSessionToken({ keys }, { userId: client.user, sessionId: `sess_${client.user}`, azp: init.azp });
  client.tokenAt = Date.now();
};

const clients: Client[] = init.users.map((user) => ({
  user,
  token: '',
  tokenAt: 0,
  // A browser tab has its own connections: the SSE stream on one, requests on a kept-alive other.
  agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
  connected: false,
  lastChange: 0,
}));

let roundOpen = false;

/**
 * The stream pages this worker's clients received this round, one copy per distinct page: every watcher of
 * a page gets the same bytes, and 5,000 copies kept until the round is over cost memory and collections on
 * the server's cores. A page is kept as the first identical one (comparing 18 KB is a microsecond); a new
 * one is copied out of the chunk it came in.
 */
let roundPages: Buffer[] = [];
const kept = (bytes: Buffer) => roundPages.find((page) => page.equals(bytes)) ?? (roundPages.push(Buffer.from(bytes)), roundPages.at(-1)!);
/** With `sample`: the stream bytes the first client received this round, as they came (decoded), and as they came on the wire when compressed. */
let roundSample: Buffer[] = [];
let roundWire: Buffer[] = [];
const sampling = (client: Client) => init.sample && roundOpen && client === clients[0];
/** Connected clients whose refetch of this round is not in yet. */
let waiting = 0;

/** This round's records went out. */
let reported = false;

/** Every page of this worker is in (or the round's time is up): the round's CPU readings stop when all workers' are. */
function allIn() {
  if (!roundOpen) return;
  roundOpen = false;
  send({ type: 'allIn' });
}

/**
 * What each client's page shows, once every worker's pages are in (the load generator says `report`):
 * decoding and parsing this worker's 2,500 pages as soon as its own were in took the cores while the other
 * worker's clients were still receiving theirs.
 */
function report() {
  if (reported) return;
  reported = true;
  const records = clients.map(({ user, record, upstream }): RoundRecord => {
    if (!record) return { user, upstream };
    const { page, mine, ...rest } = record;
    if (!page) return { ...rest, upstream };
    const shown = showingOf(page, mine);
    // A page read by GET was parsed when it came (fetchPage); a pushed one is parsed now, on its own time.
    const parsedLater = rest.via === 'push' && !init.parseOnReceipt && rest.doneAt !== undefined;
    return { ...rest, upstream, showing: shown.showing, ...(parsedLater ? { doneAt: rest.doneAt! + shown.parseMs } : {}) };
  });
  // Slow readers are not measured: their pages come when their read rate lets them.
  if (init.throttleKBps) return send({ type: 'roundDone', records: [] });
  send({
    type: 'roundDone',
    records,
    ...(init.sample ? { sample: Buffer.concat(roundSample).toString('base64'), ...(roundWire.length > 0 ? { wireSample: Buffer.concat(roundWire).toString('base64') } : {}) } : {}),
  });
}

/**
 * GET the leaderboard page as the web app does after an event; resolves when the answer is in. A kept-alive
 * connection the server closed while idle is retried once on a new one, as browsers do.
 */
function fetchPage(client: Client, retry = true): Promise<{ status: number; error?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { authorization: `Bearer ${client.token}`, accept: 'application/json' };
    if (client.etag) headers['if-none-match'] = client.etag;
    const req = http.get({ host: url.hostname, port: url.port, path: leaderboardPath, agent: client.agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status === 200) {
          try {
            const body = Buffer.concat(chunks);
            JSON.parse(body.toString('utf8')); // parsed as the page would be (and refused if it cannot be); checked after the round
            client.page = body;
            client.pageMine = undefined;
            const etag = res.headers.etag;
            client.etag = typeof etag === 'string' ? etag : undefined;
          } catch (error) {
            resolve({ status, error: `unreadable answer: ${(error as Error).message}` });
            return;
          }
        }
        // 304: the page stays as it was (what it shows is checked all the same).
        resolve(status === 200 || status === 304 ? { status } : { status, error: `HTTP ${status}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}` });
      });
      res.on('error', (error) => resolve({ status: 0, error: error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (retry && req.reusedSocket && error.code === 'ECONNRESET') resolve(fetchPage(client, false));
      else resolve({ status: 0, error: error.message });
    });
  });
}

/** Refetches waiting or running, in any round; `drain` waits for none. */
let busy = 0;
let drained: (() => void) | undefined;

/** This round's page is in (pushed or read): one fewer to wait for. */
function finish(client: Client) {
  if (client.fallback) clearTimeout(client.fallback);
  client.fallback = undefined;
  if (--busy === 0) drained?.();
  if (--waiting === 0) allIn();
}

function onChange(client: Client, eventId: number) {
  client.lastChange = Math.max(client.lastChange, eventId);
  if (!roundOpen || !client.record || client.record.eventAt !== undefined) return;
  const record = client.record;
  record.eventAt = now();
  busy++;
  // No page on the stream in time: read it, after this page's jitter, as the web app does.
  client.fallback = setTimeout(async () => {
    client.fallback = undefined;
    record.via = 'read';
    record.sentAt = now();
    const answer = await fetchPage(client);
    if (record.doneAt !== undefined) return; // the push came while the read was under way
    record.doneAt = now();
    record.status = answer.status;
    record.error = answer.error;
    record.page = client.page;
    record.mine = client.pageMine;
    finish(client);
  }, STANDINGS_PUSH_WAIT_MS + Math.random() * init.jitterMs);
}

/** The stream's page: shown with the own part last sent on this stream, never without one (as the web app). */
function onStandings(client: Client, message: MessageHead, page: Buffer) {
  if (message.event_id < client.lastChange || !client.mine || client.mine.groupId !== message.group_id) return;
  client.page = kept(page);
  client.pageMine = client.mine.text;
  const record = client.record;
  if (!record || record.eventAt === undefined || record.doneAt !== undefined) return;
  record.via = 'push';
  record.doneAt = now();
  record.page = client.page;
  record.mine = client.pageMine;
  finish(client);
}

/** One SSE message's data as it came: what it is, and its page or own part for `onStandings`. */
function onMessage(client: Client, message: MessageHead, data: Buffer) {
  if (message.kind === 'standings_me') client.mine = { groupId: message.group_id!, text: data.toString('utf8') };
  else if (message.kind === 'standings_page') onStandings(client, message, data);
  else onChange(client, message.event_id);
}

/**
 * A slow reader's socket: it reads at most `kbps` KB a second, pausing between reads (what it does not take
 * waits in the kernel's buffers, then in the server's).
 */
function throttle(socket: net.Socket, kbps: number) {
  let freeAt = now();
  socket.on('data', (chunk: Buffer) => {
    freeAt = Math.max(freeAt, now()) + (chunk.length / (kbps * 1024)) * 1000;
    const wait = freeAt - now();
    if (wait < 5) return;
    socket.pause();
    setTimeout(() => socket.resume(), wait).unref();
  });
}

/**
 * The client's stream as a browser's EventSource reads it: node:http on its own connection, Accept-Encoding
 * as a browser sends it, the body decoded as it comes, split into events and each message's JSON parsed on
 * arrival (tRPC's client parses every event). Resolves once the server sent `connected` (or it failed).
 */
function subscribeAsBrowser(client: Client): Promise<string | undefined> {
  client.mine = undefined;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (error?: string) => {
      if (settled) return;
      settled = true;
      resolve(error);
    };
    const ended = (error?: string) => {
      if (client.connected) send({ type: 'log', line: `stream of ${client.user} ended${error ? `: ${error}` : ''}` });
      client.connected = false;
      settle(error ?? 'stream ended');
    };
    let text = '';
    const event = (block: string) => {
      let name: string | undefined;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (name === 'connected') {
        client.connected = true;
        settle();
      } else if (name === 'serialized-error') {
        settle(`stream error: ${data}`);
      } else if (!name && data) {
        const parsed = JSON.parse(data) as LiveMessage;
        const group_id = parsed.kind === 'standings_me' ? parsed.group_id : parsed.kind === 'standings_page' ? parsed.leaderboard.group_id : undefined;
        onMessage(client, { kind: parsed.kind, event_id: parsed.event_id, group_id }, Buffer.from(data));
      }
    };
    const request = http.get(
      {
        host: url.hostname,
        port: url.port,
        path: changesPath(client.token),
        agent: false,
        headers: { accept: 'text/event-stream', 'cache-control': 'no-cache', 'accept-encoding': BROWSER_ACCEPT_ENCODING },
      },
      (res) => {
        if (res.statusCode !== 200) {
          settle(`HTTP ${res.statusCode}`);
          res.destroy();
          return;
        }
        const upstream = res.headers['x-upstream'];
        if (typeof upstream === 'string') client.upstream = upstream;
        let body: NodeJS.ReadableStream = res;
        if (res.headers['content-encoding'] === 'gzip') {
          res.on('data', (bytes: Buffer) => sampling(client) && roundWire.push(Buffer.from(bytes)));
          const gunzip = zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH });
          gunzip.on('error', (error) => ended(`undecodable stream: ${error.message}`));
          body = res.pipe(gunzip);
        }
        body.setEncoding('utf8');
        body.on('data', (chunk: string) => {
          if (sampling(client)) roundSample.push(Buffer.from(chunk));
          text += chunk;
          for (let at = text.indexOf('\n\n'); at >= 0; at = text.indexOf('\n\n')) {
            const block = text.slice(0, at).replace(/^\n+/, '');
            text = text.slice(at + 2);
            if (block) event(block);
          }
        });
        res.on('close', () => ended());
      },
    );
    request.on('socket', (socket) => (client.sse = socket));
    request.on('error', (error) => ended(error.message));
  });
}

/** Opens the client's live subscription; resolves once the server sent `connected` (or it failed). */
function subscribe(client: Client): Promise<string | undefined> {
  if (init.kind === 'browser') return subscribeAsBrowser(client);
  client.mine = undefined; // a new stream sends its own with its first page
  return new Promise((resolve) => {
    const parser = new SseParser();
    let settled = false;
    const settle = (error?: string) => {
      if (settled) return;
      settled = true;
      resolve(error);
    };
    // Bytes, not text: a page is decoded and parsed after the round (the head of this file).
    const read = (bytes: Buffer) => {
      if (sampling(client)) roundSample.push(Buffer.from(bytes));
      for (const event of parser.push(bytes)) {
        if (event.event === 'connected') {
          client.connected = true;
          settle();
        } else if (event.event === 'serialized-error') {
          settle(`stream error: ${event.data.toString('utf8')}`);
        } else if (!event.event && event.data.length > 0) {
          onMessage(client, messageHead(event.data, init.parseOnReceipt), event.data);
        }
      }
    };
    const socket = openEventStream(
      {
        host: url.hostname,
        port: Number(url.port),
        path: changesPath(client.token),
        // With --gzip, as a browser's EventSource asks, and then each frame is decoded as it comes.
        headers: { accept: 'text/event-stream', 'cache-control': 'no-cache', ...(init.gzip ? { 'accept-encoding': 'gzip, deflate, br, zstd' } : {}) },
      },
      {
        head: (status, headers) => {
          if (status !== 200) {
            settle(`HTTP ${status}`);
            return undefined;
          }
          if (headers['x-upstream']) client.upstream = headers['x-upstream'];
          if (headers['content-encoding'] !== 'gzip') return read;
          const wire = (bytes: Buffer) => sampling(client) && roundWire.push(Buffer.from(bytes));
          const gunzip = zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, chunkSize: 64 * 1024 });
          gunzip.on('data', read);
          gunzip.on('error', (error) => settle(`undecodable stream: ${error.message}`));
          return (bytes) => (wire(bytes), gunzip.write(bytes));
        },
        end: (error) => {
          if (client.connected) send({ type: 'log', line: `stream of ${client.user} ended${error ? `: ${error}` : ''}` });
          client.connected = false;
          settle(error ?? 'stream ended');
        },
      },
    );
    client.sse = socket;
    if (init.throttleKBps) throttle(socket, init.throttleKBps);
  });
}

/** Runs `task` over `items`, `limit` at a time. */
async function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await task(items[next++]!);
  }));
}

const failed: string[] = [];
await pool(clients, 50, async (client) => {
  await freshToken(client);
  const error = await subscribe(client);
  if (error) failed.push(`${client.user}: ${error}`);
});
// The page's first load: its content and ETag before any change.
await pool(clients, 50, async (client) => {
  if (!client.connected) return;
  await freshToken(client);
  const answer = await fetchPage(client);
  if (answer.error) failed.push(`${client.user}: first load: ${answer.error}`);
});
const upstreams: Record<string, number> = {};
for (const c of clients) if (c.connected && c.upstream) upstreams[c.upstream] = (upstreams[c.upstream] ?? 0) + 1;
send({ type: 'ready', connected: clients.filter((c) => c.connected).length, failed, upstreams });

port.on('message', async (message: ToWorker) => {
  if (message.type === 'prepare') {
    for (const client of clients) await freshToken(client);
    send({ type: 'prepared' });
  } else if (message.type === 'round') {
    for (const client of clients) client.record = { user: client.user };
    roundPages = [];
    roundSample = [];
    roundWire = [];
    reported = false;
    waiting = clients.filter((c) => c.connected).length;
    roundOpen = true;
    send({ type: 'roundOpen' });
    // No pages here (`--clients 0`): nothing to wait for; the round was otherwise cut off at --round-timeout.
    // Slow readers: nothing measured, nothing to wait for (their worker's reports are empty).
    if (init.throttleKBps) roundOpen = false;
    else if (waiting === 0) allIn();
  } else if (message.type === 'drain') {
    // Before the next round: no refetch of this one still queued at the server.
    drained = () => {
      drained = undefined;
      send({ type: 'drained' });
    };
    if (busy === 0) drained();
  } else if (message.type === 'report') {
    report();
  } else if (message.type === 'collect') {
    // The round's time is up: report what each client has (a refetch still running counts as not shown).
    allIn();
    report();
  } else if (message.type === 'close') {
    for (const client of clients) {
      client.sse?.destroy();
      client.agent.destroy();
    }
    port.close();
  }
});
