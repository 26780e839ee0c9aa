import http from 'node:http';
import pg from 'pg';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { isStandingsUpdate, type DraftChange, type LiveMessage, type LiveUpdate, type StandingsMine, type StandingsUpdate } from '@first-round/shared/schemas';
import { assembleStandings } from '@first-round/shared/live-standings';
import type { AppRouter } from '../src/trpc/root.js';
import { recordPick, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { startDeadlineWatcher } from '../src/modules/draft/deadline.js';
import { LISTENER_NAME } from '../src/events/topic-bus.js';
import type { GlobalStandings } from '../src/modules/leaderboard/global-standings.js';
import { createTestApp, listenOnLoopback, type TestApp, type TestUser } from './support/test-app.js';

let a: TestApp;
let b: TestApp;
let user: TestUser;
const baseUrls: string[] = [];

function clientFor(baseUrl: string, token: string) {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: `${baseUrl}/trpc`, EventSource, connectionParams: async () => ({ token }) }),
        false: httpBatchLink({ url: `${baseUrl}/trpc`, headers: () => ({ authorization: `Bearer ${token}` }) }),
      }),
    ],
  });
}

/** Subscribes and collects changes; resolves `ready` once the stream is open. */
function collect(baseUrl: string, token: string, lastEventId?: string) {
  const received: LiveMessage[] = [];
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  const sub = clientFor(baseUrl, token).draft.changes.subscribe(lastEventId ? { lastEventId } : undefined, {
    onStarted: () => opened(),
    onData: (envelope) => received.push(envelope.data),
  });
  return { received, ready, stop: () => sub.unsubscribe() };
}

/** What a page shows from a stream's messages, as the web app puts them together (client/src/lib/live-connection.ts). */
function shown(received: readonly LiveMessage[]): LiveUpdate[] {
  let mine: StandingsMine | undefined;
  const updates: LiveUpdate[] = [];
  for (const m of received) {
    if (m.kind === 'standings_me') mine = m;
    else if (m.kind === 'standings_page') {
      const update = assembleStandings(m, mine);
      if (update) updates.push(update);
    } else updates.push(m);
  }
  return updates;
}

async function until(check: () => boolean, ms = 2000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - start;
}

beforeAll(async () => {
  a = await createTestApp({ startEvents: true });
  // Instances of one deployment share the sign-in key (LOCAL_IDP_PRIVATE_KEY), as they share the database.
  const sharedKey = a.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  b = await createTestApp({ startEvents: true, sameDatabaseAs: a, env: { LOCAL_IDP_PRIVATE_KEY: sharedKey } });
  for (const t of [a, b]) baseUrls.push(await listenOnLoopback(t.app));
  user = await a.signUp('watcher');
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

describe('live draft changes over SSE', () => {
  it('delivers a recorded pick to subscribers of two instances on one database', async () => {
    const one = collect(baseUrls[0]!, user.token);
    const two = collect(baseUrls[1]!, user.token);
    await Promise.all([one.ready, two.ready]);
    await startDraft(a.orm().em.fork(), a.deps.draft, 'test');
    const [player] = await a.db.query<{ id: number; player_name: string }>(`select id, player_name from player order by rank limit 1`);
    await recordPick(a.orm().em.fork(), a.deps.draft, 'test', 1, player!.id);
    await until(() => one.received.some((c) => c.kind === "pick") && two.received.some((c) => c.kind === "pick"));
    for (const stream of [one, two]) {
      expect(stream.received.map((c) => c.kind)).toEqual(['start', 'pick']);
      expect(stream.received[1]).toMatchObject({ slot: 1, player: { id: player!.id, player_name: player!.player_name, draft_round: 1, draft_pick: 1 } });
    }
    one.stop();
    two.stop();
  });

  it('catches a reconnecting client up from its last event id', async () => {
    const events = await a.db.query<{ id: string }>(`select id from draft_event order by id`);
    const firstId = events[0]!.id;
    const late = collect(baseUrls[1]!, user.token, firstId);
    await late.ready;
    await until(() => late.received.length >= events.length - 1);
    expect(late.received.map((c) => c.event_id)).toEqual(events.slice(1).map((e) => Number(e.id)));
    await undoLast(a.orm().em.fork(), 'test');
    await until(() => late.received.some((c) => c.kind === 'undo'));
    late.stop();
  });

  it('catches open streams up on changes made while the listener was reconnecting', async () => {
    const open = collect(baseUrls[0]!, user.token);
    await open.ready;
    // A change logged while this instance's listener is away (another instance, the operator's command):
    // its notification never reaches this instance.
    const [missed] = await a.db.query<{ id: string }>(`insert into draft_event (kind, actor) values ('reopen_round', 'elsewhere') returning id`);
    const dropped = await a.db.query<{ ok: boolean }>(
      `select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = current_database() and application_name = $1`,
      [LISTENER_NAME],
    );
    expect(dropped.length).toBeGreaterThan(0);
    await until(() => open.received.some((c) => c.event_id === Number(missed!.id)), 10_000);
    expect(open.received.filter((c) => c.event_id === Number(missed!.id))).toHaveLength(1);
    open.stop();
  });

  it('refuses a subscription without a valid token', async () => {
    const errors: unknown[] = [];
    const sub = clientFor(baseUrls[0]!, 'not-a-token').draft.changes.subscribe(undefined, { onError: (e) => errors.push(e) });
    await until(() => errors.length > 0, 3000).catch(() => {});
    sub.unsubscribe();
    expect(String(errors[0])).toMatch(/Authentication required/);
  });
});

describe('deadline', () => {
  it('starts the draft by itself when the deadline passes, and picks lock', async () => {
    // 10 s ahead: on a loaded machine the app and the sign-up alone took more than 4 s, and the save before
    // the deadline was refused as after it.
    const t = await createTestApp({ env: { DRAFT_DEADLINE: new Date(Date.now() + 10_000).toISOString() }, startEvents: true });
    try {
      const player = await t.signUp('latecomer');
      const save = await t.request('POST', '/api/picks/', { user: player, body: { picks: [1, 2] } });
      expect(save.statusCode).toBe(200);
      const heard: DraftChange[] = [];
      t.deps.events.onChange((c) => heard.push(c));
      const stop = startDeadlineWatcher(t.deps);
      await until(() => heard.some((c) => c.kind === 'auto_start'), 15_000);
      stop();
      const [state] = await t.db.query<{ started_at: Date | null }>(`select started_at from draft_state`);
      expect(state?.started_at).not.toBeNull();
      const locked = await t.request('POST', '/api/picks/', { user: player, body: { picks: [3] } });
      expect(locked.statusCode).toBe(409);
      expect(((await t.request('GET', '/api/draft/status')).json() as { draftHasStarted: boolean }).draftHasStarted).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe('the standings page on the live stream', () => {
  let t: TestApp;
  let url: string;
  let alice: TestUser;
  let carol: TestUser;
  let group: { id: number };
  beforeAll(async () => {
    t = await createTestApp({ startEvents: true });
    url = await listenOnLoopback(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Subscribes with a watched page and collects everything the stream carries. */
  function watching(token: string, standings: { group_id: number; limit?: number }) {
    const received: LiveMessage[] = [];
    let opened!: () => void;
    const ready = new Promise<void>((r) => (opened = r));
    const sub = clientFor(url, token).draft.changes.subscribe({ standings: { offset: 0, limit: 500, ...standings } }, {
      onStarted: () => opened(),
      onData: (envelope) => received.push(envelope.data),
    });
    return { received, ready, stop: () => sub.unsubscribe() };
  }

  it('follows each change with the re-ranked page, equal to what leaderboard.group answers, and only for a group the caller may read', async () => {
    const players = await t.db.query<{ id: number }>(`select id from player order by rank limit 3`);
    const bob = await t.signUp('bob');
    [alice, carol] = [await t.signUp('alice'), await t.signUp('carol')];
    for (const [user, picks] of [[alice, [players[0]!.id, players[1]!.id]], [bob, [players[2]!.id]]] as const) {
      expect((await t.request('POST', '/api/picks/', { user, body: { picks } })).statusCode).toBe(200);
    }
    group = (await t.request('POST', '/api/groups/create-simple', { user: alice, body: { name: 'Stream group' } })).json() as { id: number };
    await startDraft(t.orm().em.fork(), t.deps.draft, 'test');

    const newestEvent = async () => Number((await t.db.query<{ id: string }>(`select id from draft_event order by id desc limit 1`))[0]!.id);
    const startId = await newestEvent();
    const global = watching(alice.token, { group_id: 1, limit: 100 });
    const own = watching(alice.token, { group_id: group.id });
    const outsider = watching(carol.token, { group_id: group.id });
    await Promise.all([global.ready, own.ready, outsider.ready]);
    const standingsIn = (stream: { received: LiveMessage[] }) => shown(stream.received).filter(isStandingsUpdate);
    const client = clientFor(url, alice.token);

    // A page's first stream brings its page at once, as of the newest change (the start): what a read gives now.
    await until(() => standingsIn(global).length === 1 && standingsIn(own).length === 1, 5000);
    expect(global.received.map((m) => [m.kind, m.event_id])).toEqual([['standings_me', startId], ['standings_page', startId]]);
    expect(standingsIn(global)[0]!.leaderboard).toEqual(await client.leaderboard.group.query({ group_id: 1, limit: 100 }));
    expect(standingsIn(global)[0]!.leaderboard.me).toMatchObject({ participant_id: alice.id, correct_picks: 0 });
    expect(standingsIn(own)[0]!.leaderboard).toEqual(await client.leaderboard.group.query({ group_id: group.id, limit: 500 }));

    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, players[0]!.id);
    const eventId = await newestEvent();
    await until(() => standingsIn(global).length === 2 && standingsIn(own).length === 2, 5000);

    // Each change comes first, then the page as of that change (the caller's own part first, then the page
    // every watcher shares): what a read gives now, the caller's row included.
    expect(global.received.slice(2).map((m) => [m.kind, m.event_id])).toEqual([['pick', eventId], ['standings_me', eventId], ['standings_page', eventId]]);
    expect(standingsIn(global)[1]!.leaderboard).toEqual(await client.leaderboard.group.query({ group_id: 1, limit: 100 }));
    expect(standingsIn(global)[1]!.leaderboard.me).toMatchObject({ participant_id: alice.id, correct_picks: 1, rank: 1 });
    expect(standingsIn(own)[1]!.leaderboard).toEqual(await client.leaderboard.group.query({ group_id: group.id, limit: 500 }));

    // Not a member: the change, never the group's standings.
    await until(() => outsider.received.length > 0);
    await new Promise((r) => setTimeout(r, 500));
    expect(outsider.received.map((m) => m.kind)).toEqual(['pick']);

    // A reconnect that catches up gets the page as of the last change it missed.
    const late = clientFor(url, bob.token);
    const caughtUp: LiveMessage[] = [];
    const sub = late.draft.changes.subscribe({ lastEventId: String(eventId - 1), standings: { group_id: 1, limit: 100, offset: 0 } }, {
      onData: (envelope) => caughtUp.push(envelope.data),
    });
    await until(() => shown(caughtUp).some(isStandingsUpdate), 5000);
    expect(shown(caughtUp).map((m) => [m.kind, m.event_id])).toEqual([['pick', eventId], ['standings', eventId]]);
    expect((shown(caughtUp)[1] as StandingsUpdate).leaderboard.me).toMatchObject({ correct_picks: 0 });
    for (const s of [global, own, outsider]) s.stop();
    sub.unsubscribe();
  });

  it('the procedure called in process follows the same rules: the change, then the page, and no page for a non-member', async () => {
    const [latest] = await t.db.query<{ id: string }>(`select id from draft_event order by id desc limit 1`);
    const after = String(Number(latest!.id) - 1);
    const member = (await (await t.caller(alice)).draft.changes({ lastEventId: after, standings: { group_id: group.id, limit: 10, offset: 0 } }))[Symbol.asyncIterator]();
    const outsider = (await (await t.caller(carol)).draft.changes({ lastEventId: after, standings: { group_id: group.id, limit: 10, offset: 0 } }))[Symbol.asyncIterator]();
    // In process, each item is tRPC's tracked envelope: [id, data].
    const data = async (stream: AsyncIterator<unknown>) => ((await stream.next()).value as [string, LiveMessage])[1];
    try {
      const first = [await data(member), await data(member), await data(member)];
      expect(first.map((m) => m.kind)).toEqual(['pick', 'standings_me', 'standings_page']);
      const read = await (await t.caller(alice)).leaderboard.group({ group_id: group.id, limit: 10, offset: 0 });
      expect((shown(first)[1] as StandingsUpdate).leaderboard).toEqual(read);
      expect((await data(outsider)).kind).toBe('pick');
      // The outsider's next message is the next change, never the group's standings.
      const next = data(outsider);
      const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 2, player!.id);
      expect((await next).kind).toBe('pick');
      // Her second pick hit: her own part moved, so it comes again before the page.
      const second = [await data(member), await data(member), await data(member)];
      expect(second.map((m) => [m.kind, m.event_id])).toEqual(['pick', 'standings_me', 'standings_page'].map((kind) => [kind, second[0]!.event_id]));
      expect((shown([...first, ...second])[3] as StandingsUpdate).leaderboard.me).toMatchObject({ correct_picks: 2 });
    } finally {
      await member.return?.(undefined);
      await outsider.return?.(undefined);
    }
  });

  it('is gzip-compressed for a client that accepts it, decoding to the very frames an uncompressed stream gets', async () => {
    // A raw stream as a browser's EventSource opens it, with or without `Accept-Encoding: gzip`.
    const open = (encoding: string | undefined) =>
      new Promise<{ res: http.IncomingMessage; text: () => string; stop: () => void }>((resolve, reject) => {
        const input = encodeURIComponent(JSON.stringify({ lastEventId: null, standings: { group_id: 1, limit: 100 } }));
        const params = encodeURIComponent(JSON.stringify({ token: alice.token }));
        const req = http.get(`${url}/trpc/draft.changes?connectionParams=${params}&input=${input}`, { headers: { accept: 'text/event-stream', ...(encoding ? { 'accept-encoding': encoding } : {}) } }, (res) => {
          const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : res;
          let text = '';
          body.setEncoding('utf8');
          body.on('data', (chunk: string) => (text += chunk));
          resolve({ res, text: () => text, stop: () => req.destroy() });
        });
        req.on('error', reject);
      });
    const [zipped, plain] = [await open('gzip, deflate, br, zstd'), await open(undefined)];
    expect(zipped.res.headers['content-encoding']).toBe('gzip');
    expect(zipped.res.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.res.headers['content-encoding']).toBeUndefined();
    await until(() => zipped.text().includes('event: connected') && plain.text().includes('event: connected'));

    const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
    const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
    await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
    // Each frame is readable as soon as it is sent (not held back until more comes): the pick's page included.
    // (Each stream opened with a page already: waiting for any page could compare them before the pick's came.)
    const pickPageIn = (text: string) => {
      const change = text.indexOf(`"kind":"pick","slot":${next!.slot},`);
      return change >= 0 && text.indexOf('"kind":"standings_page"', change) >= 0 && text.endsWith('\n\n\n');
    };
    await until(() => [zipped, plain].every((s) => pickPageIn(s.text())), 5000);
    expect(zipped.text()).toBe(plain.text());
    const mine = JSON.parse(/^data: (\{"kind":"standings_me".*)$/m.exec(zipped.text())![1]!) as StandingsMine;
    expect(mine.me).toMatchObject({ participant_id: alice.id });
    zipped.stop();
    plain.stop();
  });
  it('sends every watcher of a page the same bytes, and a reader\'s own part only when it changed', async () => {
    const bob = await t.signUp('bob2');
    const raw = (token: string) => {
      const input = encodeURIComponent(JSON.stringify({ lastEventId: null, standings: { group_id: 1, limit: 100 } }));
      const params = encodeURIComponent(JSON.stringify({ token }));
      let text = '';
      const req = http.get(`${url}/trpc/draft.changes?connectionParams=${params}&input=${input}`, { headers: { accept: 'text/event-stream' } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
      });
      return {
        connected: () => text.includes('event: connected'),
        lines: (kind: string) => text.split('\n').filter((l) => l.startsWith(`data: {"kind":"${kind}"`)),
        stop: () => req.destroy(),
      };
    };
    const streams = [raw(alice.token), raw(bob.token)];
    // Each stream's page comes at once (as of the newest change), with the reader's own part.
    await until(() => streams.every((s) => s.connected() && s.lines('standings_page').length === 1), 5000);
    // Two picks of players nobody holds: nobody's row moves.
    for (let i = 2; i <= 3; i++) {
      const [player] = await t.db.query<{ id: number }>(
        `select id from player p where draft_pick is null and not exists (select 1 from pick k where k.player_id = p.id) order by rank limit 1`,
      );
      const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
      await until(() => streams.every((s) => s.lines('standings_page').length === i), 5000);
    }
    const [alicePages, bobPages] = streams.map((s) => s.lines('standings_page'));
    // The same page, byte for byte, whoever watches it.
    expect(alicePages).toEqual(bobPages);
    // Each stream's first page (its opening one) comes with the reader's own part, each their own; the two picks moved neither.
    const [aliceMine, bobMine] = streams.map((s) => s.lines('standings_me').map((l) => JSON.parse(l.slice(6)) as StandingsMine));
    expect(aliceMine!.map((m) => m.me?.participant_id)).toEqual([alice.id]);
    expect(bobMine!.map((m) => m.me)).toEqual([null]);
    for (const s of streams) s.stop();
  });

  it('holds a change for its page while the standings take most of a second to rank: the pick comes with them, not before', async () => {
    // The first pick after thousands of pages connect can take ~500 ms to rank on a small machine: the pick
    // must still go out with its page, in one write, not alone and then the page (5,000 more writes).
    // Each message with whether the slow ranking had finished when it came: an order of events, not a duration.
    let ranked = false;
    const arrivals: Array<{ message: LiveMessage; afterRanking: boolean }> = [];
    let opened!: () => void;
    const ready = new Promise<void>((r) => (opened = r));
    const sub = clientFor(url, alice.token).draft.changes.subscribe(
      { standings: { group_id: 1, limit: 100, offset: 0 } },
      { onStarted: () => opened(), onData: (envelope) => arrivals.push({ message: envelope.data, afterRanking: ranked }) },
    );
    await ready;
    await until(() => arrivals.some((a) => a.message.kind === 'standings_page'), 5000);
    // The next global ranking (the one the fan-out waits for after the pick) takes 600 ms more.
    const global = (t.deps.leaderboards as unknown as { global: GlobalStandings }).global;
    const compute = global.compute.bind(global);
    let slow = true;
    global.compute = async () => {
      const ranking = await compute();
      if (slow) {
        slow = false;
        await new Promise((r) => setTimeout(r, 600));
        ranked = true;
      }
      return ranking;
    };
    try {
      const [player] = await t.db.query<{ id: number }>(`select id from player where draft_pick is null order by rank limit 1`);
      const [next] = await t.db.query<{ slot: number }>(`select count(*)::int + 1 as slot from player where draft_pick is not null`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', next!.slot, player!.id);
      await until(() => arrivals.some((a) => a.message.kind === 'pick' && a.message.slot === next!.slot), 5000);
      const pick = arrivals.find((a) => a.message.kind === 'pick' && a.message.slot === next!.slot)!;
      await until(() => arrivals.some((a) => a.message.kind === 'standings_page' && a.message.event_id === pick.message.event_id), 5000);
      const page = arrivals.find((a) => a.message.kind === 'standings_page' && a.message.event_id === pick.message.event_id)!;
      expect(slow).toBe(false);
      // The pick waited for its page: neither came before the slow ranking was done, and nothing came between them.
      expect(pick.afterRanking).toBe(true);
      expect(page.afterRanking).toBe(true);
      expect(arrivals.indexOf(page)).toBe(arrivals.indexOf(pick) + 1);
    } finally {
      global.compute = compute;
      sub.unsubscribe();
    }
  });
});

describe('a reconnect that replays while changes keep coming', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ startEvents: true });
    url = await listenOnLoopback(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the replayed changes first and the live one after them, none skipped, whichever way it is read', async () => {
    const user = await t.signUp('resumer');
    const start = await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    const players = await t.db.query<{ id: number }>(`select id from player order by rank limit 2`);
    const picks = [await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, players[0]!.id), await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 2, players[1]!.id)];
    // The replay's read of the audit log waits behind this lock, so a live change arrives while it is read.
    const locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table draft_event in access exclusive mode');
    let sse: http.ClientRequest | undefined;
    let iterator: AsyncIterator<unknown> | undefined;
    try {
      let text = '';
      const params = encodeURIComponent(JSON.stringify({ token: user.token }));
      const input = encodeURIComponent(JSON.stringify({ lastEventId: String(start.event_id) }));
      sse = http.get(`${url}/trpc/draft.changes?connectionParams=${params}&input=${input}`, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
      });
      // In process, through tRPC's own reading of the procedure.
      iterator = (await (await t.caller(user)).draft.changes({ lastEventId: String(start.event_id) }))[Symbol.asyncIterator]();
      const inProcess = [iterator.next(), iterator.next(), iterator.next()];
      await until(() => text.includes('event: connected'));
      // A change from elsewhere (another instance, the operator's command line), heard now.
      const live: DraftChange = { event_id: picks[1]!.event_id + 1000, kind: 'reopen_round', at: new Date().toISOString() };
      await t.db.query(`select pg_notify('draft_changes', $1)`, [JSON.stringify(live)]);
      await until(() => t.deps.events.lastHeardEventId === live.event_id);
      await locker.query('commit');

      const expected = [picks[0]!.event_id, picks[1]!.event_id, live.event_id];
      await until(() => [...text.matchAll(/^id: (\d+)$/gm)].length >= 3, 5000);
      expect([...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]))).toEqual(expected);
      const read = (await Promise.all(inProcess)).map((r) => Number((r.value as [string, unknown])[0]));
      expect(read).toEqual(expected);
    } finally {
      await locker.end();
      sse?.destroy();
      await iterator?.return?.(undefined);
    }
  });

  it('ends the stream with an error when the replay cannot be read, so the client resumes from the same id', async () => {
    const user = await t.signUp('unlucky');
    // Any event id to resume after: the replay reads the log whatever it finds there.
    const [first] = await t.db.query<{ id: string }>(`insert into draft_event (kind, actor) values ('reopen_round', 'elsewhere') returning id`);
    const locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table draft_event in access exclusive mode');
    let text = '';
    let ended = false;
    const params = encodeURIComponent(JSON.stringify({ token: user.token }));
    const input = encodeURIComponent(JSON.stringify({ lastEventId: first!.id }));
    const sse = http.get(`${url}/trpc/draft.changes?connectionParams=${params}&input=${input}`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => (ended = true));
    });
    try {
      await until(() => text.includes('event: connected'));
      // The replay's read, waiting behind the lock, fails.
      let blocked: Array<{ pid: number }> = [];
      for (let i = 0; i < 100 && blocked.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        blocked = await t.db.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%draft_event%'`);
      }
      expect(blocked.length).toBeGreaterThan(0);
      await t.db.query(`select pg_cancel_backend($1)`, [blocked[0]!.pid]);
      await until(() => ended, 5000);
      expect(text).toMatch(/^event: connected\n.*\n\n\nevent: serialized-error\ndata: \{.*"httpStatus":500/s);
      expect(text).not.toMatch(/^id: /m);
      await until(() => t.deps.live.streamsOpenBy(user.id) === 0);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
      sse.destroy();
    }
  });
});

describe('the standings after a replay, when this instance has not heard the newest change yet', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ startEvents: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are ranked with every replayed change: a notification still on its way never leaves the page behind', async () => {
    const user = await t.signUp('reconnector');
    const [first, second] = await t.db.query<{ id: number }>(`select id from player order by rank limit 2`);
    await (await t.caller(user)).picks.save({ picks: [first!.id, second!.id] });
    const start = await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
    await until(() => t.deps.events.lastHeardEventId === start.event_id);
    // The pick's notification is held back, as a busy connection or another instance's commit can delay it
    // while the page reconnects and reads the change from the audit log.
    const bus = t.deps.events as unknown as { heardNotification(channel: string, payload?: string): void };
    const deliver = bus.heardNotification.bind(bus);
    const held: [string, string | undefined][] = [];
    bus.heardNotification = (channel, payload) => void held.push([channel, payload]);
    let iterator: AsyncIterator<unknown> | undefined;
    try {
      const pick = await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, first!.id);
      await until(() => held.length > 0);
      const stream = await (await t.caller(user)).draft.changes({ lastEventId: String(start.event_id), standings: { group_id: 1, limit: 5, offset: 0 } });
      iterator = stream[Symbol.asyncIterator]();
      const frames: LiveMessage[] = [];
      while (!shown(frames).some(isStandingsUpdate)) frames.push(((await iterator.next()).value as [string, LiveMessage])[1]);
      const page = shown(frames).find(isStandingsUpdate)!;
      expect(page.event_id).toBe(pick.event_id);
      // The page as of the pick: the reconnecting player's first pick is a hit.
      expect(page.leaderboard.me?.correct_picks).toBe(1);
    } finally {
      bus.heardNotification = deliver;
      for (const [channel, payload] of held) deliver(channel, payload);
      await iterator?.return?.(undefined);
    }
  });
});
