import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PUBLIC_STREAMS_PER_IP } from '@first-round/shared/constants';
import { MESSAGES } from '@first-round/shared/messages';
import type { DraftChange, Leaderboard, LiveMessage, StandingsUpdate } from '@first-round/shared/schemas';
import { recordPick } from '../src/modules/draft/draft.service.js';
import { PublicLiveStream } from '../src/modules/leaderboard/public-live-stream.js';
import type { TestApp, TestUser } from './support/test-app.js';
import { publicStandingsPair, createGroup, operatorReset, operatorStart, savePicks } from './game/helpers.js';

/**
 * The spectators' live stream (GET /trpc/draft.publicChanges, no sign-in), over real HTTP: a recorded pick
 * reaches an anonymous stream with the public top 100 after it, in one frame; nothing that is not public
 * to a signed-out reader is in its bytes; it resumes after a reconnect; it is capped per address and per
 * instance; it is off (404) with PUBLIC_STANDINGS=false.
 */

let t: TestApp;
let off: TestApp;
let base: string;
let offBase: string;
let alice: TestUser;
let ids: number[];
const GROUP_NAME = 'Secret Squad Spectate';

beforeAll(async () => {
  ({ t, off, base, offBase, ids } = await publicStandingsPair());
  alice = await t.signUp('alice_live');
  const group = await createGroup(t, alice, { name: GROUP_NAME });
  // Alice's picks: the first board player (drafted below) and one nobody drafts (never to be named).
  await savePicks(t, alice, [ids[0]!, ids[40]!]);
  await savePicks(t, alice, [ids[0]!, ids[41]!], group.id);
});
/** Every stream a test opened, closed after it whatever happened. */
const opened: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.close();
  await operatorReset(t);
});
afterAll(async () => {
  await off?.close();
  await t?.close();
});

const pick = (slot: number, playerId: number) => recordPick(t.deps.orm.em.fork(), t.deps.draft, 'test', slot, playerId);

/** An anonymous EventSource's request, read as raw text: every byte the spectator gets. */
function open(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  let text = '';
  let status = 0;
  const done = (async () => {
    const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
    status = res.status;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })().catch(() => {});
  const frames = () =>
    text
      .split('\n\n\n')
      .map((f) => /^data: (.*)\nid: (\d+)$/m.exec(f))
      .filter((m) => m !== null)
      .map((m) => ({ id: Number(m[2]), message: JSON.parse(m[1]!) as LiveMessage | StandingsUpdate }));
  const stream = { text: () => text, status: () => status, frames, done, close: () => controller.abort() };
  opened.push(stream);
  return stream;
}

async function until<T>(check: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const connected = (s: ReturnType<typeof open>) => until(() => s.text().includes('event: connected'));
const publicTop100 = async () => (await (await fetch(`${base}/api/standings/public`)).json()) as Leaderboard;

describe('the spectators live stream', () => {
  it('carries a recorded pick to an anonymous stream, then the new public top 100 with its id', async () => {
    const s = open(`${base}/trpc/draft.publicChanges`);
    await connected(s);
    const start = await operatorStart(t);
    await until(() => s.frames().some((f) => f.message.kind === 'standings' && f.id === start.event_id));
    const recorded = await pick(1, ids[0]!);
    const update = await until(() => s.frames().find((f) => f.message.kind === 'standings' && f.id === recorded.event_id));
    const frames = s.frames();
    expect(frames.map((f) => [f.id, f.message.kind])).toEqual([
      [start.event_id, 'start'],
      [start.event_id, 'standings'],
      [recorded.event_id, 'pick'],
      [recorded.event_id, 'standings'],
    ]);
    expect(frames[2]!.message).toMatchObject({ kind: 'pick', slot: 1, player: { id: ids[0] } });
    // The top 100 after the pick: leaderboard.public's answer, byte for byte the same JSON.
    const page = (update.message as StandingsUpdate).leaderboard;
    expect(page).toEqual(await publicTop100());
    expect(page.rankings.find((r) => r.participant_name === 'alice_live')).toMatchObject({ correct_picks: 1, busted: false });
    expect(page.me).toBeNull();
    s.close();
  });

  it('carries nothing that is not public to a signed-out reader', async () => {
    const s = open(`${base}/trpc/draft.publicChanges`);
    await connected(s);
    await operatorStart(t);
    const recorded = await pick(1, ids[0]!);
    await until(() => s.frames().some((f) => f.message.kind === 'standings' && f.id === recorded.event_id));
    const [undrafted] = await t.db.query<{ player_name: string }>('select player_name from player where id = any($1)', [[ids[40], ids[41]]]);
    const bytes = s.text();
    expect(bytes).not.toMatch(/@|email/i); // no e-mail, nor the operator who recorded it
    expect(bytes).not.toContain(GROUP_NAME);
    expect(bytes).not.toContain(undrafted!.player_name); // a pick nobody drafted stays alice's
    expect(bytes).not.toContain('"picks":[');
    s.close();
  });

  it('replays what a reconnecting spectator missed after its last event id, then the top 100', async () => {
    await operatorStart(t);
    const missed = await pick(1, ids[0]!);
    const s = open(`${base}/trpc/draft.publicChanges`, { 'last-event-id': String(missed.event_id - 1) });
    await until(() => s.frames().some((f) => f.message.kind === 'standings'));
    expect(s.frames().map((f) => [f.id, f.message.kind])).toEqual([
      [missed.event_id, 'pick'],
      [missed.event_id, 'standings'],
    ]);
    expect((s.frames()[0]!.message as DraftChange).player?.id).toBe(ids[0]);
    s.close();
  });

  it(`refuses one stream more than ${MAX_PUBLIC_STREAMS_PER_IP} from one address with 429 and says why; a closed one frees its place`, async () => {
    await until(() => t.deps.publicLive.size === 0);
    const streams = Array.from({ length: MAX_PUBLIC_STREAMS_PER_IP }, () => open(`${base}/trpc/draft.publicChanges`));
    await Promise.all(streams.map(connected));
    await until(() => t.deps.publicLive.size === MAX_PUBLIC_STREAMS_PER_IP);
    const refused = open(`${base}/trpc/draft.publicChanges`);
    await refused.done;
    const error = /event: serialized-error\ndata: (.*)\n/.exec(refused.text());
    expect(JSON.parse(error![1]!)).toMatchObject({ message: MESSAGES.publicStreamsPerIp(MAX_PUBLIC_STREAMS_PER_IP), data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429 } });
    streams[0]!.close();
    await until(() => t.deps.publicLive.size === MAX_PUBLIC_STREAMS_PER_IP - 1);
    const again = open(`${base}/trpc/draft.publicChanges`);
    await connected(again);
    await new Promise((r) => setTimeout(r, 100));
    expect(again.text()).not.toContain('serialized-error');
    for (const s of [...streams, again]) s.close();
    await until(() => t.deps.publicLive.size === 0);
  });

  it('holds a cap for the whole instance too, whatever the addresses, and ends every stream on shutdown', async () => {
    const live = new PublicLiveStream(t.deps, 60_000, { perIp: 5, total: 3 });
    const open3 = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((ip) => live.subscribe(ip, undefined)[Symbol.asyncIterator]());
    expect(() => live.subscribe('10.0.0.4', undefined)).toThrow(MESSAGES.publicStreamsFull(3));
    await open3[0]!.return!();
    const fourth = live.subscribe('10.0.0.4', undefined)[Symbol.asyncIterator]();
    const next = fourth.next();
    live.close();
    expect(await next).toEqual({ done: true, value: undefined });
  });

  it('PUBLIC_STANDINGS=false: the stream is 404 with the standings message', async () => {
    const s = open(`${offBase}/trpc/draft.publicChanges`);
    await s.done;
    const error = /event: serialized-error\ndata: (.*)\n/.exec(s.text());
    expect(JSON.parse(error![1]!)).toMatchObject({ message: MESSAGES.publicStandingsOff, data: { code: 'NOT_FOUND', httpStatus: 404 } });
    expect(off.deps.publicLive.size).toBe(0);
  });
});
