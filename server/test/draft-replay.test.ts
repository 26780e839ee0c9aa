/**
 * `replayRoundOne2025` called in-process (as tests and tools do), without an `onChange` callback, right
 * after picks saved over HTTP: every slot must land in the database, not only be counted. It used to
 * return 32 and write nothing (replay.ts passed each write as the argument of `options.onChange?.(…)`,
 * which JavaScript skips evaluating when there is no callback).
 *
 * It also checks the suspicion that came with the report: code running in an AsyncLocalStorage context
 * inherited from an earlier, already finished `em.transactional` (a timer set inside it) still writes
 * for real through `orm.em.fork()`.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { TransactionContext } from '@mikro-orm/postgresql';
import { resetDraft } from '../src/modules/draft/draft.service.js';
import { loadRoundOne2025, replayRoundOne2025 } from '../src/modules/draft/replay.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { boardIds } from './game/helpers.js';

let t: TestApp;
let users: TestUser[];
let players: number[];
let expected: { slot: number; playerId: number }[];
let eventsBefore: number;

const pickEvents = async () => (await t.db.query<{ n: number }>(`select count(*)::int as n from draft_event where kind in ('start', 'pick')`))[0]!.n;
const drafted = async () =>
  (await t.db.query<{ slot: number; playerId: number }>(`select draft_pick as slot, id as "playerId" from player where draft_round = 1 order by draft_pick`)).map((r) => ({
    slot: r.slot,
    playerId: r.playerId,
  }));
const save = (u: TestUser, i: number) => t.request('POST', '/api/picks/', { user: u, body: { picks: players.slice(i * 5, i * 5 + 5) } });

/** Every round-one slot filled with the file's player, and a start plus 32 pick events in the audit log. */
async function expectReplayLanded(recorded: number) {
  expect(recorded).toBe(32);
  expect(await drafted()).toEqual(expected.map(({ slot, playerId }) => ({ slot, playerId })));
  expect((await pickEvents()) - eventsBefore).toBe(33);
  const status = (await t.request('GET', '/api/draft/status')).json() as { draftHasStarted: boolean; picks_made: number };
  expect(status).toMatchObject({ draftHasStarted: true, picks_made: 32 });
}

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
  users = [await t.signUp(), await t.signUp(), await t.signUp()];
  players = await boardIds(t);
  expected = await loadRoundOne2025(t.deps.orm.em.fork());
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await resetDraft(t.deps.orm.em.fork(), 'test');
  eventsBefore = await pickEvents();
});

it('replays after picks saved one after another over HTTP', async () => {
  for (const [i, u] of users.entries()) expect((await save(u, i)).statusCode).toBe(200);
  await expectReplayLanded(await replayRoundOne2025(t.deps.orm.em.fork(), t.deps.draft, 'test'));
});

it('replays after picks saved all at once over HTTP', async () => {
  for (const res of await Promise.all(users.map(save))) expect(res.statusCode).toBe(200);
  await expectReplayLanded(await replayRoundOne2025(t.deps.orm.em.fork(), t.deps.draft, 'test'));
});

it('replays while saves are still in flight (they may be refused once the draft starts, never the replay)', async () => {
  const inFlight = users.map(save);
  await expectReplayLanded(await replayRoundOne2025(t.deps.orm.em.fork(), t.deps.draft, 'test'));
  // A save that loses the race with the start is refused as every save after it is: 409, kind DRAFT_LOCKED.
  for (const res of await Promise.all(inFlight)) {
    if (res.statusCode === 200) continue;
    expect(res.statusCode).toBe(409);
    expect((res.json() as { code: string }).code).toBe('DRAFT_LOCKED');
  }
});

for (const outcome of ['committed', 'rolled back'] as const) {
  it(`writes for real from a timer set inside a transaction that has since ${outcome}`, async () => {
    let sawStaleContext = false;
    let replay!: Promise<number>;
    const transaction = t.deps.orm.em.fork().transactional(async () => {
      // Runs after the transaction has finished, in the AsyncLocalStorage context captured inside it.
      replay = new Promise((resolve, reject) =>
        setTimeout(() => {
          sawStaleContext = TransactionContext.currentTransactionContext() !== undefined;
          replayRoundOne2025(t.deps.orm.em.fork(), t.deps.draft, 'test').then(resolve, reject);
        }, 20),
      );
      if (outcome === 'rolled back') throw new Error('roll back');
    });
    if (outcome === 'rolled back') await expect(transaction).rejects.toThrow('roll back');
    else await transaction;
    const recorded = await replay;
    expect(sawStaleContext).toBe(true);
    await expectReplayLanded(recorded);
  });
}
