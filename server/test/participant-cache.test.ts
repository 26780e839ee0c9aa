import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Invalidation } from '../src/events/topics.js';
import type { Identity } from '../src/modules/auth/bearer.js';
import { ensureParticipant } from '../src/modules/auth/account.service.js';
import { createTestApp, type TestApp, type TestUser } from './support/test-app.js';
import { eventually } from './game/helpers.js';

/**
 * The participant cache serves a signed-in caller's row (their name, admin flag) from memory. A rename
 * announces `participant`, which drops the row; but a read of the row that began before the rename and
 * stores what it read after that drop would bring the old name back, served until the next rename.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ startEvents: true });
});
afterAll(async () => t?.close());

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const screenName = async (user: TestUser) => {
  const res = await t.request('GET', '/api/auth/me', { user });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { screen_name: string }).screen_name;
};

const rename = async (user: TestUser, name: string) => {
  const res = await t.request('POST', '/api/auth/update-screen-name', { user, body: { screen_name: name } });
  expect(res.statusCode, res.body).toBe(200);
};

/** Resolves once `participantId`'s change has been applied here `times` times (at the commit, then its NOTIFY echo). */
function heard(participantId: string, times: number): Promise<void> {
  let seen = 0;
  const done = deferred();
  const off = t.deps.events.onInvalidate((message: Invalidation) => {
    if (message.kind === 'participant' && message.participant_id === participantId && ++seen >= times) done.resolve();
  });
  return done.promise.finally(off);
}

describe('participant cache', () => {
  it('a rename that commits while a read of the row is in flight is not undone by that read', async () => {
    const user = await t.signUp();
    expect(await screenName(user)).toBe(user.username);
    const first = `first${Date.now() % 100000}`;
    await rename(user, first);
    expect(await screenName(user)).toBe(first);
    // Out of memory again (as after any announcement about it), so the next caller reads the row.
    t.deps.events.invalidate({ kind: 'participant', participant_id: user.id });

    // A read of the row, as signedIn makes when the row is not in memory: its query runs against the
    // database and returns the row as it is (`first`); its result is held back before it is stored.
    const em = t.orm().em.fork();
    const fetched = deferred();
    const release = deferred();
    const findOne = em.findOne.bind(em);
    em.findOne = (async (...args: Parameters<EntityManager['findOne']>) => {
      const row = await findOne(...args);
      fetched.resolve();
      await release.promise;
      return row;
    }) as EntityManager['findOne'];
    const identity: Identity = { provider: 'local', userId: user.id, sessionId: null, claims: {}, token: user.token };
    const reading = ensureParticipant(em, identity, t.deps.participants);
    await fetched.promise;

    // The rename commits and is applied (at its commit, and again when its NOTIFY comes back)...
    const second = `second${Date.now() % 100000}`;
    const applied = heard(user.id, 2);
    await rename(user, second);
    await applied;
    // ...and only then does the read store what it read.
    release.resolve();
    expect((await reading).screen_name).toBe(first);

    expect(await screenName(user)).toBe(second);
    await eventually(async () => expect(await screenName(user)).toBe(second));
  });

  it("a player's first call on a freshly started instance leaves an unchanged row alone, and brings a changed e-mail up to date", async () => {
    const user = await t.signUp('restarted');
    expect(await screenName(user)).toBe('restarted');
    const row = async () => (await t.db.query<{ xmin: string; email: string }>(`select xmin::text, email from participant where id = $1`, [user.id]))[0]!;
    const before = await row();
    // Another instance of the same deployment (same database, same sign-in key) sees the player for the first time.
    const key = t.deps.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const restarted = await createTestApp({ sameDatabaseAs: t, env: { LOCAL_IDP_PRIVATE_KEY: key } });
    try {
      expect((await restarted.request('GET', '/api/auth/me', { user })).statusCode).toBe(200);
      expect(await row()).toEqual(before);
      // An e-mail changed at the sign-in provider is still taken over at the first call on an instance.
      await t.db.query(`update idp_user set email = 'moved@example.com' where id = $1`, [user.id]);
      const again = await createTestApp({ sameDatabaseAs: t, env: { LOCAL_IDP_PRIVATE_KEY: key } });
      try {
        expect((await again.request('GET', '/api/auth/me', { user })).statusCode).toBe(200);
        expect((await row()).email).toBe('moved@example.com');
      } finally {
        await again.close();
      }
    } finally {
      await restarted.close();
    }
  });
});
