import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { recordPick, startDraft } from '../src/modules/draft/draft.service.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { until } from './support/game-process.js';

/*
 * Readers that stop reading (a phone in a tunnel, a tab the browser froze): the server stops writing to a
 * stream whose socket does not drain, keeps only what it owes it, and when it drains sends the changes it
 * missed and the newest page, not every page in between. Past the bound of what it may owe, the stream is
 * closed with a reason, and the client reconnects from its last event id.
 *
 * The server listens on a Unix socket here: its buffers are ~200 KB (a loopback TCP connection takes ~4 MB
 * before anything waits in the server's own memory), so a handful of large pages fills them. The streams
 * are the SSE route's (FAST_PATHS' `streams` piece, on here whatever the run's FAST_PATHS): tRPC's own
 * adapter reads the hub's streams at its own pace and is not bounded this way.
 */

let t: TestApp;
let socketPath: string;
let users: TestUser[];
/** The watched page: every entry, so that each page is tens of KB. */
const WATCH = { group_id: 1, offset: 0, limit: 1000 };
let boardIds: number[];
let slot = 0;

interface Frame {
  event?: string;
  id?: number;
  data: string;
}

/** An SSE stream read over the Unix socket, frames kept as they come; `pause` stops reading from the socket. */
function openStream(token: string, lastEventId?: number) {
  const frames: Frame[] = [];
  let text = '';
  let ended = false;
  const input = encodeURIComponent(JSON.stringify({ standings: WATCH }));
  const params = encodeURIComponent(JSON.stringify({ token }));
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (lastEventId !== undefined) headers['last-event-id'] = String(lastEventId);
  let response: http.IncomingMessage | undefined;
  const request = http.get({ socketPath, path: `/trpc/draft.changes?connectionParams=${params}&input=${input}`, headers }, (res) => {
    response = res;
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      text += chunk;
      let at: number;
      while ((at = text.indexOf('\n\n')) >= 0) {
        const block = text.slice(0, at);
        text = text.slice(at + 2);
        if (block.trim() === '') continue;
        const frame: Frame = { data: '' };
        for (const line of block.split('\n')) {
          const colon = line.indexOf(': ');
          const [field, value] = colon < 0 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 2)];
          if (field === 'event') frame.event = value;
          else if (field === 'id') frame.id = Number(value);
          else if (field === 'data') frame.data += value;
        }
        frames.push(frame);
      }
    });
    res.on('end', () => (ended = true));
    res.on('close', () => (ended = true));
  });
  request.on('error', () => (ended = true));
  const messages = () => frames.filter((f) => f.event === undefined && f.data).map((f) => ({ id: f.id!, ...(JSON.parse(f.data) as { kind: string }) }));
  return {
    frames,
    messages,
    pages: () => messages().filter((m) => m.kind === 'standings_page'),
    changes: () => messages().filter((m) => m.kind !== 'standings_page' && m.kind !== 'standings_me'),
    get ended() {
      return ended;
    },
    pause: () => response!.pause(),
    resume: () => response!.resume(),
    close: () => request.destroy(),
  };
}
type Stream = ReturnType<typeof openStream>;
/** A bound on waiting for a condition, so a hang fails instead of running forever (not a speed check). */
const WAIT_MS = 60_000;


const newestEvent = async () => Number((await t.db.query<{ id: string }>(`select id from draft_event order by id desc limit 1`))[0]!.id);

/** Records the next pick and waits until `control` (a reader that reads) has its page. */
async function pick(control: Stream): Promise<number> {
  slot += 1;
  await recordPick(t.orm().em.fork(), t.deps.draft, 'test', slot, boardIds[slot - 1]!);
  const id = await newestEvent();
  await until(() => control.pages().some((p) => p.id === id), WAIT_MS, `the page of pick ${slot} on the reading stream`);
  return id;
}

/** Opens `count` streams, each read until its opening page came, then paused; and a reading one, opened last. */
async function openStuck(count: number) {
  const stuck = Array.from({ length: count }, (_, i) => openStream(users[i % users.length]!.token));
  await until(() => stuck.every((s) => s.pages().length > 0), WAIT_MS, 'the opening pages');
  for (const s of stuck) s.pause();
  const control = openStream(users[0]!.token);
  await until(() => control.pages().length > 0, WAIT_MS, 'the reading stream open');
  return { stuck, control };
}

beforeAll(async () => {
  t = await createTestApp({ startEvents: true, env: { FAST_PATHS: 'on' } });
  socketPath = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-slow-')), 'server.sock');
  await t.app.listen({ path: socketPath });
  boardIds = (await t.db.query<{ id: number }>(`select id from player order by rank limit 100`)).map((r) => r.id);
  // 600 global entries with long names and a dozen picks each: a page of every entry is tens of KB.
  const participants = Array.from({ length: 600 }, (_, i) => `user_slowreader_${String(i).padStart(4, '0')}`);
  await t.db.query(`insert into participant (id, screen_name) select unnest($1::text[]), unnest($2::text[])`, [
    participants,
    participants.map((p) => `${p}_with_a_rather_long_screen_name`.slice(0, 40)),
  ]);
  const picks = participants.flatMap((p, i) => Array.from({ length: 12 }, (_, k) => [p, boardIds[(i + k * 7) % boardIds.length]!] as const));
  await t.db.query(`insert into pick (participant_id, group_id, player_id) select unnest($1::text[]), 1, unnest($2::int[])`, [picks.map((p) => p[0]), picks.map((p) => p[1])]);
  users = [await t.signUp('slowreader1'), await t.signUp('slowreader2')];
  await startDraft(t.orm().em.fork(), t.deps.draft, 'test');
});
afterAll(async () => {
  await t?.close();
});

describe('a reader whose socket stops draining', () => {
  it('gets, once it drains, the changes it missed and the newest page: not every page it missed', async () => {
    const { stuck, control } = await openStuck(24);
    const pageBytes = control.frames.at(-1)!.data.length;
    expect(pageBytes).toBeGreaterThan(20_000);
    // This file's pages are several times a real one (600 long names): the bound in bytes, tested below, is set
    // past them here so that this test sees the compaction alone.
    const limits = t.deps.live.owedLimits;
    t.deps.live.owedLimits = { changes: limits.changes, bytes: 64 * 1024 * 1024 };
    onTestFinished(() => {
      t.deps.live.owedLimits = limits;
    });
    // Enough picks that every page cannot fit in the socket's buffers (~200 KB each way) several times over.
    const picks = Math.ceil((1024 * 1024) / pageBytes) + 4;
    const ids: number[] = [];
    for (let i = 0; i < picks; i++) ids.push(await pick(control));
    const last = ids.at(-1)!;

    for (const s of stuck) s.resume();
    await until(() => stuck.every((s) => s.pages().some((p) => p.id === last)), WAIT_MS, 'the newest page on every stuck stream');
    for (const s of stuck) {
      // Every change once, in order; the last message the newest page.
      expect(s.changes().map((c) => c.id)).toEqual(ids);
      expect(s.messages().at(-1)).toMatchObject({ kind: 'standings_page', id: last });
      // Not every page: what fitted in the buffers, then the newest.
      expect(s.pages().length).toBeLessThan(picks / 2);
      // The changes it missed came together, before the newest page: no page between them.
      const tail = s.messages().slice(s.messages().findLastIndex((m) => m.kind === 'standings_page' && m.id !== last) + 1);
      expect(tail.filter((m) => m.kind !== 'standings_me').map((m) => m.kind)).toEqual([...Array(tail.filter((m) => m.kind === 'pick').length).fill('pick'), 'standings_page']);
      expect(tail.filter((m) => m.kind === 'pick').length).toBeGreaterThan(2);
      s.close();
    }
    control.close();
  });

  it('is closed with a reason once it is owed more than its bound, and catches up from its last event id on reconnecting', async () => {
    const { stuck, control } = await openStuck(8);
    const open = t.deps.live.size;
    const limits = t.deps.live.owedLimits;
    // At most 3 changes owed (and bytes enough for everything else).
    t.deps.live.owedLimits = { changes: 3, bytes: 64 * 1024 * 1024 };
    try {
      const pageBytes = control.frames.at(-1)!.data.length;
      const ids: number[] = [];
      // The socket's buffers full (~200 KB), then more changes than the bound.
      for (let i = 0; i < Math.ceil((512 * 1024) / pageBytes) + 4; i++) ids.push(await pick(control));
      // Closed: their places given back while the reading stream stays.
      await until(() => t.deps.live.size === open - stuck.length, WAIT_MS, 'the stuck streams closed');
      for (const s of stuck) s.resume();
      await until(() => stuck.every((s) => s.ended), WAIT_MS, 'the stuck streams ended');
      for (const s of stuck) {
        const reason = s.frames.at(-1)!;
        expect(reason.event).toBe('serialized-error');
        expect(JSON.parse(reason.data)).toMatchObject({ message: expect.stringMatching(/fell behind/), data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429 } });
        // Reconnecting from the last event id it saw: the changes after it, then the newest page.
        const seen = s.messages().at(-1)!.id;
        const again = openStream(users[0]!.token, seen);
        await until(() => again.pages().some((p) => p.id === ids.at(-1)), WAIT_MS, 'the newest page after reconnecting');
        expect([...s.changes(), ...again.changes()].map((c) => c.id)).toEqual(ids);
        again.close();
      }
    } finally {
      t.deps.live.owedLimits = limits;
      control.close();
    }
  });

  it('is closed once what it is owed passes the bound in bytes', async () => {
    const { stuck, control } = await openStuck(4);
    const open = t.deps.live.size;
    const limits = t.deps.live.owedLimits;
    // Less than one page and what waits in its socket's buffer.
    t.deps.live.owedLimits = { ...limits, bytes: 16 * 1024 };
    try {
      const pageBytes = control.frames.at(-1)!.data.length;
      for (let i = 0; i < Math.ceil((512 * 1024) / pageBytes) + 2; i++) await pick(control);
      await until(() => t.deps.live.size === open - stuck.length, WAIT_MS, 'the stuck streams closed');
      for (const s of stuck) s.resume();
      await until(() => stuck.every((s) => s.ended), WAIT_MS, 'the stuck streams ended');
      for (const s of stuck) expect(s.frames.at(-1)!.event).toBe('serialized-error');
    } finally {
      t.deps.live.owedLimits = limits;
      control.close();
    }
  });
});
