import crypto from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from '../db/embedded-postgres.js';

export interface TestDb {
  url: string;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** The run's PostgreSQL server (database `postgres`), the embedded one or DATABASE_URL's. */
export const runServerUrl = (): string => inject('dbServerUrl');

/**
 * A fresh, migrated database of its own (a clone of the run's template), dropped again by close().
 * `empty`: no tables at all (a restore's target). `serverUrl`: on another server than the run's (then empty).
 */
export async function createTestDb(options: { empty?: boolean; serverUrl?: string } = {}): Promise<TestDb> {
  const serverUrl = options.serverUrl ?? inject('dbServerUrl');
  const template = options.empty || options.serverUrl ? 'template0' : inject('dbTemplate');
  if (!serverUrl || !template) {
    throw new Error(
      "No test database server: add globalSetup: ['@first-round/server/testing/global-setup'] to the vitest config (it starts the embedded PostgreSQL, or uses DATABASE_URL)",
    );
  }
  const name = `fr_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${template}`);
      break;
    } catch (error) {
      // Two workers cloning the same template at the same instant: PostgreSQL asks the second to wait.
      if (attempt < 20 && String(error).includes('being accessed by other users')) {
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
        continue;
      }
      throw error;
    }
  }
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  return {
    url,
    async query<T>(sql: string, params?: unknown[]) {
      const result = await pool.query(sql, params);
      return result.rows as T[];
    },
    async close() {
      await pool.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
