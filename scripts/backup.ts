// The operator's backup: `npm run backup -- [--out DIR | --out FILE.dump] [--format builtin|pg_dump]` writes
// the game's database with PostgreSQL's own pg_dump (custom format) when one at least as new as the server
// is installed, else in the game's built-in format (scripts/lib/builtin-format.ts: the embedded PostgreSQL
// ships no pg_dump). Either reads one snapshot, so the file is consistent while the server keeps running.
// The embedded PostgreSQL is joined when the server runs it and started for the backup otherwise;
// DATABASE_URL when set. Every backup ends with its integrity tag (scripts/lib/backup-tag.ts), keyed with
// the backup key (BACKUP_KEY, else DATA_DIR/backup-key, made here the first time), which restore checks.
import fs from 'node:fs/promises';
import path from 'node:path';
import { CommandFailure, isMainModule, runCommandAsProcess, shownPath, type Command } from './lib/command.js';
import { reachScriptDatabase, signingKeyFile } from './lib/database.js';
import { dumpDatabase } from './lib/builtin-dump.js';
import { BadBackupFile, readBuiltinBackup } from './lib/builtin-format.js';
import { appendTag, BACKUP_KEY_SETTING, checkTag, IntegrityFailure, loadBackupKey, type BackupKey } from './lib/backup-tag.js';
import { missingToolMessage, runTool, serverVersion, toolConnection, toolsFor, type PgTool } from './lib/pg-tools.js';

const USAGE = `Usage: npm run backup -- [--out DIR | --out FILE.dump] [--format builtin|pg_dump]
  Writes the game's database to backups/first-round-<UTC time>.dump, or into DIR, or to FILE.dump (never
  over an existing file): pg_dump's custom format when a pg_dump as new as the server is installed, else
  the game's built-in format (--format chooses). Either ends with an integrity tag keyed with the backup
  key (BACKUP_KEY, else DATA_DIR/backup-key, made by the first backup). Restore it with
  npm run restore -- FILE.`;

const FORMATS = ['builtin', 'pg_dump'] as const;
type Format = (typeof FORMATS)[number];

export const DEFAULT_BACKUP_DIR = 'backups';

/** `first-round-2026-11-26T22-10-00Z.dump`: sorts by time, and has no `:` (which some file systems refuse). */
export function backupFileName(at: Date): string {
  return `first-round-${at.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.dump`;
}

/** `1.4 MB (1,432,117 bytes)` */
export function describeSize(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const short = unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
  return unit === 0 ? short : `${short} (${bytes.toLocaleString('en-US')} bytes)`;
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );

/** The file to write: `--out FILE.dump` as given, else a new name by time in `--out DIR` (default backups/). */
async function target(out: string | undefined, now: Date): Promise<string> {
  if (out?.endsWith('.dump')) {
    if (await exists(out)) throw new CommandFailure(`${out} exists: a backup is never written over another. Name a new file, or give a directory.`);
    return path.resolve(out);
  }
  const dir = path.resolve(out ?? DEFAULT_BACKUP_DIR);
  const isFile = await fs.stat(dir).then((s) => !s.isDirectory(), () => false);
  if (isFile) throw new CommandFailure(`${out} is a file: --out takes a directory, or a new FILE.dump.`);
  const name = backupFileName(now);
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? name : name.replace(/\.dump$/, `-${n}.dump`));
    if (!(await exists(file))) return file;
  }
}

/**
 * pg_dump's custom format (-Fc: compressed, and pg_restore can clean, list and pick from it), listed by
 * pg_restore before its tag is added; says how it was written.
 */
async function withPgDump(pgDump: PgTool, partial: string, url: string, where: string, env: NodeJS.ProcessEnv, key: BackupKey): Promise<string> {
  const { dbname, password } = toolConnection(url);
  const dumped = await runTool(pgDump, ['--format=custom', `--file=${partial}`, `--dbname=${dbname}`], { env, password });
  if (dumped.code !== 0) throw new CommandFailure(`Nothing was written: pg_dump ${pgDump.version} failed on ${where}:\n${dumped.stderr}`);
  // Read back with the matching pg_restore, if there is one: a file it cannot read is no backup.
  const restorer = (await toolsFor('pg_restore', pgDump.major, env)).usable[0];
  let tables = '';
  if (restorer) {
    const listed = await runTool(restorer, ['--list', partial], { env });
    if (listed.code !== 0) throw new CommandFailure(`Nothing was written: pg_restore ${restorer.version} cannot read what pg_dump wrote:\n${listed.stderr}`);
    tables = `, ${listed.stdout.split('\n').filter((line) => / TABLE DATA /.test(line)).length} tables`;
  }
  await appendTag(partial, key);
  await checkTag(partial, key).catch((error: unknown) => {
    if (error instanceof IntegrityFailure) throw new CommandFailure(`Nothing was written: the backup read back ${error.message}.`);
    throw error;
  });
  return `with pg_dump ${pgDump.version}${tables}`;
}

/** The built-in format, tagged, then read back whole before it counts: every table's rows as written, the checksum and the tag sound. */
async function builtin(partial: string, url: string, server: string, major: number, key: BackupKey): Promise<string> {
  const written = await dumpDatabase(url, partial, server);
  await appendTag(partial, key);
  const read = await readBuiltinBackup(partial, async () => {}, { key }).catch((error: unknown) => {
    if (error instanceof BadBackupFile || error instanceof IntegrityFailure) {
      throw new CommandFailure(`Nothing was written: the backup read back is not what was written: ${error.message}.`);
    }
    throw error;
  });
  for (const [table, rows] of Object.entries(written.rows)) {
    if (read.trailer.rows[table] !== rows) throw new CommandFailure(`Nothing was written: table ${table} read back ${read.trailer.rows[table]} rows of ${rows}.`);
  }
  const rows = Object.values(written.rows).reduce((sum, n) => sum + n, 0);
  return `in the built-in format (no pg_dump ${major} or newer used), ${written.tables} tables, ${rows.toLocaleString('en-US')} rows`;
}

/** `npm run backup -- …`; the tests run it in-process (scripts/lib/command.ts). */
export const backupCommand: Command = async (args, io) => {
  if (args.includes('--help') || args[0] === 'help') {
    io.out(USAGE);
    return;
  }
  let out: string | undefined;
  let format: Format | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1] && !args[i + 1]!.startsWith('--')) out = args[++i];
    else if (args[i] === '--format' && FORMATS.includes(args[i + 1] as Format)) format = args[++i] as Format;
    else if (args[i] === '--format') throw new CommandFailure(`--format is builtin or pg_dump.\n\n${USAGE}`);
    else throw new CommandFailure(`${args[i] === '--out' ? '--out needs a directory or a FILE.dump' : `Unknown argument "${args[i]}"`}.\n\n${USAGE}`);
  }

  const db = await reachScriptDatabase({ env: io.env });
  let partial: string | undefined;
  try {
    const server = await serverVersion(db.url);
    // pg_dump when there is one new enough (unless told otherwise), else the built-in format.
    const dumps = format === 'builtin' ? undefined : await toolsFor('pg_dump', server.major, io.env);
    const pgDump = dumps?.usable[0];
    if (format === 'pg_dump' && !pgDump) throw new CommandFailure(`Nothing was written: ${missingToolMessage('pg_dump', server, dumps!.all, 'a backup')}`);

    // The key before the file: a key that cannot be had leaves nothing behind.
    const { key, made } = (await loadBackupKey(io.env, db.config.dataDir, { create: true }))!;
    const file = await target(out, new Date());
    // The dump holds every account's sessions and password hashes: for its owner's eyes only.
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    partial = `${file}.partial`;
    await fs.writeFile(partial, '', { mode: 0o600 });
    const how = pgDump ? await withPgDump(pgDump, partial, db.url, db.where, io.env, key) : await builtin(partial, db.url, server.version, server.major, key);
    await fs.rename(partial, file);
    partial = undefined;
    const { size } = await fs.stat(file);
    io.out(`Backed up ${db.where}, PostgreSQL ${server.version}, ${how}:`);
    io.out(`${shownPath(file)}, ${describeSize(size)}`);
    io.out(`Keep a copy off this machine. Restore it with: npm run restore -- ${shownPath(file)}`);
    const keyNote = `restore checks every backup's integrity tag with it, so a restore on another machine needs it too`;
    if (key.source === BACKUP_KEY_SETTING) io.out(`Tagged with the backup key in ${BACKUP_KEY_SETTING} (id ${key.id}): ${keyNote}.`);
    else if (made) io.out(`Made the backup key ${key.source} (id ${key.id}) and tagged the backup with it: keep a copy of it apart from the backups; ${keyNote}.`);
    else io.out(`Tagged with the backup key ${key.source} (id ${key.id}): keep a copy of it apart from the backups; ${keyNote}.`);
    const signingKey = signingKeyFile(db.config);
    if (signingKey && (await exists(signingKey))) io.out(`Players' sessions also need ${shownPath(signingKey)}: keep a copy of it apart from the backups (it does not change).`);
  } finally {
    if (partial) await fs.rm(partial, { force: true });
    await db.close();
  }
};

if (isMainModule(import.meta.url)) runCommandAsProcess('backup', backupCommand);
