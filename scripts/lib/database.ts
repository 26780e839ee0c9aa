import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../server/src/config.js';
import { DatabaseUnavailableError, openAppDatabase } from '../../server/src/db/database.js';
import type { Orm } from '../../server/src/db/orm.js';
import { seedDefaultBoard } from '../../server/src/modules/players/board.service.js';
import { CommandFailure } from './command.js';

export interface ScriptDatabase {
  config: Config;
  orm: Orm;
  close(): Promise<void>;
}

/**
 * The same database `npm start` uses: DATABASE_URL, or the embedded cluster under DATA_DIR (joined when
 * the server is running, started for the duration of the command otherwise). `env`: the command's
 * environment; the process's own gets `.env` added, as `npm start` does, while a command run in-process
 * (tests) reads exactly the environment it was given.
 */
export async function openScriptDatabase(options: { seedBoard?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<ScriptDatabase> {
  const env = options.env ?? process.env;
  if (env === process.env) {
    const envFile = path.resolve('.env');
    if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  }
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandFailure(error.message);
    throw error;
  }
  const db = await openAppDatabase(config, { poolMax: 4 }).catch((error: unknown) => {
    if (error instanceof DatabaseUnavailableError) throw new CommandFailure(error.message);
    throw error;
  });
  try {
    // Like the server's first start: an empty board gets the shipped 2025 one.
    if (options.seedBoard) await seedDefaultBoard(db.orm.em.fork());
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, orm: db.orm, close: () => db.close() };
}

/** For a command that is not run through runCommandAsProcess (demo): says why and exits 1. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
