/**
 * Testing against the game in-process, with the kit the project's own tests use (docs/typed-api.md,
 * "Testing in-process"): a fresh database, and `createCaller` as a player, an operator or nobody. Runs in
 * `npm test` (vitest's global setup in vitest.config.ts starts the database server once).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_EMAIL, createTestApp, kindOf, type TestApp } from '@first-round/server/testing';

let t: TestApp;
beforeAll(async () => {
  // Its own database, migrated, with the 2025 big board; the app's settings as environment variables.
  t = await createTestApp({ env: { ROUND_ONE_PICKS: '4' } });
});
afterAll(async () => {
  await t?.close();
});

it('a player saves picks, the operator drafts one of them, and the standings count it', async () => {
  const ann = await t.signUp('Ann'); // through the real /idp routes, the code read from the outbox
  const operator = await t.signUp('Operator', ADMIN_EMAIL); // ADMIN_EMAILS makes a draft operator
  const asAnn = await t.caller(ann);
  const asOperator = await t.caller(operator);
  const anonymous = await t.caller();

  const board = await anonymous.players.list();
  const picks = board.slice(0, 3).map((p) => p.id);
  await asAnn.picks.save({ picks });
  expect(await asAnn.picks.global()).toMatchObject({ picks });

  // Refusals carry the kind a client over HTTP reads (error.data.kind, or code over REST).
  await expect(anonymous.picks.global()).rejects.toSatisfy((e) => kindOf(e) === 'UNAUTHORIZED');
  await expect(asAnn.draft.start()).rejects.toSatisfy((e) => kindOf(e) === 'FORBIDDEN');

  await asOperator.draft.start();
  await expect(asAnn.picks.save({ picks: [picks[0]!] })).rejects.toSatisfy((e) => kindOf(e) === 'DRAFT_LOCKED');
  const change = await asOperator.draft.recordPick({ slot: 1, player_id: picks[0]! });
  expect(change).toMatchObject({ kind: 'pick', slot: 1, player: { id: picks[0] } });

  const standings = await asAnn.leaderboard.group({ group_id: 1, limit: 10, offset: 0 });
  expect(standings.me).toMatchObject({ participant_name: 'Ann', correct_picks: 1, picks: 3, busted: false });
});
