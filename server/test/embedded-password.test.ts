import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { initCluster, LEGACY_PASSWORD, startEmbeddedPostgres, type RunningDatabase } from '../src/db/embedded-postgres.js';
import { runScript } from './support/run-script.js';
import { makeDataDir, removeDataDir } from './support/server-process.js';

/*
 * The embedded PostgreSQL listens on a TCP port of 127.0.0.1: anyone on the machine can try it. Its
 * superuser password is random per data directory, never the constant that used to be in the source.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function start(dataDir: string): Promise<RunningDatabase> {
  const db = await startEmbeddedPostgres(path.join(dataDir, 'pg'), { durable: false });
  cleanups.push(() => db.stop());
  return db;
}

/** Connects as the superuser with `password`; the error's SQLSTATE when refused. */
async function login(serverUrl: string, password: string): Promise<'ok' | string> {
  const url = new URL(serverUrl);
  url.password = encodeURIComponent(password);
  const client = new pg.Client({ connectionString: url.toString() });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

const passwordFile = (dataDir: string) => path.join(dataDir, 'pg.password');
const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('the embedded PostgreSQL password', () => {
  it('is random per data directory, kept in a 0600 file, reused on restart; the old constant is refused', async () => {
    const one = makeDataDir();
    const two = makeDataDir();
    cleanups.push(() => removeDataDir(one), () => removeDataDir(two));

    const first = await start(one);
    const second = await start(two);
    const password = fs.readFileSync(passwordFile(one), 'utf8').trim();
    expect(password.length).toBeGreaterThanOrEqual(32);
    expect(modeOf(passwordFile(one))).toBe(0o600);
    expect(fs.readFileSync(passwordFile(two), 'utf8').trim()).not.toBe(password);
    expect(first.serverUrl).not.toContain(LEGACY_PASSWORD);

    expect(await login(first.serverUrl, password)).toBe('ok');
    expect(await login(first.serverUrl, LEGACY_PASSWORD)).toBe('28P01'); // invalid_password
    expect(await login(second.serverUrl, password)).toBe('28P01');

    // Every TCP connection must prove the password (SCRAM), none is trusted.
    const admin = new pg.Client({ connectionString: first.serverUrl });
    await admin.connect();
    const rules = await admin.query<{ type: string; auth_method: string }>(`select type, auth_method from pg_hba_file_rules where error is null`);
    await admin.end();
    expect(rules.rows.filter((r) => r.type.startsWith('host')).map((r) => r.auth_method)).not.toContain('trust');
    expect(new Set(rules.rows.map((r) => r.auth_method))).toEqual(new Set(['scram-sha-256']));

    await first.stop();
    const again = await start(one);
    expect(fs.readFileSync(passwordFile(one), 'utf8').trim()).toBe(password);
    expect(await login(again.serverUrl, password)).toBe('ok');
  }, 60_000);

  it('an existing data directory made with the old constant still starts, and then refuses the constant', async () => {
    const dataDir = makeDataDir();
    cleanups.push(() => removeDataDir(dataDir));
    // As the previous version created it: password auth, the constant password, no password file.
    await initCluster(path.join(dataDir, 'pg'), { password: LEGACY_PASSWORD, auth: 'password' });
    expect(fs.existsSync(passwordFile(dataDir))).toBe(false);

    const db = await start(dataDir);
    const password = fs.readFileSync(passwordFile(dataDir), 'utf8').trim();
    expect(modeOf(passwordFile(dataDir))).toBe(0o600);
    expect(password).not.toBe(LEGACY_PASSWORD);
    expect(await login(db.serverUrl, LEGACY_PASSWORD)).toBe('28P01');
    expect(await login(db.serverUrl, password)).toBe('ok');
    const admin = new pg.Client({ connectionString: db.serverUrl });
    await admin.connect();
    const methods = await admin.query<{ auth_method: string }>(`select distinct auth_method from pg_hba_file_rules where error is null`);
    await admin.end();
    expect(methods.rows.map((r) => r.auth_method)).toEqual(['scram-sha-256']);

    // The operator's command joins the running cluster with the same password file.
    const status = runScript('draft', ['status'], { DATA_DIR: dataDir, DATABASE_URL: '', DRAFT_DEADLINE: '2099-04-23T20:00:00-04:00' });
    expect(status).toMatchObject({ code: 0, out: expect.stringMatching(/^Started: no/) });

    await db.stop();
    const again = await start(dataDir);
    expect(fs.readFileSync(passwordFile(dataDir), 'utf8').trim()).toBe(password);
    expect(await login(again.serverUrl, password)).toBe('ok');
  }, 60_000);
});
