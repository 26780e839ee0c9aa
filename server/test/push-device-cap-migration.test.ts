/**
 * The push-device cap's migration on a database from before it: each device's `subscribed_at` starts at its
 * creation, a player with more than 10 devices keeps their 10 newest (the rest go with their waiting
 * pushes), and every other row is left as it was.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Orm } from '../src/db/orm.js';
import { databaseBefore } from './support/migrations.js';
import type { TestDb } from './support/test-db.js';

const DEVICE_CAP = 'Migration20270113000000_push_device_cap';

let db: TestDb;
let orm: Orm;
beforeAll(async () => {
  ({ db, orm } = await databaseBefore(DEVICE_CAP));
});
afterAll(async () => {
  await orm?.close(true);
  await db?.close();
});

it("keeps each player's 10 newest devices, with their pushes, and leaves everyone else's as they were", async () => {
  await db.query(`insert into participant (id, screen_name) values ('user_many', 'Many'), ('user_few', 'Few')`);
  // 3,000 devices of one player, created a second apart (the newest last); 3 of another.
  await db.query(
    `insert into push_subscription (participant_id, endpoint, p256dh, auth, created_at)
     select 'user_many', 'https://fcm.googleapis.com/fcm/send/many-' || n, 'k', 'a', timestamptz '2027-01-01' + make_interval(secs => n)
       from generate_series(1, 3000) n`,
  );
  await db.query(
    `insert into push_subscription (participant_id, endpoint, p256dh, auth, delay_seconds, created_at)
     select 'user_few', 'https://fcm.googleapis.com/fcm/send/few-' || n, 'k' || n, 'a' || n, 30, timestamptz '2026-01-01' + make_interval(secs => n)
       from generate_series(1, 3) n`,
  );
  await db.query(
    `insert into push_delivery (endpoint, payload, due_at) select endpoint, '{}'::jsonb, now() from push_subscription
      where endpoint in ('https://fcm.googleapis.com/fcm/send/many-1', 'https://fcm.googleapis.com/fcm/send/many-3000', 'https://fcm.googleapis.com/fcm/send/few-1')`,
  );
  const fewBefore = await db.query(`select id, endpoint, p256dh, auth, delay_seconds, created_at from push_subscription where participant_id = 'user_few' order by id`);

  await orm.getMigrator().up();

  const many = await db.query<{ endpoint: string; same: boolean }>(
    `select endpoint, subscribed_at = created_at as same from push_subscription where participant_id = 'user_many' order by subscribed_at`,
  );
  expect(many.map((r) => r.endpoint)).toEqual(Array.from({ length: 10 }, (_, i) => `https://fcm.googleapis.com/fcm/send/many-${2991 + i}`));
  expect(many.every((r) => r.same)).toBe(true);
  expect(await db.query(`select id, endpoint, p256dh, auth, delay_seconds, created_at from push_subscription where participant_id = 'user_few' order by id`)).toEqual(fewBefore);
  expect((await db.query<{ endpoint: string }>(`select endpoint from push_delivery order by endpoint`)).map((r) => r.endpoint)).toEqual([
    'https://fcm.googleapis.com/fcm/send/few-1',
    'https://fcm.googleapis.com/fcm/send/many-3000',
  ]);
});
