import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { initCluster, startEmbeddedPostgres, withDatabase, type RunningDatabase } from '../db/embedded-postgres.js';
import { migrate, openOrm } from '../db/orm.js';
import { fromRoot } from '../paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a database on the test server; tests create their own databases from the template. */
    dbServerUrl: string;
    dbTemplate: string;
    /**
     * A DATA_DIR holding a freshly made embedded cluster (`pg/`, `pg.password`), never started: tests that
     * start the server on an embedded cluster copy it (server-process.ts) instead of running initdb. Empty
     * when the run uses DATABASE_URL.
     */
    dataDirTemplate: string;
  }
}

/**
 * One real PostgreSQL for the whole run: the embedded one in a temporary directory, or the server named by
 * DATABASE_URL. The schema is migrated once into a template database that every test file clones.
 */
export default async function setup(project: TestProject) {
  // The tests that start the real server (server-process.ts) run the compiled one, as `npm start` does:
  // built here, once for the run, when older than its sources (well under a second).
  execFileSync(process.execPath, [fromRoot('scripts/build-server.mjs'), '--if-stale'], { stdio: 'inherit' });
  let embedded: RunningDatabase | undefined;
  let dir: string | undefined;
  let serverUrl = process.env.DATABASE_URL;
  let dataDirTemplate = '';
  if (!serverUrl) {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'first-round-test-pg-'));
    await fs.chmod(dir, 0o755);
    // One initdb for the run: the cluster is copied, before its first start, as the template of every other
    // embedded cluster the tests start. The password file beside it, as startEmbeddedPostgres writes it.
    const cluster = path.join(dir, 'pg');
    await fs.writeFile(`${cluster}.password`, `${crypto.randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
    await initCluster(cluster, { password: (await fs.readFile(`${cluster}.password`, 'utf8')).trim() });
    dataDirTemplate = path.join(dir, 'data-dir-template');
    await fs.mkdir(dataDirTemplate, { mode: 0o755 });
    // cp -a: the copy keeps the owner (the postgres user, when the tests run as root) and the modes.
    execFileSync('cp', ['-a', cluster, `${cluster}.password`, dataDirTemplate]);
    embedded = await startEmbeddedPostgres(cluster, { durable: false });
    serverUrl = embedded.serverUrl;
  }
  const template = `fr_template_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${template}`);
  const orm = await openOrm(withDatabase(serverUrl, template), 2);
  await migrate(orm);
  await orm.close(true);

  project.provide('dbServerUrl', serverUrl);
  project.provide('dbTemplate', template);
  project.provide('dataDirTemplate', dataDirTemplate);

  return async () => {
    const leftovers = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like 'fr_test_%' or datname = $1`,
      [template],
    );
    for (const { datname } of leftovers.rows) {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(datname)} with (force)`);
    }
    await admin.end();
    await embedded?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  };
}
