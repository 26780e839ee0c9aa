import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from '../../server/src/config.js';
import { DatabaseUnavailableError, describeDbError, openAppDatabase, openDatabase } from '../../server/src/db/database.js';
import { ensureDatabaseExists, type Orm } from '../../server/src/db/orm.js';
import { seedDefaultBoard } from '../../server/src/modules/seasons/board.service.js';
import { CommandFailure, shownPath } from './command.js';

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
  const config = scriptConfig(options.env);
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

/** The configuration `npm start` would read: `env`, and for the process's own environment `.env` too. */
export function scriptConfig(env: NodeJS.ProcessEnv = process.env): Config {
  if (env === process.env) {
    const envFile = path.resolve('.env');
    if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
  }
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CommandFailure(error.message);
    throw error;
  }
}

export interface ReachedDatabase {
  config: Config;
  /** Connection string of the game's database (it carries the password: never print it). */
  url: string;
  /** The database as an operator names it, without credentials: `first_round (embedded, .data/pg)`. */
  where: string;
  /** Stops the embedded cluster if this command started it. */
  close(): Promise<void>;
}

/**
 * The same database as openScriptDatabase, reached but neither migrated nor seeded: for commands that
 * work on the database as a whole (backup, restore), which must see it exactly as it is. The embedded
 * cluster is joined when the server runs it, started for the command otherwise (openDatabase, as the
 * server does). `create`: a missing database is created, empty (a restore into a fresh DATA_DIR).
 */
export async function reachScriptDatabase(options: { env?: NodeJS.ProcessEnv; create?: boolean } = {}): Promise<ReachedDatabase> {
  const config = scriptConfig(options.env);
  const cluster = path.join(config.dataDir, 'pg');
  if (!config.DATABASE_URL && !options.create && !fs.existsSync(path.join(cluster, 'PG_VERSION'))) {
    // Nothing to read: no cluster is made (initdb) just to find it empty.
    throw new CommandFailure(`There is no database in ${shownPath(cluster)}: the server has never run with DATA_DIR=${config.DATA_DIR}. Is DATA_DIR right?`);
  }
  const db = await openDatabase(config, () => {}).catch((error: unknown) => {
    throw new CommandFailure(`Could not start the embedded PostgreSQL: ${(error as Error)?.message ?? error}`);
  });
  const close = async () => {
    await db.embedded?.stop().catch(() => {});
  };
  try {
    if (options.create) await ensureDatabaseExists(db.url);
  } catch (error) {
    await close();
    throw new CommandFailure(describeDbError(error, db.url));
  }
  const url = new URL(db.url);
  const name = decodeURIComponent(url.pathname.slice(1));
  const where = db.embedded ? `${name} (embedded, ${shownPath(cluster)})` : `${name} at ${url.hostname}:${url.port || 5432}`;
  return { config, url: db.url, where, close };
}

/**
 * The local identity provider's signing key when it is a file under DATA_DIR (not LOCAL_IDP_PRIVATE_KEY,
 * not Clerk): it signs every token and keys the hashes of session secrets, so a database restored without
 * it has every player signed out. Undefined when the key is not a file a backup must keep.
 */
export function signingKeyFile(config: Config): string | undefined {
  if (config.authProvider !== 'local' || config.LOCAL_IDP_PRIVATE_KEY) return undefined;
  return path.join(config.dataDir, 'idp-private-key.pem');
}

/** For a command that is not run through runCommandAsProcess (demo): says why and exits 1. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}
