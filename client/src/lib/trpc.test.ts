import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTRPCClient } from '@trpc/client';
import type { AppRouter } from '../../../server/src/trpc/root';
import { createLinks, setTokenSource } from './trpc';

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
    setTokenSource(async () => null);
  });

  it('sends each hot read alone, as a GET with a URL of its own the HTTP cache can revalidate', async () => {
    const sent = recordFetches();
    setTokenSource(async () => 'the-token');
    const client = createTRPCClient<AppRouter>({ links: createLinks() });
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
    const client = createTRPCClient<AppRouter>({ links: createLinks() });
    await Promise.all([client.groups.mine.query(), client.users.status.query(), client.draft.status.query()]);
    expect(sent.map((s) => s.url.split('?')[0]).sort()).toEqual(['/trpc/draft.status', '/trpc/groups.mine,users.status']);
    expect(sent.find((s) => s.url.startsWith('/trpc/groups.mine'))?.url).toContain('batch=1');
  });
});
