/**
 * `npm run backup` and `npm run restore` as the operator runs them, on a database filled through the game
 * itself (accounts, a private group, picks, a started draft with round one recorded): the backup restored
 * into an empty database is the original, table for table and row for row (every table information_schema
 * lists, not a chosen few), sequences, indexes, triggers and the migrations table included; the server opens
 * it with no migration to run and its players still signed in. A database that is not empty, or in use, is
 * refused; --force replaces it.
 *
 * pg_dump backs up only a server no newer than itself. Where the run's own server is newer than every
 * pg_dump installed (the embedded PostgreSQL ships none), the round trip runs on a throwaway cluster of an
 * installed PostgreSQL that has its pg_dump beside it (Debian's postgresql-15 here), started by the
 * project's own code for the embedded one.
 *
 * The built-in format (the game's own, used where no pg_dump is new enough: the embedded PostgreSQL 18 ships
 * none) makes the same round trip on the run's own server, plus: a damaged or cut-short file is refused with
 * the database untouched, a backup of a newer version's schema is refused, one of an older schema restores
 * at its migrations, and a backup taken while writes go on reads one snapshot.
 *
 * Every backup ends with an integrity tag keyed with the backup key (here the file the first backup makes
 * in the commands' DATA_DIR): a backup edited since (an e-mail address changed, every count kept), one of
 * another key, or one without a tag is refused before anything is written, unless --no-verify.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerBinaries } from '../server/src/db/embedded-postgres.js';
import { startEmbeddedPostgres, withDatabase, APP_DATABASE, type RunningDatabase } from '../server/src/db/embedded-postgres.js';
import { migrate, openOrm } from '../server/src/db/orm.js';
import { migrationsList } from '../server/src/db/migrations/index.js';
import { createTestApp, type TestApp, type TestUser } from '../server/test/support/test-app.js';
import { createTestDb, runServerUrl, type TestDb } from '../server/test/support/test-db.js';
import { makeDataDirWithCluster } from '../server/test/support/server-process.js';
import { boardIds, createGroup, expectStatus, joinGroup, operatorStart, savePicks } from '../server/test/game/helpers.js';
import { backupCommand } from './backup.js';
import { draftCommand } from './draft.js';
import { runCommandInProcess, type Command } from './lib/command.js';
import { readBuiltinBackup } from './lib/builtin-format.js';
import { appendTag, loadBackupKey, TAG_LENGTH, TAG_MARK } from './lib/backup-tag.js';
import { installedTools, serverVersion, toolsFor } from './lib/pg-tools.js';
import { restoreCommand } from './restore.js';

/** Every migration this version has: what a restore reports as applied. */
const MIGRATIONS = migrationsList.length;

/** A server whose pg_dump is installed: the run's own, or a throwaway cluster of an older installed PostgreSQL. */
async function serverWithTools(): Promise<{ serverUrl: string; cluster?: RunningDatabase; dir?: string } | undefined> {
  const runs = runServerUrl();
  if ((await toolsFor('pg_dump', (await serverVersion(runs)).major, process.env)).usable.length > 0) return { serverUrl: runs };
  for (const tool of await installedTools('pg_dump', process.env)) {
    const bin = path.dirname(tool.path);
    const binaries: ServerBinaries = { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
    if (!fs.existsSync(binaries.initdb) || !fs.existsSync(binaries.postgres)) continue;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-pg-'));
    fs.chmodSync(dir, 0o755); // as root, PostgreSQL runs as its own user, which must enter it
    const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { durable: false, binaries });
    return { serverUrl: cluster.serverUrl, cluster, dir };
  }
  return undefined;
}

const server = await serverWithTools();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'backup-cli-'));
fs.chmodSync(work, 0o755);
const password = server ? decodeURIComponent(new URL(server.serverUrl).password) : '';

const baseEnv = { ...process.env, LOG_LEVEL: 'silent', DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00' };
/** A command as the operator's own process would run it, here in-process; the output never shows the password. */
async function run(name: string, command: Command, args: string[], env: Record<string, string>) {
  const result = await runCommandInProcess(name, command, args, { ...baseEnv, ...env });
  if (password) expect(result.out).not.toContain(password);
  return result;
}
/** The commands' DATA_DIR (the database is DATABASE_URL's): it holds the backup key the first backup makes. */
const dataDir = path.join(work, 'data');
const onDatabase = (url: string) => ({ DATABASE_URL: url, DATA_DIR: dataDir });
const backup = (url: string, ...args: string[]) => run('backup', backupCommand, args, onDatabase(url));
const restore = (url: string, ...args: string[]) => run('restore', restoreCommand, args, onDatabase(url));

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Everything a database holds, to compare two: every table's row count and an md5 of its rows in order,
 * the sequences' positions, the indexes, the triggers and the functions.
 */
function snapshot(url: string) {
  return withClient(url, async (client) => {
    await client.query(`set timezone = 'UTC'; set datestyle = 'ISO, YMD'; set extra_float_digits = 1`);
    const { rows: found } = await client.query<{ s: string; t: string }>(
      `select table_schema as s, table_name as t from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
    );
    const tables: Record<string, { rows: number; md5: string }> = {};
    for (const { s, t } of found) {
      const { rows } = await client.query<{ rows: number; md5: string }>(
        `select count(*)::int as rows, md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as md5 from ${client.escapeIdentifier(s)}.${client.escapeIdentifier(t)} x`,
      );
      tables[`${s}.${t}`] = rows[0]!;
    }
    const list = async (sql: string) => (await client.query(sql)).rows;
    return {
      tables,
      sequences: await list(`select schemaname, sequencename, last_value from pg_sequences where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`),
      indexes: await list(`select schemaname, tablename, indexname, indexdef from pg_indexes where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2, 3`),
      triggers: await list(`select tgrelid::regclass::text as tbl, tgname from pg_trigger where not tgisinternal order by 1, 2`),
      functions: await list(`select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public' order by 1`),
    };
  });
}

let t: TestApp;
let ann: TestUser;
let original: Awaited<ReturnType<typeof snapshot>>;
let file: string;
let target: TestDb;
const outDir = path.join(work, 'backups');

/** A game as players and the operator make it: accounts, a private group, picks, a started draft with round one recorded. Returns Ann. */
async function fillGame(app: TestApp): Promise<TestUser> {
  const annUser = await app.signUp('AnnBackup');
  const [bob, cat] = [await app.signUp('BobBackup'), await app.signUp('CatBackup')];
  const office = await createGroup(app, annUser, { picks_public: true, password: 'draft-night-2025' });
  await joinGroup(app, bob, office.id, 'draft-night-2025');
  const ids = await boardIds(app);
  await savePicks(app, annUser, ids.slice(0, 3));
  await savePicks(app, annUser, ids.slice(0, 2), office.id);
  await savePicks(app, bob, [ids[0]!, ids[89]!]);
  await savePicks(app, cat, [ids[4]!]);
  await operatorStart(app);
  // Round one as the operator records it on draft night.
  expect((await run('draft', draftCommand, ['replay-2025'], onDatabase(app.db.url))).out).toMatch(/Replayed 32 pick\(s\)\./);
  return annUser;
}

/** The tables a filled game has rows in: the round trip carries each. */
const FILLED_TABLES = ['participant', 'groups', 'group_membership', 'pick', 'draft_event', 'draft_state', 'idp_session', 'player', 'mikro_orm_migrations'];

beforeAll(async () => {
  if (!server) return;
  t = await createTestApp(server.cluster ? { db: await createTestDb({ serverUrl: server.serverUrl }) } : {});
  ann = await fillGame(t);
  original = await snapshot(t.db.url);
});

afterAll(async () => {
  await t?.close();
  if (server?.cluster) await t?.db.close();
  await target?.close();
  await server?.cluster?.stop();
  if (server?.dir) fs.rmSync(server.dir, { recursive: true, force: true });
  fs.rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!server)('npm run backup, then npm run restore', () => {
  it('filled every table the round trip is meant to carry', () => {
    for (const table of FILLED_TABLES) {
      expect(original.tables[`public.${table}`]?.rows, table).toBeGreaterThan(0);
    }
  });

  it('writes a pg_dump archive named by the time, says where and how big, and never the password', async () => {
    const result = await backup(t.db.url, '--out', outDir);
    expect(result.code, result.out).toBe(0);
    const written = fs.readdirSync(outDir);
    expect(written).toHaveLength(1);
    file = path.join(outDir, written[0]!);
    expect(written[0]).toMatch(/^first-round-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.dump$/);
    const size = fs.statSync(file).size;
    expect(result.out).toContain(`${file}, `);
    expect(result.out).toMatch(new RegExp(`\\(${size.toLocaleString('en-US')} bytes\\)`));
    expect(result.out).toMatch(/with pg_dump \d+\.\d+, \d+ tables:/);
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe('PGDMP');
    // It holds sessions and password hashes: its owner's alone.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // A second backup in the same second gets a name of its own; an explicit file is never written over.
    const again = await backup(t.db.url, '--out', outDir);
    expect(again.code, again.out).toBe(0);
    expect(fs.readdirSync(outDir)).toHaveLength(2);
    const named = path.join(work, 'named.dump');
    expect((await backup(t.db.url, '--out', named)).code).toBe(0);
    expect(await backup(t.db.url, '--out', named)).toMatchObject({ code: 1, out: expect.stringMatching(/named\.dump exists: a backup is never written over another/) });
    fs.writeFileSync(path.join(work, 'a-file'), '');
    expect(await backup(t.db.url, '--out', path.join(work, 'a-file'))).toMatchObject({ code: 1, out: expect.stringMatching(/a-file is a file: --out takes a directory/) });
    expect(await backup(t.db.url, '--to', outDir)).toMatchObject({ code: 1, out: expect.stringMatching(/^Unknown argument "--to"/) });
    expect(fs.readdirSync(work).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('restores into an empty database exactly what was backed up', async () => {
    target = await createTestDb({ serverUrl: server!.serverUrl, empty: true });
    const result = await restore(target.url, file);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(new RegExp(String.raw`^Restored .*first-round-.*\.dump \(made .* from PostgreSQL \d+\.\d+\) into .* with pg_restore \d+\.\d+: \d+ tables, [\d,]+ rows, ${MIGRATIONS} migrations applied\.\n`));
    expect(result.out).toMatch(/\nStart the server: npm start$/);
    expect(await snapshot(target.url)).toEqual(original);
  });

  it('refuses a database that is not empty, and one that is in use, changing nothing', async () => {
    const refused = await restore(target.url, file);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(String.raw`^Nothing was restored: .* is not empty \(\d+ tables, [\d,]+ rows, ${MIGRATIONS} migrations applied\)\.\n.*add --force`));
    // A database the server has started on once: migrated, no game in it yet.
    const migrated = await createTestDb({ serverUrl: server!.serverUrl, empty: true });
    try {
      const orm = await openOrm(migrated.url, 1);
      await migrate(orm);
      await orm.close(true);
      expect(await restore(migrated.url, file)).toMatchObject({ code: 1, out: expect.stringMatching(new RegExp(String.raw`is not empty \(\d+ tables, [\d,]+ rows, ${MIGRATIONS} migrations applied\)`)) });
    } finally {
      await migrated.close();
    }
    // A server (here a plain connection) still on it: not even --force.
    await withClient(target.url, async () => {
      expect(await restore(target.url, file, '--force')).toMatchObject({ code: 1, out: expect.stringMatching(/is in use \(1 other connection\)\. Stop the server/) });
    });
    expect(await restore(target.url, path.join(work, 'missing.dump'))).toMatchObject({ code: 1, out: expect.stringMatching(/^Cannot read .*missing\.dump$/) });
    fs.writeFileSync(path.join(work, 'notes.dump'), 'not a dump');
    expect(await restore(target.url, path.join(work, 'notes.dump'))).toMatchObject({ code: 1, out: expect.stringMatching(/is not a backup made by npm run backup/) });
    expect(await snapshot(target.url)).toEqual(original);
  });

  it('ends the archive with its tag, and refuses one changed since, or one made by hand without a tag unless --no-verify', async () => {
    expect(splitTail(fs.readFileSync(file)).tail.length).toBe(TAG_LENGTH);
    const changed = path.join(work, 'changed-archive.dump');
    const bytes = Buffer.from(fs.readFileSync(file));
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    fs.writeFileSync(changed, bytes);
    // What `pg_dump -Fc` run by hand writes: the archive without a tag.
    const byHand = path.join(work, 'by-hand.dump');
    fs.writeFileSync(byHand, splitTail(fs.readFileSync(file)).payload);
    const empty = await createTestDb({ serverUrl: server!.serverUrl, empty: true });
    try {
      expect(await restore(empty.url, changed)).toMatchObject({ code: 1, out: expect.stringMatching(/^Nothing was restored: .*changed-archive\.dump fails its integrity check: it has been changed or damaged/) });
      expect(await restore(empty.url, byHand)).toMatchObject({ code: 1, out: expect.stringMatching(/^Nothing was restored: .*by-hand\.dump has no integrity tag/) });
      const unchecked = await restore(empty.url, byHand, '--no-verify');
      expect(unchecked.code, unchecked.out).toBe(0);
      expect(unchecked.out).toMatch(/^WARNING: --no-verify: /);
      expect(await snapshot(empty.url)).toEqual(original);
    } finally {
      await empty.close();
    }
  });

  it('with --force replaces what the database holds, tables the backup lacks included', async () => {
    await withClient(target.url, async (client) => {
      await client.query(`delete from pick`);
      await client.query(`update participant set screen_name = screen_name || '!'`);
      await client.query(`create table stray (id int primary key, pick_id int)`);
    });
    const forced = await restore(target.url, file, '--force');
    expect(forced.code, forced.out).toBe(0);
    expect(forced.out).toMatch(/^Dropped 1 table the backup does not have: public\.stray\nRestored /);
    expect(await snapshot(target.url)).toEqual(original);
  });

  it('is what the server opens: no migration to run, its players still signed in, the draft where it was', async () => {
    const orm = await openOrm(target.url, 1);
    expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
    await orm.close(true);
    // Sessions are signed with the key under the old server's DATA_DIR: with it, players are still signed in.
    const restored = await createTestApp({ db: target, seedBoard: false, env: { DATA_DIR: t.config.DATA_DIR } });
    try {
      const me = expectStatus<{ screen_name: string }>(await restored.request('GET', '/api/auth/me', { user: ann }), 200);
      expect(me.screen_name).toBe('AnnBackup');
      expect((await restored.request('GET', '/api/draft/status')).json()).toMatchObject({ draftHasStarted: true, picks_made: 32 });
      const board = expectStatus<{ rankings: { participant_name: string }[] }>(await restored.request('GET', '/api/groups/1/leaderboard', { user: ann }), 200);
      expect(board.rankings.map((r) => r.participant_name).sort()).toEqual(['AnnBackup', 'BobBackup', 'CatBackup']);
    } finally {
      await restored.close();
    }
    // Without it (a new DATA_DIR), the same token is refused: a player signs in again, and finds everything.
    const newKey = await createTestApp({ db: target, seedBoard: false });
    try {
      expect((await newKey.request('GET', '/api/auth/me', { user: ann })).statusCode).toBe(401);
    } finally {
      await newKey.close();
    }
  });

  it('restores into a fresh DATA_DIR, starting the embedded PostgreSQL itself, and backs that up', async () => {
    const freshDir = makeDataDirWithCluster('backup-data-');
    const embedded = { DATABASE_URL: '', DATA_DIR: freshDir };
    // A new DATA_DIR has no backup key: the backup is refused unchecked, with where the key goes.
    expect(await run('restore', restoreCommand, [file], embedded)).toMatchObject({
      code: 1,
      out: expect.stringContaining(`there is no backup key here to check ${file} with (BACKUP_KEY is not set, and there is no ${path.join(freshDir, 'backup-key')})`),
    });
    expect(fs.existsSync(path.join(freshDir, 'pg.owner'))).toBe(false);
    // The operator brings the key file kept from the server that made the backup.
    fs.copyFileSync(path.join(dataDir, 'backup-key'), path.join(freshDir, 'backup-key'));
    const result = await run('restore', restoreCommand, [file], embedded);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/into first_round \(embedded, .*\)/);
    // A new DATA_DIR has no signing key: the command says which file to bring along.
    expect(result.out).toContain(`copy its idp-private-key.pem to ${path.join(freshDir, 'idp-private-key.pem')}`);
    expect(fs.existsSync(path.join(freshDir, 'pg.owner'))).toBe(false); // the command stopped the cluster it started
    const cluster = await startEmbeddedPostgres(path.join(freshDir, 'pg'), { durable: false });
    try {
      expect(await snapshot(withDatabase(cluster.serverUrl, APP_DATABASE))).toMatchObject({ tables: original.tables, sequences: original.sequences });
    } finally {
      await cluster.stop();
    }

    // The embedded database backed up by the command, which starts the cluster for it: with a pg_dump new
    // enough for the embedded PostgreSQL where one is installed, in the built-in format otherwise.
    const clusterPassword = fs.readFileSync(path.join(freshDir, 'pg.password'), 'utf8').trim();
    const out = path.join(work, 'embedded-backups');
    const backedUp = await run('backup', backupCommand, ['--out', out], embedded);
    expect(backedUp.out).not.toContain(clusterPassword);
    const embeddedMajor = Number(fs.readFileSync(path.join(freshDir, 'pg', 'PG_VERSION'), 'utf8').trim());
    expect(backedUp.code, backedUp.out).toBe(0);
    expect(backedUp.out).toMatch(/^Backed up first_round \(embedded, .*\)/);
    const hasPgDump = (await toolsFor('pg_dump', embeddedMajor, process.env)).usable.length > 0;
    expect(backedUp.out).toMatch(hasPgDump ? /, with pg_dump \d+/ : new RegExp(`, in the built-in format \\(no pg_dump ${embeddedMajor} or newer used\\)`));
    expect(fs.readdirSync(out)).toEqual([expect.stringMatching(/^first-round-.*Z\.dump$/)]);
    expect(fs.existsSync(path.join(freshDir, 'pg.owner'))).toBe(false);
    fs.rmSync(freshDir, { recursive: true, force: true });
  });
});

/** A backup split where its integrity tag begins: the tag apart, as an attacker editing the rest would keep it. */
function splitTail(file: Buffer): { payload: Buffer; tail: Buffer } {
  const at = file.length - TAG_LENGTH;
  return at > 0 && file.subarray(at).toString('latin1').startsWith(`\n${TAG_MARK} `) ? { payload: file.subarray(0, at), tail: file.subarray(at) } : { payload: file, tail: Buffer.alloc(0) };
}

/** The backup key the commands made in their DATA_DIR. */
const theKey = async () => (await loadBackupKey({}, dataDir, { create: false }))!.key;

/** A built-in backup's inside (gzip undone), to damage or rewrite it as a test needs. */
const inside = (file: string) => zlib.gunzipSync(splitTail(fs.readFileSync(file)).payload);
/** A built-in backup written from its inside, tagged with the commands' key: only what the reader checks is wrong with it. */
async function writeInside(file: string, data: Buffer | string) {
  fs.writeFileSync(file, zlib.gzipSync(data), { mode: 0o600 });
  await appendTag(file, await theKey());
}

describe('the built-in format, on the run\'s own server (the embedded PostgreSQL 18)', () => {
  let game: TestApp;
  let gameAnn: TestUser;
  let before: Awaited<ReturnType<typeof snapshot>>;
  let builtinFile: string;
  let into: TestDb;
  const dir = path.join(work, 'builtin');
  const untouched = (url: string) => withClient(url, async (c) => (await c.query(`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'`)).rows[0].n as number);

  beforeAll(async () => {
    game = await createTestApp();
    gameAnn = await fillGame(game);
    before = await snapshot(game.db.url);
  });
  afterAll(async () => {
    await game?.close();
    await into?.close();
  });

  it('filled every table the round trip is meant to carry', () => {
    for (const table of FILLED_TABLES) expect(before.tables[`public.${table}`]?.rows, table).toBeGreaterThan(0);
  });

  it('is what npm run backup writes when no pg_dump is new enough: gzip, its magic inside, named by the time, its owner\'s alone', async () => {
    const major = (await serverVersion(game.db.url)).major;
    const hasPgDump = (await toolsFor('pg_dump', major, process.env)).usable.length > 0;
    const result = await backup(game.db.url, '--out', dir, ...(hasPgDump ? ['--format', 'builtin'] : []));
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(new RegExp(`^Backed up .*, PostgreSQL ${major}\\.\\d+, in the built-in format \\(no pg_dump ${major} or newer used\\), \\d+ tables, [\\d,]+ rows:\\n`));
    const written = fs.readdirSync(dir);
    expect(written).toEqual([expect.stringMatching(/^first-round-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.dump$/)]);
    builtinFile = path.join(dir, written[0]!);
    expect(result.out).toContain(`${builtinFile}, `);
    expect(fs.statSync(builtinFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(builtinFile).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const text = inside(builtinFile).toString('utf8');
    expect(text.split('\n')[0]).toBe('FIRST-ROUND-BACKUP 1');
    const header = JSON.parse(text.split('\n')[1]!) as { server: string; migrations: string[]; tables: { name: string; columns: string[] }[] };
    expect(header.migrations).toEqual(migrationsList.map((m) => m.name));
    // Every table the catalog has, the migrations table included, each with its columns.
    expect(header.tables.map((tb) => `public.${tb.name}`).sort()).toEqual(Object.keys(before.tables).sort());
    expect(header.tables.find((tb) => tb.name === 'pick')?.columns).toContain('participant_id');
    expect(await backup(game.db.url, '--format', 'zip')).toMatchObject({ code: 1, out: expect.stringMatching(/^--format is builtin or pg_dump\./) });
    // pg_dump asked for by name, where none is new enough: refused, with what to install.
    if (!hasPgDump) {
      expect(await backup(game.db.url, '--format', 'pg_dump', '--out', dir)).toMatchObject({
        code: 1,
        out: expect.stringMatching(new RegExp(`^Nothing was written: a backup needs pg_dump ${major} or newer .*\\n.*postgresql-client-${major}`)),
      });
    }
    expect(fs.readdirSync(dir)).toEqual([path.basename(builtinFile)]);
  });

  it('restores into an empty database exactly what was backed up, sequences included, at no migration to run', async () => {
    into = await createTestDb({ empty: true });
    const result = await restore(into.url, builtinFile);
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(new RegExp(String.raw`^Restored .*first-round-.*\.dump \(made .* from PostgreSQL \d+\.\d+\) into .* from the built-in format: \d+ tables, [\d,]+ rows, ${MIGRATIONS} migrations applied\.\n`));
    expect(await snapshot(into.url)).toEqual(before);
    const orm = await openOrm(into.url, 1);
    expect(await orm.getMigrator().getPendingMigrations()).toEqual([]);
    await orm.close(true);
    // The server opens it: players signed in (the same signing key), the draft where it was.
    const restored = await createTestApp({ db: into, seedBoard: false, env: { DATA_DIR: game.config.DATA_DIR } });
    try {
      expect(expectStatus<{ screen_name: string }>(await restored.request('GET', '/api/auth/me', { user: gameAnn }), 200).screen_name).toBe('AnnBackup');
      expect((await restored.request('GET', '/api/draft/status')).json()).toMatchObject({ draftHasStarted: true, picks_made: 32 });
    } finally {
      await restored.close();
    }
  });

  it('refuses a database that is not empty; --force replaces it, whatever it held', async () => {
    const refused = await restore(into.url, builtinFile);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(new RegExp(String.raw`^Nothing was restored: .* is not empty \(\d+ tables, [\d,]+ rows, ${MIGRATIONS} migrations applied\)\.\n.*add --force`));
    await withClient(into.url, async (client) => {
      await client.query(`delete from pick`);
      await client.query(`update participant set screen_name = screen_name || '!'`);
      await client.query(`create table stray (id int primary key)`);
      const [sequence] = before.sequences as { sequencename: string }[];
      await client.query(`select setval($1, 9999)`, [sequence!.sequencename]);
    });
    const forced = await restore(into.url, builtinFile, '--force');
    expect(forced.code, forced.out).toBe(0);
    expect(await snapshot(into.url)).toEqual(before);
  });

  it('refuses a damaged or cut-short file, and one of a newer version, without touching the database', async () => {
    const whole = fs.readFileSync(builtinFile);
    const cut = path.join(work, 'cut.dump');
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const flipped = Buffer.from(whole);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    const damaged = path.join(work, 'damaged.dump');
    fs.writeFileSync(damaged, flipped);
    // Whole as gzip, but a table's rows short of what its END line says.
    const short = path.join(work, 'short.dump');
    await writeInside(short, inside(builtinFile).toString('utf8').replace(/\nTABLE pick\n[^\n]*\n/, '\nTABLE pick\n'));
    const newer = path.join(work, 'newer.dump');
    const lines = inside(builtinFile).toString('utf8').split('\n');
    const header = JSON.parse(lines[1]!) as { migrations: string[] };
    header.migrations.push('Migration29990101000000_from_the_future');
    lines[1] = JSON.stringify(header);
    await writeInside(newer, lines.join('\n'));

    const empty = await createTestDb({ empty: true });
    try {
      // A cut or damaged file fails its integrity check first; unchecked (--no-verify), the reader's own checks refuse it.
      for (const [bad, why, ...options] of [
        [cut, /has no integrity tag, .* or it was cut short/],
        [cut, /is not a usable backup: it is damaged or cut short/, '--no-verify'],
        [damaged, /fails its integrity check: it has been changed or damaged since npm run backup wrote it/],
        [damaged, /is not a usable backup: it is damaged or cut short/, '--no-verify'],
        [short, /is not a usable backup: table pick holds \d+ rows where \d+ were written/],
        [newer, /the backup was made by a newer version of the game \(migration Migration29990101000000_from_the_future is unknown to this one\)\. Restore it with that version or a newer one\./],
      ] as const) {
        expect(await restore(empty.url, bad, ...options), bad).toMatchObject({ code: 1, out: expect.stringMatching(why) });
        expect(await restore(into.url, bad, '--force', ...options), bad).toMatchObject({ code: 1, out: expect.stringMatching(why) });
      }
      expect(await untouched(empty.url)).toBe(0);
      expect(await snapshot(into.url)).toEqual(before);
    } finally {
      await empty.close();
    }
  });

  it('refuses a backup edited to give an account another e-mail (row counts kept) before touching anything; --no-verify restores it, warning loudly', async () => {
    // What an attacker who can write the backup does: Ann's address made theirs, every count as it was,
    // the file's own ending (its tag) kept.
    const edited = path.join(work, 'edited.dump');
    const { payload, tail } = splitTail(fs.readFileSync(builtinFile));
    const text = zlib.gunzipSync(payload).toString('utf8');
    expect(text).toContain('annbackup@example.com');
    fs.writeFileSync(edited, Buffer.concat([zlib.gzipSync(text.replaceAll('annbackup@example.com', 'mallory@evil.example')), tail]), { mode: 0o600 });
    const empty = await createTestDb({ empty: true });
    try {
      const refused = await restore(empty.url, edited);
      expect(refused).toMatchObject({ code: 1, out: expect.stringMatching(/^Nothing was restored: .*edited\.dump fails its integrity check/) });
      expect(await untouched(empty.url)).toBe(0);
      const unchecked = await restore(empty.url, edited, '--no-verify');
      expect(unchecked.code, unchecked.out).toBe(0);
      expect(unchecked.out).toMatch(/^WARNING: --no-verify: .*edited\.dump was not checked/);
      const emails = await withClient(empty.url, async (c) => (await c.query<{ email: string }>(`select email from participant where screen_name = 'AnnBackup'`)).rows);
      expect(emails).toEqual([{ email: 'mallory@evil.example' }]);
    } finally {
      await empty.close();
    }
  });

  it('refuses a backup without a tag (made before backups were tagged) unless --no-verify', async () => {
    const untagged = path.join(work, 'untagged.dump');
    fs.writeFileSync(untagged, splitTail(fs.readFileSync(builtinFile)).payload, { mode: 0o600 });
    const empty = await createTestDb({ empty: true });
    try {
      expect(await restore(empty.url, untagged)).toMatchObject({ code: 1, out: expect.stringMatching(/^Nothing was restored: .*untagged\.dump has no integrity tag.*--no-verify/s) });
      expect(await untouched(empty.url)).toBe(0);
      const unchecked = await restore(empty.url, untagged, '--no-verify');
      expect(unchecked.code, unchecked.out).toBe(0);
      expect(await snapshot(empty.url)).toEqual(before);
    } finally {
      await empty.close();
    }
  });

  it('says which table and line of the file a row that does not fit is on, not that the database is unreachable', async () => {
    const extra = path.join(work, 'extra-column.dump');
    const text = zlib.gunzipSync(splitTail(fs.readFileSync(builtinFile)).payload).toString('utf8');
    const lines = text.split('\n');
    const title = lines.indexOf('TABLE pick');
    lines[title + 2] += '\tone too many'; // the table's second row
    const at = title + 3; // its line in the file, counted from 1
    fs.writeFileSync(extra, zlib.gzipSync(lines.join('\n')), { mode: 0o600 });
    const empty = await createTestDb({ empty: true });
    try {
      const refused = await restore(empty.url, extra, '--no-verify');
      expect(refused.code).toBe(1);
      expect(refused.out).not.toMatch(/unreachable/i);
      expect(refused.out).toMatch(new RegExp(`Nothing was restored \\(the transaction was rolled back\\): .*extra-column\\.dump, table pick, line ${at} of the file \\(row 2 of the table\\): extra data after last expected column`));
      expect(await untouched(empty.url)).toBe(0);
    } finally {
      await empty.close();
    }
  });

  it('refuses a file whose first line is 60 MB (a 60 KB file) at once, saying what is wrong with it', async () => {
    const spaces = path.join(work, 'spaces.dump');
    fs.writeFileSync(spaces, zlib.gzipSync(Buffer.concat([Buffer.from('FIRST-ROUND-BACKUP 1'), Buffer.alloc(60 * 1024 * 1024, ' '), Buffer.from('\n')])), { mode: 0o600 });
    expect(fs.statSync(spaces).size).toBeLessThan(100_000);
    const empty = await createTestDb({ empty: true });
    try {
      expect(await restore(empty.url, spaces, '--no-verify')).toMatchObject({ code: 1, out: expect.stringMatching(/is not a usable backup: its first line is longer than \d+ bytes/) });
    } finally {
      await empty.close();
    }
  });

  it('tags with BACKUP_KEY when it is set; a restore with another key names both keys; a key too short is refused', async () => {
    const keyA = { BACKUP_KEY: 'a'.repeat(64) };
    const keyB = { BACKUP_KEY: 'b'.repeat(64) };
    const out = path.join(work, 'with-setting.dump');
    const made = await run('backup', backupCommand, ['--format', 'builtin', '--out', out], { ...onDatabase(game.db.url), ...keyA });
    expect(made.code, made.out).toBe(0);
    expect(made.out).toMatch(/\nTagged with the backup key in BACKUP_KEY \(id [0-9a-f]{16}\): restore checks every backup's integrity tag with it/);
    const idA = /BACKUP_KEY \(id ([0-9a-f]{16})\)/.exec(made.out)![1];
    const empty = await createTestDb({ empty: true });
    try {
      // The key file in DATA_DIR is another key.
      expect(await restore(empty.url, out)).toMatchObject({ code: 1, out: expect.stringMatching(new RegExp(`fails its integrity check: it was tagged with another backup key \\(id ${idA}; the key here, .*backup-key, is [0-9a-f]{16}\\)`)) });
      expect(await run('restore', restoreCommand, [out], { ...onDatabase(empty.url), ...keyB })).toMatchObject({ code: 1, out: expect.stringMatching(/tagged with another backup key .* the key here, BACKUP_KEY, is/) });
      expect(await run('restore', restoreCommand, [out], { ...onDatabase(empty.url), BACKUP_KEY: 'short' })).toMatchObject({ code: 1, out: expect.stringMatching(/^BACKUP_KEY is too short: a backup key has at least 32 characters/) });
      expect(await untouched(empty.url)).toBe(0);
      const restored = await run('restore', restoreCommand, [out], { ...onDatabase(empty.url), ...keyA });
      expect(restored.code, restored.out).toBe(0);
      expect(await snapshot(empty.url)).toEqual(before);
    } finally {
      await empty.close();
    }
  });

  it('restores a backup of an older version at its own migrations, and the newer ones run at the next start', async () => {
    const older = await createTestDb({ empty: true });
    const emptyAgain = await createTestDb({ empty: true });
    try {
      const orm = await openOrm(older.url, 1);
      await orm.getMigrator().up({ to: migrationsList.at(-3)!.name });
      await orm.close(true);
      const out = path.join(work, 'older.dump');
      expect((await backup(older.url, '--format', 'builtin', '--out', out)).code).toBe(0);
      const restored = await restore(emptyAgain.url, out);
      expect(restored.code, restored.out).toBe(0);
      expect(restored.out).toMatch(new RegExp(`, ${migrationsList.length - 2} migrations applied\\.`));
      const reopened = await openOrm(emptyAgain.url, 1);
      expect((await reopened.getMigrator().getPendingMigrations()).map((m) => m.name)).toEqual(migrationsList.slice(-2).map((m) => m.name));
      await migrate(reopened);
      expect(await reopened.getMigrator().getPendingMigrations()).toEqual([]);
      await reopened.close(true);
    } finally {
      await older.close();
      await emptyAgain.close();
    }
  });

  it('reads one snapshot while writes go on: two tables written together hold the same rows in the backup', async () => {
    const busy = await createTestDb();
    let writing = true;
    let commits = 0;
    try {
      // Two tables every write fills together (one transaction), the first big enough that its COPY takes a
      // while: a backup reading each table at its own moment would find the second ahead of the first.
      await busy.query(`create table ledger_a (id int primary key, note text); create table ledger_b (id int primary key references ledger_a)`);
      await busy.query(`insert into ledger_a select g, repeat('x', 200) from generate_series(1, 200000) g; insert into ledger_b select g from generate_series(1, 200000) g`);
      const writer = withClient(busy.url, async (client) => {
        for (let id = 200001; writing; id++) {
          await client.query(`begin; insert into ledger_a values (${id}, 'new'); insert into ledger_b values (${id}); commit`);
          commits++;
        }
      });
      const out = path.join(work, 'busy.dump');
      const started = commits;
      const result = await backup(busy.url, '--format', 'builtin', '--out', out);
      const during = commits - started;
      writing = false;
      await writer;
      expect(result.code, result.out).toBe(0);
      expect(during).toBeGreaterThan(0);
      const { trailer, header } = await readBuiltinBackup(out, async () => {});
      // A table made after the game's migrations is in the backup too: the catalog names the tables.
      expect(header.tables.map((tb) => tb.name)).toEqual(expect.arrayContaining(['ledger_a', 'ledger_b']));
      expect(trailer.rows.ledger_a).toBeGreaterThanOrEqual(200000);
      expect(trailer.rows.ledger_b).toBe(trailer.rows.ledger_a);
    } finally {
      writing = false;
      await busy.close();
    }
  });
});
