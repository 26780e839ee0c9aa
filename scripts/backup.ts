// The operator's backup: `npm run backup -- [--out DIR | --out FILE.dump]` writes the game's database with
// PostgreSQL's own pg_dump (custom format: compressed, restored with `npm run restore`). pg_dump reads one
// snapshot, so the file is consistent while the server keeps running. The embedded PostgreSQL is joined when
// the server runs it and started for the backup otherwise; DATABASE_URL when set.
import fs from 'node:fs/promises';
import path from 'node:path';
import { CommandFailure, isMainModule, runCommandAsProcess, shownPath, type Command } from './lib/command.js';
import { reachScriptDatabase, signingKeyFile } from './lib/database.js';
import { missingToolMessage, runTool, serverVersion, toolConnection, toolsFor } from './lib/pg-tools.js';

const USAGE = `Usage: npm run backup -- [--out DIR | --out FILE.dump]
  Writes the game's database to backups/first-round-<UTC time>.dump (pg_dump's custom format), or into DIR,
  or to FILE.dump (never over an existing file). Restore it with npm run restore -- FILE.`;

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

/** `npm run backup -- …`; the tests run it in-process (scripts/lib/command.ts). */
export const backupCommand: Command = async (args, io) => {
  if (args.includes('--help') || args[0] === 'help') {
    io.out(USAGE);
    return;
  }
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' && args[i + 1] && !args[i + 1]!.startsWith('--')) out = args[++i];
    else throw new CommandFailure(`${args[i] === '--out' ? '--out needs a directory or a FILE.dump' : `Unknown argument "${args[i]}"`}.\n\n${USAGE}`);
  }

  const db = await reachScriptDatabase({ env: io.env });
  let partial: string | undefined;
  try {
    const server = await serverVersion(db.url);
    const dumps = await toolsFor('pg_dump', server.major, io.env);
    const pgDump = dumps.usable[0];
    if (!pgDump) throw new CommandFailure(`Nothing was written: ${missingToolMessage('pg_dump', server, dumps.all, 'a backup')}`);

    const file = await target(out, new Date());
    // The dump holds every account's sessions and password hashes: for its owner's eyes only.
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    partial = `${file}.partial`;
    await fs.writeFile(partial, '', { mode: 0o600 });
    const { dbname, password } = toolConnection(db.url);
    // Custom format (-Fc): compressed, and pg_restore can clean, list and pick from it.
    const dumped = await runTool(pgDump, ['--format=custom', `--file=${partial}`, `--dbname=${dbname}`], { env: io.env, password });
    if (dumped.code !== 0) throw new CommandFailure(`Nothing was written: pg_dump ${pgDump.version} failed on ${db.where}:\n${dumped.stderr}`);

    // Read back with the matching pg_restore, if there is one: a file it cannot read is no backup.
    const restorer = (await toolsFor('pg_restore', pgDump.major, io.env)).usable[0];
    let tables = '';
    if (restorer) {
      const listed = await runTool(restorer, ['--list', partial], { env: io.env });
      if (listed.code !== 0) throw new CommandFailure(`Nothing was written: pg_restore ${restorer.version} cannot read what pg_dump wrote:\n${listed.stderr}`);
      tables = `, ${listed.stdout.split('\n').filter((line) => / TABLE DATA /.test(line)).length} tables`;
    }
    await fs.rename(partial, file);
    partial = undefined;
    const { size } = await fs.stat(file);
    io.out(`Backed up ${db.where}, PostgreSQL ${server.version}, with pg_dump ${pgDump.version}${tables}:`);
    io.out(`${shownPath(file)}, ${describeSize(size)}`);
    io.out(`Keep a copy off this machine. Restore it with: npm run restore -- ${shownPath(file)}`);
    const key = signingKeyFile(db.config);
    if (key && (await exists(key))) io.out(`Players' sessions also need ${shownPath(key)}: keep a copy of it apart from the backups (it does not change).`);
  } finally {
    if (partial) await fs.rm(partial, { force: true });
    await db.close();
  }
};

if (isMainModule(import.meta.url)) runCommandAsProcess('backup', backupCommand);
