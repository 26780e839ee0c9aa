import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import type { AppRouter } from '@first-round/server/router';
import { createLinks, errorKind } from './trpc';
import { shouldRetry } from './query-client';

interface Sent {
  url: string;
  method: string;
  headers: Headers;
}

/** Records what the links send; answers every call in the batched or single shape it expects. */
function recordFetches() {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    sent.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers) });
    const single = { result: { data: null } };
    const batched = new URL(url, 'http://app').searchParams.get('batch') === '1';
    const calls = batched ? new URL(url, 'http://app').pathname.replace('/trpc/', '').split(',').length : 1;
    return new Response(JSON.stringify(batched ? Array.from({ length: calls }, () => single) : single), {
      headers: { 'content-type': 'application/json' },
    });
  });
  return sent;
}

describe('tRPC links', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends each hot read alone, as a GET with a URL of its own the HTTP cache can revalidate', async () => {
    const sent = recordFetches();
    const client = createTRPCClient<AppRouter>({ links: createLinks({ getToken: async () => 'the-token' }) });
    await Promise.all([
      client.draft.status.query(),
      client.players.list.query(),
      client.auth.me.query(),
      client.leaderboard.group.query({ group_id: 1, limit: 100 }),
    ]);
    const urls = sent.map((s) => s.url).sort();
    expect(urls).toEqual([
      '/trpc/auth.me',
      '/trpc/draft.status',
      `/trpc/leaderboard.group?input=${encodeURIComponent(JSON.stringify({ group_id: 1, limit: 100 }))}`,
      '/trpc/players.list',
    ]);
    expect(sent.every((s) => s.method === 'GET' && s.headers.get('authorization') === 'Bearer the-token')).toBe(true);
  });

  it('batches everything else', async () => {
    const sent = recordFetches();
    const client = createTRPCClient<AppRouter>({ links: createLinks({ getToken: async () => null }) });
    await Promise.all([client.groups.mine.query(), client.users.status.query(), client.draft.status.query()]);
    expect(sent.map((s) => s.url.split('?')[0]).sort()).toEqual(['/trpc/draft.status', '/trpc/groups.mine,users.status']);
    expect(sent.find((s) => s.url.startsWith('/trpc/groups.mine'))?.url).toContain('batch=1');
  });
});

describe('errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A client whose every call fails as the server answers a refusal (the router's error shape). */
  function refusing(status: number, data: Record<string, unknown>) {
    vi.stubGlobal('fetch', async () => {
      const error = { message: 'Whatever the words say', code: -32600, data: { httpStatus: status, path: 'picks.save', ...data } };
      return new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });
    });
    return createTRPCClient<AppRouter>({ links: createLinks({ getToken: async () => null }) });
  }
  const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail('the call should fail'), (e: unknown) => e);

  it("are told apart by the server's kind (data.kind), never by their wording", async () => {
    const locked = await failure(refusing(409, { code: 'CONFLICT', kind: 'DRAFT_LOCKED' }).picks.save.mutate({ picks: [1] }));
    expect(errorKind(locked)).toBe('DRAFT_LOCKED');
    const invalid = await failure(refusing(400, { code: 'BAD_REQUEST', kind: 'INVALID_INPUT' }).picks.save.mutate({ picks: [1] }));
    expect(errorKind(invalid)).toBe('INVALID_INPUT');
    // A kind this client does not know, none at all, or no answer: nothing to branch on.
    expect(errorKind(await failure(refusing(409, { code: 'CONFLICT', kind: 'SOMETHING_NEW' }).picks.save.mutate({ picks: [1] })))).toBeUndefined();
    expect(errorKind(await failure(refusing(409, { code: 'CONFLICT' }).picks.save.mutate({ picks: [1] })))).toBeUndefined();
    expect(errorKind(new Error('Number of picks must be between 1 and 32'))).toBeUndefined();
  });

  it('are retried only when the server failed or was away, or there was no answer', async () => {
    const retry = shouldRetry(3);
    const read = (status: number, kind: string) => failure(refusing(status, { code: 'X', kind }).draft.status.query());
    expect(retry(0, await read(404, 'NOT_FOUND'))).toBe(false);
    expect(retry(0, await read(401, 'UNAUTHORIZED'))).toBe(false);
    expect(retry(0, await read(500, 'INTERNAL'))).toBe(true);
    expect(retry(0, await read(503, 'UNAVAILABLE'))).toBe(true);
    expect(retry(3, await read(503, 'UNAVAILABLE'))).toBe(false);
    expect(retry(0, new TypeError('Failed to fetch'))).toBe(true);
  });
});
