import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { PlayerDto } from '@first-round/shared/schemas';
import { publish, type Topic } from '../src/events/topic-bus.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { eventually, expectStatus, operatorReset } from './game/helpers.js';

/**
 * Each topic of the bus has its own version on every instance, and a cache is stale only when a topic it
 * is made from moves: a join or saved picks re-rank their groups but leave the board and the draft's state
 * in memory, while a board change makes every instance read the board again. Whatever a write changes
 * shows on the writer at once and on the other instance once it hears it. Two instances share one
 * database, as two servers behind a balancer do.
 */

let a: TestApp;
let b: TestApp;
/** A bound against a hang while an instance hears a notification, not a speed target. */
const HEARD_MS = 10_000;
const TOPICS: readonly Topic[] = ['draft', 'board', 'group', 'picks', 'participant', 'sessions_ended', 'push'];

beforeAll(async () => {
  a = await createTestApp({ startEvents: true });
  const sharedKey = a.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  b = await createTestApp({ startEvents: true, sameDatabaseAs: a, env: { LOCAL_IDP_PRIVATE_KEY: sharedKey } });
});
afterEach(() => operatorReset(a));
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const json = <T>(res: LightMyRequestResponse): T => expectStatus<T>(res, 200);
const versions = (t: TestApp) => Object.fromEntries(TOPICS.map((topic) => [topic, t.deps.events.versionOf([topic])]));
const moved = (t: TestApp, before: Record<string, number>) => TOPICS.filter((topic) => t.deps.events.versionOf([topic]) !== before[topic]);

/** A group of two players who reuse their global picks. */
async function groupOfTwo(t: TestApp): Promise<{ owner: TestUser; member: TestUser; groupId: number }> {
  const [owner, member] = [await t.signUp(), await t.signUp()];
  const group = json<{ id: number }>(await t.request('POST', '/api/groups/create-simple', { user: owner, body: { name: `Topics ${Date.now()}` } }));
  return { owner, member, groupId: group.id };
}

describe('a version per topic', () => {
  it('a join moves the group topic and saved picks the picks topic, on the writer at once and on the other instance when heard; nothing else moves', async () => {
    const { owner, member, groupId } = await groupOfTwo(a);
    const players = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    const [onA, onB] = [versions(a), versions(b)];

    json(await a.request('POST', '/api/groups/join', { user: member, body: { group_id: groupId } }));
    expect(moved(a, onA)).toEqual(['group']);
    await eventually(async () => expect(moved(b, onB)).toEqual(['group']), HEARD_MS);
    // The writer applies its change as it commits and again when PostgreSQL echoes it back (topic-bus.ts:
    // listeners hear the echo too). On a busy machine the echo can come after this point: waited for here,
    // so the join's echo is not counted as the next write's.
    await eventually(async () => expect(a.deps.events.versionOf(['group'])).toBe(onA.group! + 2), HEARD_MS);

    const [joinedA, joinedB] = [versions(a), versions(b)];
    json(await a.request('POST', '/api/picks', { user: owner, body: { picks: [players[0]!.id] } }));
    expect(moved(a, joinedA)).toEqual(['picks']);
    await eventually(async () => expect(moved(b, joinedB)).toEqual(['picks']), HEARD_MS);
  });

  it('a join and saved picks leave the board in memory on both instances; a board change makes both read it again', async () => {
    const before = json<PlayerDto[]>(await a.request('GET', '/api/players'));
    json<PlayerDto[]>(await b.request('GET', '/api/players'));
    const player = before[0]!;
    // Written behind the app's back, never announced: only a reason to read the board again shows it.
    await a.db.query(`update player set school = 'Behind The Back' where id = $1`, [player.id]);
    try {
      const schoolOn = async (t: TestApp) => json<PlayerDto[]>(await t.request('GET', '/api/players')).find((p) => p.id === player.id)!.school;

      const { member, groupId } = await groupOfTwo(a);
      const onB = versions(b);
      json(await a.request('POST', '/api/groups/join', { user: member, body: { group_id: groupId } }));
      json(await a.request('POST', '/api/picks', { user: member, body: { picks: [player.id] } }));
      // B has heard both...
      await eventually(async () => expect(moved(b, onB)).toEqual(['group', 'picks']), HEARD_MS);
      // ...and neither instance read the board again for them.
      expect(await schoolOn(a)).toBe(player.school);
      expect(await schoolOn(b)).toBe(player.school);

      // A board change, announced the one way (as the board import does): the writer at once, the other when heard.
      await a.orm().em.fork().transactional((tx) => publish(tx, 'board', { kind: 'board' }));
      expect(await schoolOn(a)).toBe('Behind The Back');
      await eventually(async () => expect(await schoolOn(b)).toBe('Behind The Back'), HEARD_MS);
    } finally {
      await a.db.query(`update player set school = $2 where id = $1`, [player.id, player.school]);
      await a.orm().em.fork().transactional((tx) => publish(tx, 'board', { kind: 'board' }));
    }
  });
});
