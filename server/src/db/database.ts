import path from 'node:path';
import type { Config } from '../config.js';
import { startEmbeddedPostgres, withDatabase, APP_DATABASE, type RunningDatabase } from './embedded-postgres.js';
import { ensureDatabaseExists, migrate, openOrm, type Orm } from './orm.js';

/** The database could not be started or reached; the message is one line an operator can act on. */
export class DatabaseUnavailableError extends Error {}

/**
 * DATABASE_URL when set; otherwise the embedded PostgreSQL under DATA_DIR (started, or joined if running).
 * `supervise`: the embedded cluster is started again by itself whenever it dies (the server).
 */
export async function openDatabase(
  config: Config,
  log: (line: string) => void,
  supervise = false,
): Promise<{ url: string; embedded?: RunningDatabase }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL };
  const dir = path.join(config.dataDir, 'pg');
  log(`Starting embedded PostgreSQL in ${dir}`);
  const embedded = await startEmbeddedPostgres(dir, { log, supervise });
  return { url: withDatabase(embedded.serverUrl, APP_DATABASE), embedded };
}

/** One line naming the server (host, port, database: never the password) and what went wrong. */
export function describeDbError(error: unknown, url: string): string {
  const e = error as { code?: string; message?: string };
  let where = 'the configured server';
  try {
    const u = new URL(url);
    where = `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    // keep the generic description
  }
  return `Database unreachable at ${where}: ${e.code ? `${e.code} ` : ''}${e.message ?? String(error)}`;
}

export interface AppDatabase {
  orm: Orm;
  embedded?: RunningDatabase;
  /**
   * Closes the pool and stops the embedded cluster if this process started it. A connection still busy gets
   * `poolWaitMs` (5 s by default) before the cluster is stopped under it.
   */
  close(poolWaitMs?: number): Promise<void>;
}

/**
 * The game's database, ready to use: started or reached, created when missing, migrated. The server and
 * every operator command open it this one way.
 */
export async function openAppDatabase(
  config: Config,
  options: { log?: (line: string) => void; poolMax?: number; supervise?: boolean } = {},
): Promise<AppDatabase> {
  const db = await openDatabase(config, options.log ?? (() => {}), options.supervise).catch((error: unknown) => {
    throw new DatabaseUnavailableError(`Could not start the embedded PostgreSQL: ${(error as Error)?.message ?? error}`);
  });
  let orm: Orm;
  try {
    await ensureDatabaseExists(db.url);
    orm = await openOrm(db.url, options.poolMax);
    await migrate(orm);
  } catch (error) {
    await db.embedded?.stop().catch(() => {});
    throw new DatabaseUnavailableError(describeDbError(error, db.url));
  }
  return {
    orm,
    embedded: db.embedded,
    async close(poolWaitMs = 5000) {
      // A connection still busy (a request cut off after the drain) must not keep PostgreSQL running:
      // its fast shutdown ends such sessions anyway.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([orm.close(true).catch(() => {}), new Promise((resolve) => (timer = setTimeout(resolve, poolWaitMs)))]);
      clearTimeout(timer);
      await db.embedded?.stop().catch(() => {});
    },
  };
}
