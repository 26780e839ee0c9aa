import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../server/src/config.js';
import { DatabaseUnavailableError, openAppDatabase } from '../../server/src/db/database.js';
import type { Orm } from '../../server/src/db/orm.js';
import { seedDefaultBoard } from '../../server/src/modules/players/board.service.js';

export interface ScriptDatabase {
  config: Config;
  orm: Orm;
  close(): Promise<void>;
}

/**
 * The same database `npm start` uses: DATABASE_URL, or the embedded cluster under DATA_DIR (joined when
 * the server is running, started for the duration of the command otherwise).
 */
export async function openScriptDatabase(options: { seedBoard?: boolean } = {}): Promise<ScriptDatabase> {
  const envFile = path.resolve('.env');
  if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const db = await openAppDatabase(config, { poolMax: 4 }).catch((error: unknown) => {
    if (error instanceof DatabaseUnavailableError) fail(error.message);
    throw error;
  });
  // Like the server's first start: an empty board gets the shipped 2025 one.
  if (options.seedBoard) await seedDefaultBoard(db.orm.em.fork());
  return { config, orm: db.orm, close: () => db.close() };
}

export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
