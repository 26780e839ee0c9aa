import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onlineManager } from '@tanstack/react-query';
import { fetchNotingConnectivity, noteAnswer, PROBE_EVERY_MS, startConnectivity } from './connectivity';

/** The browser's word (navigator.onLine) and the network (fetch), as a test sets them. */
function browser(onLine: boolean, fetchImpl: typeof fetch) {
  vi.stubGlobal('navigator', { onLine });
  vi.stubGlobal('fetch', vi.fn(fetchImpl));
  return vi.mocked(globalThis.fetch);
}

const noAnswer: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
const answer: typeof fetch = () => Promise.resolve(new Response('{}'));

describe('connectivity: offline from the browser or from a request with no answer, online at any answer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    onlineManager.setOnline(true);
  });
  afterEach(() => {
    noteAnswer(); // no probe left behind
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts from navigator.onLine (the query layer alone would assume online)', () => {
    browser(false, answer);
    startConnectivity();
    expect(onlineManager.isOnline()).toBe(false);
  });

  it('a request with no answer means offline; the server is asked every 5 s until it answers', async () => {
    const fetched = browser(true, noAnswer);
    await expect(fetchNotingConnectivity('/trpc/draft.status')).rejects.toThrow(TypeError);
    expect(onlineManager.isOnline()).toBe(false);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(fetched).toHaveBeenLastCalledWith('/healthz', { cache: 'no-store' });
    expect(onlineManager.isOnline()).toBe(false);
    fetched.mockImplementation(answer);
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS);
    expect(onlineManager.isOnline()).toBe(true);
    expect(fetched).toHaveBeenCalledTimes(3);
  });

  it('while the browser says offline, no probe: its online event brings the app back', async () => {
    const fetched = browser(false, noAnswer);
    await expect(fetchNotingConnectivity('/trpc/groups.list')).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(PROBE_EVERY_MS * 3);
    expect(fetched).toHaveBeenCalledTimes(1);
    expect(onlineManager.isOnline()).toBe(false);
  });

  it('a cancelled request or a refusal is not "offline"; an answer after offline is "online"', async () => {
    browser(true, () => Promise.reject(new DOMException('The user aborted a request.', 'AbortError')));
    await expect(fetchNotingConnectivity('/trpc/picks.mine')).rejects.toThrow();
    expect(onlineManager.isOnline()).toBe(true);
    browser(true, () => Promise.resolve(new Response('{}', { status: 503 })));
    onlineManager.setOnline(false);
    expect((await fetchNotingConnectivity('/trpc/picks.mine')).status).toBe(503);
    expect(onlineManager.isOnline()).toBe(true);
  });
});
