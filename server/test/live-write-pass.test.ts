import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPick } from '../src/modules/draft/draft.service.js';
import { LiveStream } from '../src/modules/leaderboard/live-stream.js';
import type { StreamSocket } from '../src/wire/sse-outlet.js';
import { operatorReset, operatorStart } from './game/helpers.js';
import { createTestApp, type TestApp } from './support/test-app.js';
import { until } from './support/game-process.js';

/*
 * At a pick the fan-out first makes every watching stream's bytes (its change, its reader's own part, the
 * page), each held in its response while its socket is corked, and only then lets the sockets go, one after
 * another with nothing in between: the kernel's writes of a pick go back to back, as a plain server's do.
 * Written stream by stream instead, each socket's write woke its reader in the middle of the fan-out, and
 * on a machine the readers share (the load generator of `npm run bench:draft`, a proxy) the rest of the
 * fan-out waited for the cores behind them (docs/benchmarks.md, "Browser-like clients").
 */

const STREAMS = 30;
/** A bound on waiting for a condition, so a hang fails instead of running forever (not a speed check). */
const WAIT_MS = 30_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  await operatorStart(t);
});
afterAll(async () => {
  await operatorReset(t);
  await t?.close();
});

type Entry = { stream: number; what: 'write' | 'cork' | 'uncork'; page?: boolean };

/** A response (what the stream writes to, and its socket's corking) whose every call goes to one shared log. */
function recordingResponse(stream: number, log: Entry[]) {
  let corked = 0;
  const sink = {
    cork() {},
    uncork() {},
    write(chunk: string | Buffer) {
      log.push({ stream, what: 'write', page: String(chunk).includes('"standings_page"') });
      return true;
    },
    end() {},
  };
  const socket: StreamSocket = {
    writableNeedDrain: false,
    writableLength: 0,
    once: () => socket as never,
    destroy: () => socket as never,
    cork() {
      corked += 1;
      log.push({ stream, what: 'cork' });
    },
    uncork() {
      corked -= 1;
      log.push({ stream, what: 'uncork' });
    },
  };
  return { sink, socket, corked: () => corked };
}

describe('the live fan-out at a pick', () => {
  it("lets every stream's socket go only once every stream's page is made and written to it, and leaves none corked", async () => {
    const log: Entry[] = [];
    const live = new LiveStream(t.deps, 60_000);
    const responses = Array.from({ length: STREAMS }, (_, i) => recordingResponse(i, log));
    responses.forEach(({ sink, socket }, i) =>
      live.subscribe(`user_writepass_${i}`, { standings: { group_id: 1, offset: 0, limit: 100 } }).sendTo(sink, String, socket),
    );
    try {
      await until(() => new Set(log.filter((e) => e.page).map((e) => e.stream)).size === STREAMS, WAIT_MS, 'the opening pages');
      log.length = 0;
      const [player] = await t.db.query<{ id: number }>(`select id from player order by rank limit 1`);
      await recordPick(t.orm().em.fork(), t.deps.draft, 'test', 1, player!.id);
      await until(() => new Set(log.filter((e) => e.page).map((e) => e.stream)).size === STREAMS, WAIT_MS, "the pick's pages");
      await until(() => responses.every((r) => r.corked() === 0), WAIT_MS, 'every socket let go');

      const lastPage = log.findLastIndex((e) => e.page);
      const firstLetGo = log.findIndex((e) => e.what === 'uncork');
      expect(firstLetGo).toBeGreaterThan(lastPage);
      // After the last page, the sockets are let go one after another: nothing else is written between.
      expect(log.slice(lastPage + 1).every((e) => e.what === 'uncork')).toBe(true);
      expect(new Set(log.slice(lastPage + 1).map((e) => e.stream)).size).toBe(STREAMS);
    } finally {
      live.close();
    }
  });
});
