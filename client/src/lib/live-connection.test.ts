import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DraftChange, DraftChangesInput, DraftStatus, LeaderboardRow, LiveMessage, StandingsMine, StandingsPage, StandingsUpdate } from '@first-round/shared/schemas';
import { LiveConnection, POLL_INTERVAL_MS, PUSH_GRACE_MS, retryDelay, statusMoved, statusSignature, type LiveTransport } from './live-connection';

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
  send(message: LiveMessage | StandingsUpdate, stream = this.last) {
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
    last_change_at: '2027-04-30T00:00:00.000Z',
    last_event_id,
    round_one_order: [],
  };
}
const pick = (event_id: number): DraftChange => ({ event_id, kind: 'pick', slot: event_id, at: '2027-04-30T01:00:00.000Z' });
const standings = (event_id: number): StandingsUpdate => ({
  kind: 'standings',
  event_id,
  leaderboard: { group_id: 1, draft_started: true, entries: 0, alive: 0, clinched_by: null, rankings: [], me: null, matches: 0, me_position: null, benchmarks: [] },
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

  it('acts on each kind of message by its name and leaves a kind it does not know alone', async () => {
    connection.start();
    server.last.handlers.onStarted();
    server.send(pick(9));
    // A newer server's message: not a change to refresh for, not standings, not where to resume from.
    server.send({ kind: 'recap', event_id: 10, text: 'Round one so far' } as unknown as LiveMessage);
    server.send({ event_id: 11 } as unknown as LiveMessage);
    expect(changes).toEqual([9]);
    expect(pushed).toEqual([]);
    server.send(standings(9));
    server.send({ ...pick(12), kind: 'undo_team' });
    expect(pushed).toEqual([9]);
    expect(changes).toEqual([9, 12]);

    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.last.input).toEqual({ lastEventId: '12' });
    server.send({ kind: 'recap', event_id: 13 } as unknown as LiveMessage);
    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.last.input).toEqual({ lastEventId: '12' });
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

  it('shows a watched page with the reader\'s own part last sent on this stream, never with none or another stream\'s', async () => {
    const shown: StandingsUpdate[] = [];
    connection.stop();
    connection = new LiveConnection({ transport: server, cachedStatus: () => status(8), onChange: () => {}, onStandings: (u) => shown.push(u), onStale: () => {} });
    connection.watch({ group_id: 1, limit: 100, offset: 0 });
    connection.start();
    server.last.handlers.onStarted();
    const row = (rank: number): LeaderboardRow => ({ rank, participant_id: 'p_me', participant_name: 'Me', correct_picks: 1, busted: false, tiebreak_rank: null, picks: 3, hits: 1, misses: 0, max_possible: 3, can_win: true });
    const mine = (event_id: number, rank: number, group_id = 1): StandingsMine => ({ kind: 'standings_me', event_id, group_id, me: row(rank), me_position: rank - 1 });
    const page = (event_id: number, entries: number): StandingsPage => ({
      kind: 'standings_page',
      event_id,
      leaderboard: { group_id: 1, draft_started: true, entries, alive: entries, clinched_by: null, rankings: [], matches: entries, benchmarks: [] },
    });

    // The own part comes first, then the page: shown as the read answers (its keys in the read's order).
    server.send(pick(9));
    server.send(mine(9, 4));
    server.send(page(9, 10));
    expect(shown.map((u) => JSON.stringify(u))).toEqual([
      JSON.stringify({
        kind: 'standings',
        event_id: 9,
        leaderboard: { group_id: 1, draft_started: true, entries: 10, alive: 10, clinched_by: null, rankings: [], me: row(4), matches: 10, me_position: 3, benchmarks: [] },
      }),
    ]);
    // Unchanged, the own part is not sent again: the last one holds.
    server.send(pick(10));
    server.send(page(10, 11));
    expect(shown.at(-1)!.leaderboard).toMatchObject({ entries: 11, me: row(4), me_position: 3 });
    server.send(mine(11, 2));
    server.send(page(11, 11));
    expect(shown.at(-1)!.leaderboard).toMatchObject({ me: row(2), me_position: 1 });
    expect(shown.map((u) => u.event_id)).toEqual([9, 10, 11]);

    // A new stream starts without one: a page before its own part is not shown (the read after the wait brings it).
    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(1000);
    server.send(page(12, 12));
    // Nor with another group's own part.
    server.send(mine(13, 1, 7));
    server.send(page(13, 12));
    expect(shown.map((u) => u.event_id)).toEqual([9, 10, 11]);
    // The stream resumes from the last page shown.
    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(2000);
    expect(server.last.input).toMatchObject({ lastEventId: '11' });
  });

  it('reopening for another page before any message came resumes from the draft the cache shows: a change made between the two streams is replayed, not lost', () => {
    // The page read draft.status (event 8), its stream opened and nothing has come on it yet.
    connection.start();
    server.last.handlers.onStarted();
    const first = server.last;
    // The leaderboard opens: the stream is reopened to carry its page. The operator's start (event 9)
    // commits while neither stream is listening; only a resume from event 8 brings it.
    connection.watch({ group_id: 1, limit: 100, offset: 0 });
    expect(first.closed).toBe(true);
    expect(server.last.input).toEqual({ lastEventId: '8', standings: { group_id: 1, limit: 100, offset: 0 } });
    server.send(pick(9));
    expect(changes).toEqual([9]);
  });

  it("marks a stream's opening page: a page before any change on that stream, on every new stream", async () => {
    const shown: Array<[number, boolean]> = [];
    connection.stop();
    connection = new LiveConnection({ transport: server, cachedStatus: () => status(8), onChange: () => {}, onStandings: (u, opening) => shown.push([u.event_id, opening]), onStale: () => {} });
    connection.watch({ group_id: 1, limit: 100, offset: 0 });
    connection.start();
    server.last.handlers.onStarted();
    // The page a new stream brings at once (as of the draft now), then a change and the page after it.
    server.send(standings(8));
    server.send(pick(9));
    server.send(standings(9));
    expect(shown).toEqual([[8, true], [9, false]]);
    // A new stream after a failure: its replayed change comes first, so its page is not an opening one;
    // a stream with nothing to replay brings none until the next change.
    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(1000);
    server.send(pick(10));
    server.send(standings(10));
    server.last.handlers.onError();
    await vi.advanceTimersByTimeAsync(2000);
    server.send(standings(10));
    expect(shown).toEqual([[8, true], [9, false], [10, false], [10, true]]);
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

describe('what the connection compares and how long it waits', () => {
  const statusWith = (over: Partial<DraftStatus> = {}): DraftStatus => ({ ...status(9), ...over });

  it('sees an undo followed by a new pick as a change even when the count is the same', () => {
    expect(statusSignature(statusWith())).toBe(statusSignature(statusWith()));
    expect(statusSignature(statusWith({ last_event_id: 10 }))).not.toBe(statusSignature(statusWith()));
    expect(statusSignature(undefined)).toBeNull();
  });

  it('refreshes when the status moved, and when there was no baseline to compare with', () => {
    expect(statusMoved(statusSignature(statusWith()), statusSignature(statusWith()))).toBe(false);
    expect(statusMoved(statusSignature(statusWith()), statusSignature(statusWith({ round_one_complete: true })))).toBe(true);
    // A page that never read draft.status (the leaderboard) must not assume nothing changed.
    expect(statusMoved(null, statusSignature(statusWith({ round_one_complete: true })))).toBe(true);
  });

  it('backs off 1, 2, 4, 8, then 15 seconds between reconnects', () => {
    expect([1, 2, 3, 4, 5, 9].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000]);
  });
});
