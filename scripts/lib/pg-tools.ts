import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { postgresBinaries } from '../../server/src/db/embedded-postgres.js';
import { describeDbError } from '../../server/src/db/database.js';
import { CommandFailure } from './command.js';

/*
 * PostgreSQL's own client tools, pg_dump and pg_restore, for `npm run backup` and `npm run restore`.
 * pg_dump refuses a server newer than itself, and pg_restore cannot read an archive written by a newer
 * pg_dump: each must be at least the server's major version. Where they are looked for, in this order:
 * PG_BIN (a directory), beside the embedded PostgreSQL (its package ships none today, but would be the
 * exact match), /usr/lib/postgresql/<major>/bin (Debian's and Ubuntu's layout, several majors side by
 * side), then PATH. Of those new enough, the oldest is taken: a newer pg_dump writes commands an older
 * server may not know.
 */

export type ToolName = 'pg_dump' | 'pg_restore';

export interface PgTool {
  name: ToolName;
  path: string;
  /** As the tool prints it: `15.20`. */
  version: string;
  major: number;
}

export interface ServerVersion {
  /** `18.4` */
  version: string;
  major: number;
}

/** The version of the server at `url`. */
export async function serverVersion(url: string): Promise<ServerVersion> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ num: string; text: string }>(`select current_setting('server_version_num') as num, current_setting('server_version') as text`);
    const num = Number(rows[0]!.num);
    return { version: rows[0]!.text.split(' ')[0]!, major: Math.floor(num / 10000) };
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') {
      throw new CommandFailure(`The database ${decodeURIComponent(new URL(url).pathname.slice(1))} does not exist yet: the server has never started on it.`);
    }
    throw new CommandFailure(describeDbError(error, url));
  } finally {
    await client.end().catch(() => {});
  }
}

/** Directories that may hold PostgreSQL's client tools, in the order they are preferred. */
async function toolDirectories(env: NodeJS.ProcessEnv): Promise<string[]> {
  const dirs: string[] = [];
  if (env.PG_BIN) dirs.push(env.PG_BIN);
  try {
    dirs.push(path.dirname((await postgresBinaries()).postgres));
  } catch {
    // no embedded PostgreSQL for this platform
  }
  const debian = '/usr/lib/postgresql';
  const majors = fs.existsSync(debian) ? fs.readdirSync(debian).filter((d) => /^\d+$/.test(d)) : [];
  dirs.push(...majors.sort((a, b) => Number(b) - Number(a)).map((m) => path.join(debian, m, 'bin')));
  dirs.push(...(env.PATH ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  return dirs;
}

const realpath = (file: string) => {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
};

/** Every `name` found, with its version, in the order of preference (duplicates through links removed). */
export async function installedTools(name: ToolName, env: NodeJS.ProcessEnv): Promise<PgTool[]> {
  const seen = new Set<string>();
  const found: PgTool[] = [];
  for (const dir of await toolDirectories(env)) {
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) continue;
    const real = realpath(file);
    if (seen.has(real)) continue;
    seen.add(real);
    const result = spawnSync(file, ['--version'], { encoding: 'utf8', env: toolEnv(env) });
    // Debian's /usr/bin/pg_dump is a wrapper that runs the newest installed major: its own word counts.
    const match = /\(PostgreSQL\)\s+(\d+)(?:\.(\d+))?/.exec(result.stdout ?? '');
    if (result.status !== 0 || !match) continue;
    const version = match[2] === undefined ? match[1]! : `${match[1]}.${match[2]}`;
    if (found.some((t) => t.version === version)) continue; // the same tool again, through a wrapper
    found.push({ name, path: file, version, major: Number(match[1]) });
  }
  return found;
}

/** The tools of `name` that can work with a server of major version `major`, the closest version first. */
export async function toolsFor(name: ToolName, major: number, env: NodeJS.ProcessEnv): Promise<{ usable: PgTool[]; all: PgTool[] }> {
  const all = await installedTools(name, env);
  const usable = all.filter((t) => t.major >= major).sort((a, b) => a.major - b.major);
  return { usable, all };
}

/** Why no tool could be used, and what to install: one message for the operator. */
export function missingToolMessage(name: ToolName, server: ServerVersion, all: PgTool[], what: string): string {
  const found = all.length > 0 ? `found only ${all.map((t) => `${name} ${t.version} (${t.path})`).join(', ')}` : `no ${name} was found`;
  return [
    `${what} needs ${name} ${server.major} or newer (the server is PostgreSQL ${server.version}); ${found}.`,
    `The embedded PostgreSQL's package ships no ${name}: install PostgreSQL ${server.major}'s client tools (Debian and Ubuntu: postgresql-client-${server.major},`,
    `from PostgreSQL's own apt repository where the distribution's is older; macOS: brew install postgresql@${server.major}) and run this again,`,
    `or set PG_BIN to the directory that holds them.`,
  ].join('\n');
}

/**
 * The environment a tool runs with: how to find the server comes from its command line and PGPASSWORD,
 * nothing else of the caller's environment (PGHOST, PGDATABASE, … there would be surprises).
 */
function toolEnv(env: NodeJS.ProcessEnv, password?: string): NodeJS.ProcessEnv {
  const passOn = Object.fromEntries(Object.entries(env).filter(([key]) => /^PGSSL|^PGSERVICEFILE$|^PGSYSCONFDIR$/.test(key)));
  return {
    PATH: env.PATH ?? process.env.PATH ?? '/usr/bin:/bin',
    ...(env.HOME ? { HOME: env.HOME } : {}),
    LC_ALL: 'C',
    ...passOn,
    ...(password ? { PGPASSWORD: password } : {}),
  };
}

/**
 * The connection as a tool takes it: the URL without its password on the command line (which `ps` shows
 * to everyone on the machine), the password in the tool's environment.
 */
export function toolConnection(url: string): { dbname: string; password: string } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), password };
}

/** Runs a tool to the end: its exit code and what it printed, with the password blanked should it appear. */
export function runTool(tool: PgTool, args: string[], options: { env: NodeJS.ProcessEnv; password?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const scrub = (text: string) => (options.password ? text.split(options.password).join('********') : text);
  return new Promise((resolve, reject) => {
    const child = spawn(tool.path, args, { env: toolEnv(options.env, options.password), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: scrub(stdout), stderr: scrub(stderr).trim() }));
  });
}
