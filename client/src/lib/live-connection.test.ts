import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DraftChange, DraftChangesInput, DraftStatus, LiveMessage, StandingsUpdate } from '@first-round/shared/schemas';
import { POLL_INTERVAL_MS, PUSH_GRACE_MS } from './draft-live';
import { LiveConnection, type LiveTransport } from './live-connection';

type Handlers = Parameters<LiveTransport['subscribe']>[1];

/** A server in memory: the streams the connection opened (with what they asked for) and the status it answers. */
class FakeServer implements LiveTransport {
  streams: Array<{ input: DraftChangesInput; handlers: Handlers; closed: boolean }> = [];
  status: DraftStatus = status(8);
  statusReads = 0;
  subscribe(input: DraftChangesInput, handlers: Handlers) {
    const stream = { input, handlers, closed: false };
    this.streams.push(stream);
    return { unsubscribe: () => (stream.closed = true) };
  }
  async readStatus() {
    this.statusReads += 1;
    return this.status;
  }
  get open() {
    return this.streams.filter((s) => !s.closed);
  }
  get last() {
    return this.streams.at(-1)!;
  }
  send(message: LiveMessage, stream = this.last) {
    stream.handlers.onData(String(message.event_id), message);
  }
}

function status(last_event_id: number): DraftStatus {
  return {
    draftHasStarted: true,
    deadline: '2027-04-30T00:00:00.000Z',
    started_at: '2027-04-20T00:00:00.000Z',
    picks_made: last_event_id,
    round_one_complete: false,
    round_one_picks: 32,
    last_event_id,
    round_one_order: [],
  };
}
const pick = (event_id: number): DraftChange => ({ event_id, kind: 'pick', slot: event_id, at: '2027-04-30T01:00:00.000Z' });
const standings = (event_id: number): StandingsUpdate => ({
  kind: 'standings',
  event_id,
  leaderboard: { group_id: 1, draft_started: true, entries: 0, alive: 0, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] },
});

describe('LiveConnection', () => {
  let server: FakeServer;
  let connection: LiveConnection;
  const changes: number[] = [];
  const pushed: number[] = [];
  const stale: number[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    server = new FakeServer();
    changes.length = pushed.length = stale.length = 0;
    connection = new LiveConnection({
      transport: server,
      cachedStatus: () => status(8),
      onChange: (c) => changes.push(c.event_id),
      onStandings: (u) => pushed.push(u.event_id),
      onStale: (s) => stale.push(s.last_event_id),
    });
  });
  afterEach(() => {
    connection.stop();
    vi.useRealTimers();
  });

  it('hands over changes and pushed standings, and resumes from the last event after a failure', async () => {
    connection.start();
    expect(server.last.input).toEqual({ lastEventId: null });
    server.last.handlers.onStarted();
    server.send(pick(9));
    server.send(standings(9));
    expect(changes).toEqual([9]);
    expect(pushed).toEqual([9]);

    server.last.handlers.onError();
    expect(server.open).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.open).toHaveLength(1);
    expect(server.last.input).toEqual({ lastEventId: '9' });
  });

  it('carries the watched standings page, reopening the stream from the last event when it changes', () => {
    connection.watch({ group_id: 1, limit: 100, offset: 0 });
    connection.start();
    expect(server.last.input).toEqual({ lastEventId: null, standings: { group_id: 1, limit: 100, offset: 0 } });
    const first = server.last;
    server.send(pick(9));
    connection.watch({ group_id: 1, limit: 100, offset: 0 });
    expect(server.streams).toHaveLength(1);

    connection.watch({ group_id: 7, limit: 500, offset: 0 });
    expect(first.closed).toBe(true);
    expect(server.open).toHaveLength(1);
    expect(server.last.input).toEqual({ lastEventId: '9', standings: { group_id: 7, limit: 500, offset: 0 } });
    // The old stream's late messages are not acted on.
    server.send(pick(10), first);
    expect(changes).toEqual([9]);

    connection.watch(undefined);
    expect(server.last.input).toEqual({ lastEventId: '9' });
  });

  it('polls draft.status while push is not up, reports a moved draft, and stops polling once push is up', async () => {
    connection.start();
    await vi.advanceTimersByTimeAsync(PUSH_GRACE_MS - 1);
    expect(server.statusReads).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.statusReads).toBe(1);
    expect(stale).toEqual([]);

    server.status = status(12);
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(server.statusReads).toBe(2);
    expect(stale).toEqual([12]);

    server.last.handlers.onStarted();
    // Push up: one look to cover the gap, then no more polling.
    await vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(server.statusReads).toBe(3);
  });

  it('stop closes the stream and nothing runs afterwards', async () => {
    connection.start();
    const stream = server.last;
    connection.stop();
    expect(stream.closed).toBe(true);
    server.send(pick(9), stream);
    await vi.advanceTimersByTimeAsync(PUSH_GRACE_MS + POLL_INTERVAL_MS * 2);
    expect(changes).toEqual([]);
    expect(server.statusReads).toBe(0);
    expect(server.streams).toHaveLength(1);
  });
});
