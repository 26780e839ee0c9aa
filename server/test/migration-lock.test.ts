import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openAppDatabase, type AppDatabase } from '../src/db/database.js';
import { runServerUrl } from '../src/testing/index.js';

/**
 * A deployment's first start, or an upgrade: two instances started together on one database that needs
 * creating and migrating. Both must come up (one migrates, the other waits, then finds nothing to do).
 */
describe('instances started together on a new database', () => {
  const name = `fr_lock_${crypto.randomBytes(5).toString('hex')}`;
  const url = new URL(runServerUrl());
  url.pathname = `/${name}`;
  const opened: AppDatabase[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
    const admin = new pg.Client({ connectionString: runServerUrl() });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('both start: the database is created once and migrated once', async () => {
    const config = loadConfig({ DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' });
    const results = await Promise.allSettled([openAppDatabase(config, { poolMax: 2 }), openAppDatabase(config, { poolMax: 2 })]);
    for (const r of results) if (r.status === 'fulfilled') opened.push(r.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual(['started', 'started']);
    const [applied] = await opened[0]!.orm.em.getConnection().execute<{ n: string; distinct_names: string }[]>(
      'select count(*) as n, count(distinct name) as distinct_names from mikro_orm_migrations',
    );
    expect(Number(applied!.n)).toBeGreaterThan(0);
    expect(applied!.n).toBe(applied!.distinct_names);
  });
});
