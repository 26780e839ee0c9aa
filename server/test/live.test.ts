import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSource } from 'eventsource';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import type { DraftChange } from '@first-round/shared/schemas';
import type { AppRouter } from '../src/trpc/root.js';
import { recordPick, startDraft, undoLast } from '../src/modules/draft/draft.service.js';
import { startDeadlineWatcher } from '../src/modules/draft/deadline.js';
import { LISTENER_NAME } from '../src/modules/draft/draft.events.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';

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
  const received: DraftChange[] = [];
  let opened!: () => void;
  const ready = new Promise<void>((r) => (opened = r));
  const sub = clientFor(baseUrl, token).draft.changes.subscribe(lastEventId ? { lastEventId } : undefined, {
    onStarted: () => opened(),
    onData: (envelope) => received.push(envelope.data),
  });
  return { received, ready, stop: () => sub.unsubscribe() };
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
  for (const t of [a, b]) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    baseUrls.push(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  }
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
    await undoLast(a.orm().em.fork(), a.deps.draft, 'test');
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
    const t = await createTestApp({ env: { DRAFT_DEADLINE: new Date(Date.now() + 4000).toISOString() }, startEvents: true });
    try {
      const player = await t.signUp('latecomer');
      const save = await t.request('POST', '/api/picks/', { user: player, body: { picks: [1, 2] } });
      expect(save.statusCode).toBe(200);
      const heard: DraftChange[] = [];
      t.deps.events.onChange((c) => heard.push(c));
      const stop = startDeadlineWatcher(t.deps);
      await until(() => heard.some((c) => c.kind === 'auto_start'), 8000);
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
