import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres, withDatabase, APP_DATABASE, type RunningDatabase } from './embedded-postgres.js';

/** DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR (started, or joined if running). */
export async function openDatabase(config: Config, log: (line: string) => void): Promise<{ url: string; embedded?: RunningDatabase }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const dir = path.join(config.dataDir, 'pg');
  log(`Starting embedded PostgreSQL in ${dir}`);
  const embedded = await startEmbeddedPostgres(dir);
  return { url: withDatabase(embedded.serverUrl, APP_DATABASE), embedded };
}

