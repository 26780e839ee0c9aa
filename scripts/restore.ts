// The operator's restore: `npm run restore -- FILE [--force]` puts a backup made by `npm run backup` into the
// game's database, in one transaction (all of it, or nothing): a pg_dump archive (it starts with PGDMP) with
// PostgreSQL's own pg_restore, the built-in format (scripts/lib/builtin-format.ts) by the game itself. An empty
// database only, unless --force: then the backup replaces what is there. The server must be stopped: its
// caches would go on showing the old data. The embedded PostgreSQL is started for the restore (in a fresh
// DATA_DIR too); DATABASE_URL when set. Afterwards `npm start` finds its migrations already applied.
// Before anything else the file's integrity tag is checked with the backup key (scripts/lib/backup-tag.ts):
// a backup someone edited is refused before it is read; `--no-verify` skips the check, warning loudly.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describeDbError } from '../server/src/db/database.js';
import { isDatabaseUnavailable } from '../server/src/errors.js';
import { CommandFailure, isMainModule, runCommandAsProcess, shownPath, type Command, type CommandIo } from './lib/command.js';
import { reachScriptDatabase, scriptConfig, signingKeyFile } from './lib/database.js';
import { BACKUP_KEY_FILE, BACKUP_KEY_SETTING, backupKeyFile, checkTag, IntegrityFailure, loadBackupKey, type BackupKey } from './lib/backup-tag.js';
import { BadBackupFile, isBuiltinBackup, readBuiltinBackup, type BackupHeader } from './lib/builtin-format.js';
import { checkMigrations, restoreBuiltin } from './lib/builtin-restore.js';
import { MIGRATIONS_TABLE } from './lib/game-schema.js';
import { missingToolMessage, runTool, serverVersion, toolConnection, toolsFor, type PgTool, type ServerVersion } from './lib/pg-tools.js';

const USAGE = `Usage: npm run restore -- FILE [--force] [--no-verify]
  Restores a backup made by npm run backup into the game's database, which must be empty (a fresh DATA_DIR,
  or a new database for DATABASE_URL). --force replaces whatever the database holds with the backup.
  The backup's integrity tag is checked first with the backup key (BACKUP_KEY, or DATA_DIR/backup-key);
  --no-verify skips that check, for a file you know is yours (one made before backups were tagged).
  Stop the server first.`;


interface Contents {
  /** Every table outside PostgreSQL's own schemas, `schema.name`, with its row count. */
  tables: { name: string; rows: number }[];
  rows: number;
  /** Migrations recorded as applied; null without the migrations table. */
  migrations: number | null;
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => {});
    throw new CommandFailure(describeDbError(error, url));
  }
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

const qualified = (client: pg.Client, schema: string, name: string) => `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(name)}`;

/** What the database holds: its tables and their rows. */
function contents(url: string): Promise<Contents> {
  return withClient(url, async (client) => {
    const { rows: found } = await client.query<{ table_schema: string; table_name: string }>(
      `select table_schema, table_name from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
        order by table_schema, table_name`,
    );
    const tables: Contents['tables'] = [];
    for (const t of found) {
      const { rows } = await client.query<{ n: string }>(`select count(*) as n from ${qualified(client, t.table_schema, t.table_name)}`);
      tables.push({ name: `${t.table_schema}.${t.table_name}`, rows: Number(rows[0]!.n) });
    }
    const migrations = tables.find((t) => t.name.endsWith(`.${MIGRATIONS_TABLE}`))?.rows ?? null;
    return { tables, rows: tables.reduce((sum, t) => sum + t.rows, 0), migrations };
  });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function describeContents(c: Contents): string {
  const migrations = c.migrations === null ? 'no migrations table' : `${plural(c.migrations, 'migration')} applied`;
  return `${plural(c.tables.length, 'table')}, ${plural(c.rows, 'row')}, ${migrations}`;
}

/** Sessions on the database besides this one (the server's pool, its listener, a psql): a restore under them is refused. */
function otherSessions(url: string): Promise<number> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
    );
    return Number(rows[0]!.n);
  });
}

/** What `pg_restore --list` says about the archive: when and from what it was made, and its tables. */
function readListing(listing: string): { made?: string; from?: string; tables: Set<string> } {
  const field = (name: string) => new RegExp(`^;\\s+${name}:? (.+)$`, 'm').exec(listing)?.[1]?.trim();
  const tables = new Set<string>();
  for (const match of listing.matchAll(/^\d+; \d+ \d+ TABLE (\S+) (\S+) /gm)) tables.add(`${match[1]}.${match[2]}`);
  return { made: field('Archive created at'), from: field('Dumped from database version')?.split(' ')[0], tables };
}

/**
 * The pg_restore to use and what it read of the file: the oldest one at least as new as the server, else the
 * newest older one, that can read the file (an archive needs a pg_restore at least as new as the pg_dump
 * that wrote it; an older pg_restore can still restore into a newer server, as when moving from a
 * DATABASE_URL server to the embedded one).
 */
async function restorerFor(file: string, shownAs: string, server: ServerVersion, env: NodeJS.ProcessEnv): Promise<{ tool: PgTool; listing: string }> {
  const { usable, all } = await toolsFor('pg_restore', server.major, env);
  const candidates = [...usable, ...all.filter((t) => t.major < server.major).sort((a, b) => b.major - a.major)];
  if (candidates.length === 0) throw new CommandFailure(`Nothing was restored: ${missingToolMessage('pg_restore', server, all, 'a restore')}`);
  let refusal = '';
  for (const tool of candidates) {
    const listed = await runTool(tool, ['--list', file], { env });
    if (listed.code === 0) return { tool, listing: listed.stdout };
    refusal = listed.stderr;
  }
  throw new CommandFailure(
    `Nothing was restored: ${candidates.map((t) => `pg_restore ${t.version}`).join(', ')} cannot read ${shownAs}:\n${refusal}\n` +
      'A backup written by a newer pg_dump needs a pg_restore at least as new (PG_BIN names the directory of its tools).',
  );
}

/** `npm run restore -- FILE [--force]`; the tests run it in-process (scripts/lib/command.ts). */
export const restoreCommand: Command = async (args, io) => {
  if (args.length === 0) throw new CommandFailure(`Name the backup to restore.\n\n${USAGE}`);
  if (args.includes('--help') || args[0] === 'help') {
    io.out(USAGE);
    return;
  }
  const force = args.includes('--force');
  const verify = !args.includes('--no-verify');
  const rest = args.filter((a) => a !== '--force' && a !== '--no-verify');
  const unknown = rest.find((a) => a.startsWith('--'));
  if (unknown || rest.length !== 1) throw new CommandFailure(`${unknown ? `Unknown option "${unknown}"` : 'Name one backup file'}.\n\n${USAGE}`);
  const file = rest[0]!;

  // The file first: a wrong name changes nothing and starts nothing.
  const head = await fs
    .open(file, 'r')
    .then(async (handle) => {
      try {
        const buffer = Buffer.alloc(5);
        await handle.read(buffer, 0, 5, 0);
        return buffer.toString('latin1');
      } finally {
        await handle.close();
      }
    })
    .catch(() => {
      throw new CommandFailure(`Cannot read ${file}`);
    });
  const isArchive = head === 'PGDMP';
  if (!isArchive && !(await isBuiltinBackup(file))) {
    throw new CommandFailure(`${file} is not a backup made by npm run backup (a pg_dump custom-format archive starts with PGDMP; the built-in format is gzip starting with FIRST-ROUND-BACKUP).`);
  }
  // Then its tag, before a byte of it is read as a backup: an edited file goes no further.
  const key = verify ? await keyToCheck(file, io.env) : undefined;
  if (!verify) {
    io.out(`WARNING: --no-verify: ${file} was not checked against its integrity tag. Whoever could write to it could have`);
    io.out('changed anything in it (an account\'s e-mail address, a session, a password hash). Restore it only if you know it is yours.');
  }
  // pg_restore reads a private copy of the archive made while checking it (the tag left off), so what it
  // restores is what was checked.
  let workDir: string | undefined;
  let builtin: BackupHeader | undefined;
  let archiveFile = file;
  try {
    if (isArchive) {
      workDir = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-restore-'));
      archiveFile = path.join(workDir, 'archive.dump');
      await checkTag(file, key, { copyTo: archiveFile }).catch(refuseBadFile(file));
    } else {
      if (key) await checkTag(file, key).catch(refuseBadFile(file));
      // Read whole before anything is touched: a damaged or cut-short file is refused here.
      builtin = (await readBuiltinBackup(file, async () => {}, { key }).catch(refuseBadFile(file))).header;
      checkMigrations(builtin);
    }
    await restoreChecked({ file, archiveFile, builtin, key, force, verify }, io);
  } finally {
    if (workDir) await fs.rm(workDir, { recursive: true, force: true });
  }
};

/**
 * The backup key to check `file` with (scripts/lib/backup-tag.ts); refused when there is none here, saying
 * where it is looked for.
 */
async function keyToCheck(file: string, env: NodeJS.ProcessEnv): Promise<BackupKey> {
  const { dataDir } = scriptConfig(env);
  const found = await loadBackupKey(env, dataDir, { create: false });
  if (found) return found.key;
  const keyFile = shownPath(backupKeyFile(dataDir));
  throw new CommandFailure(
    `Nothing was restored: there is no backup key here to check ${file} with (${BACKUP_KEY_SETTING} is not set, and there is no ${keyFile}).\n` +
      `Copy the ${BACKUP_KEY_FILE} file kept from the server that made the backup to ${keyFile}, or set ${BACKUP_KEY_SETTING} to what it holds.\n` +
      '--no-verify restores without the check: only for a file you know is yours.',
  );
}

/** The restore proper, once the file has been checked: `archiveFile` is the checked copy of a pg_dump archive. */
async function restoreChecked(
  { file, archiveFile, builtin, key, force, verify }: { file: string; archiveFile: string; builtin?: BackupHeader; key?: BackupKey; force: boolean; verify: boolean },
  io: CommandIo,
): Promise<void> {
  const db = await reachScriptDatabase({ env: io.env, create: true });
  try {
    const server = await serverVersion(db.url);
    const archive = builtin ? undefined : await restorerFor(archiveFile, file, server, io.env);

    const others = await otherSessions(db.url);
    if (others > 0) {
      throw new CommandFailure(
        `Nothing was restored: ${db.where} is in use (${plural(others, 'other connection')}). Stop the server, and anything else connected to it, then restore.`,
      );
    }
    const before = await contents(db.url);
    if (before.tables.length > 0 && !force) {
      throw new CommandFailure(
        `Nothing was restored: ${db.where} is not empty (${describeContents(before)}).\n` +
          'Restore into an empty database (a new DATA_DIR, or a new database for DATABASE_URL), or add --force to replace everything in it with the backup.',
      );
    }
    let how: string;
    if (builtin) {
      await restoreBuiltin(db.url, file, builtin, { wasEmpty: before.tables.length === 0, key }).catch((error: unknown) => {
        if (error instanceof CommandFailure) throw error;
        if (error instanceof BadBackupFile || error instanceof IntegrityFailure) return refuseBadFile(file)(error);
        throw new CommandFailure(`Nothing was restored (the transaction was rolled back): ${describeLoadError(error, db.url)}`);
      });
      how = ` (made ${builtin.made} from PostgreSQL ${builtin.server}) into ${db.where} from the built-in format`;
    } else {
      how = await withPgRestore(archiveFile, archive!, db.url, db.where, force, before, io);
    }
    const after = await contents(db.url);
    io.out(`Restored ${shownPath(file)}${how}: ${describeContents(after)}.`);
    const signingKey = signingKeyFile(db.config);
    if (signingKey && !(await fs.stat(signingKey).catch(() => undefined))) {
      io.out(`Players stay signed in only with the signing key of the server the backup came from: copy its idp-private-key.pem to ${shownPath(signingKey)} (or set LOCAL_IDP_PRIVATE_KEY) before the first start. Without it everyone signs in again; nothing else is lost.`);
    }
    if (!verify) io.out(`WARNING: restored without checking its integrity tag (--no-verify): ${file}.`);
    io.out('Start the server: npm start');
  } finally {
    await db.close();
  }
}

/** A backup that does not read back whole, or whose tag does not vouch for it: refused, nothing touched. */
const refuseBadFile = (file: string) => (error: unknown): never => {
  if (error instanceof IntegrityFailure) throw new CommandFailure(`Nothing was restored: ${file} ${error.message}.`);
  if (error instanceof BadBackupFile) throw new CommandFailure(`Nothing was restored: ${file} is not a usable backup: ${error.message}.`);
  throw error;
};

/**
 * Why loading the rows failed: the database out of reach as such, else what PostgreSQL refused in them (a
 * foreign key a row breaks, checked once all are in), with its detail.
 */
function describeLoadError(error: unknown, url: string): string {
  if (isDatabaseUnavailable(error)) return describeDbError(error, url);
  const e = error as { code?: string; message?: string; detail?: string };
  if (typeof e?.code !== 'string') return `${(error as Error)?.message ?? error}`;
  return `PostgreSQL refused the backup's rows: ${e.message}${e.detail ? ` (${e.detail})` : ''}.`;
}

/** pg_restore into the database (stray tables dropped first under --force); says what it restored from. */
async function withPgRestore(
  file: string,
  { tool, listing }: { tool: PgTool; listing: string },
  url: string,
  where: string,
  force: boolean,
  before: Contents,
  io: CommandIo,
): Promise<string> {
  const archive = readListing(listing);
  if (force && before.tables.length > 0) {
    // Tables the backup does not have (a newer version's) go first: pg_restore's --clean drops only what
    // the backup holds, and a table left behind would break the next upgrade's migration that creates it.
    const strays = before.tables.filter((t) => !archive.tables.has(t.name)).map((t) => t.name);
    if (strays.length > 0) {
      await withClient(url, async (client) => {
        await client.query('begin');
        for (const name of strays) {
          const [schema, table] = name.split('.') as [string, string];
          await client.query(`drop table if exists ${qualified(client, schema, table)} cascade`);
        }
        await client.query('commit');
      });
      io.out(`Dropped ${plural(strays.length, 'table')} the backup does not have: ${strays.join(', ')}`);
    }
  }

  const { dbname, password } = toolConnection(url);
  const restored = await runTool(
    tool,
    [
      `--dbname=${dbname}`,
      // All or nothing: one transaction, stopped at the first error.
      '--single-transaction',
      '--exit-on-error',
      // The restoring user owns what it creates: the backup's owner (postgres, in the embedded cluster)
      // need not exist on the server restored to.
      '--no-owner',
      '--no-privileges',
      ...(force ? ['--clean', '--if-exists'] : []),
      file,
    ],
    { env: io.env, password },
  );
  if (restored.code !== 0) {
    throw new CommandFailure(`Nothing was restored (the transaction was rolled back): pg_restore ${tool.version} failed on ${where}:\n${restored.stderr}`);
  }
  const made = [archive.made && `made ${archive.made}`, archive.from && `from PostgreSQL ${archive.from}`].filter(Boolean).join(' ');
  return `${made ? ` (${made})` : ''} into ${where} with pg_restore ${tool.version}`;
}

if (isMainModule(import.meta.url)) runCommandAsProcess('restore', restoreCommand);
