// The pieces of a deployment, started on this machine for the deployment test (scripts/test-deploy.ts):
// PostgreSQL, an SMTP server, instances of the game, nginx from deploy/nginx.conf with a certificate made
// for the run, and an HTTPS client that reaches the game by its public name through nginx.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { APP_DATABASE, startEmbeddedPostgres, withDatabase } from '../../server/src/db/embedded-postgres';
import { freePort } from '../../server/src/free-port.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * How an instance of the game is started, in this one place: `npm start`'s own script. When `npm start`
 * runs something else (a compiled build), change it here and the deployment test follows.
 */
export const START_COMMAND: readonly string[] = [process.execPath, path.join(ROOT, 'scripts', 'start.mjs')];


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends SIGTERM (or `signal`) and waits for the exit; SIGKILL after `killAfterMs`. Resolves with the exit code. */
export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 20_000): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve(code);
    });
    child.kill(signal);
  });
}

// ------------------------------------------------------------------------------------ PostgreSQL

export interface Database {
  /** The one database both instances use. */
  url: string;
  stop(): Promise<void>;
}

/**
 * One database for every instance: a throwaway database on DATABASE_URL's server when it is set (dropped
 * at the end), else the project's embedded PostgreSQL in `dir`, started by this process, so stopping an
 * instance never stops the database under the other.
 */
export async function startDatabase(dir: string): Promise<Database> {
  if (process.env.DATABASE_URL) {
    const name = `first_round_deploy_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL, 'postgres') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    return {
      url: withDatabase(process.env.DATABASE_URL, name),
      async stop() {
        const client = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, 'postgres') });
        await client.connect();
        await client.query(`drop database if exists ${name} with (force)`);
        await client.end();
      },
    };
  }
  // As root, the embedded PostgreSQL runs as a user of its own, which must be able to enter the directory.
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  const cluster = await startEmbeddedPostgres(path.join(dir, 'pg'), { durable: false });
  return { url: withDatabase(cluster.serverUrl, APP_DATABASE), stop: () => cluster.stop() };
}

// ------------------------------------------------------------------------------------ SMTP

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** Header values by lower-case name, unfolded, as they arrived. */
  headers: Map<string, string>;
  receivedAt: number;
}

export interface MailServer {
  /** SMTP_URL for the game. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail (already received or arriving within `timeoutMs`) that `match` accepts. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number, what?: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1, keeping every message it is given. The game's
 * nodemailer transport connects as to any mail relay: no STARTTLS offered, no login needed.
 */
export async function startMailServer(): Promise<MailServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream, { skipHtmlToText: true, skipImageLinks: true, skipTextLinks: true }).then(
        (parsed) => {
          const headers = new Map<string, string>();
          for (const { key, line } of parsed.headerLines) headers.set(key, line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim());
          mails.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            headers,
            receivedAt: Date.now(),
          });
          for (const wake of waiters) wake();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(match, timeoutMs = 60_000, what = 'a mail') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`No ${what} reached the SMTP server within ${timeoutMs / 1000} s (${mails.length} mails received)`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The code in a sign-in mail ('123456 is your First Round code'). */
export function codeIn(mail: ReceivedMail): string {
  const code = /^(\d{6}) is your First Round code/.exec(mail.subject)?.[1];
  if (!code) throw new Error(`Not a sign-in code mail: ${mail.subject}`);
  return code;
}

// ------------------------------------------------------------------------------------ TLS

export interface Certificate {
  certFile: string;
  keyFile: string;
  pem: string;
  /** base64 SHA-256 of its public key: what Chromium's --ignore-certificate-errors-spki-list takes. */
  spki: string;
}

/** A self-signed certificate for `name`, made for this run with openssl (a day long, the name as SAN). */
export function makeCertificate(dir: string, name: string): Certificate {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', keyFile, '-out', certFile],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    const e = error as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT') throw new Error('The deployment test needs openssl to make its certificate: apt-get install -y openssl', { cause: error });
    throw new Error(`openssl could not make a certificate: ${e.stderr?.toString() ?? error}`, { cause: error });
  }
  const pem = fs.readFileSync(certFile, 'utf8');
  const der = new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  return { certFile, keyFile, pem, spki: crypto.createHash('sha256').update(der).digest('base64') };
}

// ------------------------------------------------------------------------------------ the game

export interface Instance {
  name: string;
  port: number;
  /** http://127.0.0.1:<port>: the instance itself, not through the proxy. */
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output: string[];
  /** SIGTERM and the exit: its code (0 = drained in time) and how long it took. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

/**
 * Starts one instance of the game with `env` on top of this process's environment (the one way every
 * instance is started: START_COMMAND) and waits until its /readyz answers 200.
 */
export async function startInstance(name: string, env: Record<string, string>, timeoutMs = 300_000): Promise<Instance> {
  const port = Number(env.PORT);
  const child = spawn(START_COMMAND[0]!, START_COMMAND.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}`;
  const instance: Instance = {
    name,
    port,
    url,
    child,
    output,
    async stop() {
      const started = Date.now();
      const code = await stopChild(child);
      return { code, ms: Date.now() - started };
    },
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Instance ${name} exited while starting (code ${child.exitCode}):\n${output.slice(-30).join('\n')}`);
    const ready = await fetch(`${url}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return instance;
    if (Date.now() > deadline) {
      await stopChild(child, 'SIGKILL');
      throw new Error(`Instance ${name} was not ready within ${timeoutMs / 1000} s:\n${output.slice(-30).join('\n')}`);
    }
    await sleep(100);
  }
}

// ------------------------------------------------------------------------------------ nginx

export const NGINX = '/usr/sbin/nginx';
export const NGINX_TEMPLATE = path.join(ROOT, 'deploy', 'nginx.conf');

export interface Proxy {
  child: ChildProcess;
  errorLog: string;
  /** The site's access log (deploy/nginx.conf's {{ACCESS_LOG}}). */
  accessLog: string;
  output: string[];
  /**
   * Resolves once nginx has had a 200 from `address` (HOST:PORT) for a request that ended after this call:
   * the instance is back in rotation (after a failure nginx skips it for fail_timeout).
   */
  servedBy(address: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** The worker processes' ids (Linux /proc; none when nginx runs as one process). */
  workerPids(): number[];
}

export interface NginxOptions {
  /** The main configuration's `worker_connections` (1024, what the deployment test has always used). Each proxied request takes two: the client's and the instance's. */
  workerConnections?: number;
  /** Its `worker_rlimit_nofile`: the open-file limit nginx sets for itself (none by default: the limit it inherits). */
  rlimitNofile?: number;
  /**
   * A plain-HTTP listener on 127.0.0.1:`plainPort` proxying as the site's TLS server does (the bench's, in this
   * main configuration only: deploy/nginx.conf is what operators install and stays TLS-only). It is the site
   * file's own TLS `server { }` block with its listen line made plain and its ssl_ lines dropped, so every
   * proxy setting is the template's.
   */
  plainPort?: number;
  /**
   * nginx's worker processes (1: one process, no master, as the test runs it). More: a master and that many
   * workers, each with its own open-file limit, and the plain listener with `reuseport` so the kernel spreads
   * connections over them evenly.
   */
  workerProcesses?: number;
}

/**
 * The site file's TLS server block (the one listening on `httpsPort` with `server_name`), copied to listen
 * on 127.0.0.1:`port` in plain HTTP: the same locations and proxy settings, no certificate.
 */
export function plainServerOf(filled: string, httpsPort: string, port: number, reuseport = false): string {
  // Without the comments, so a brace in one cannot end the block early.
  const site = filled.replace(/#.*$/gm, '');
  const listen = new RegExp(`^\\s*listen ${httpsPort} ssl http2;.*$`, 'm');
  const at = site.search(listen);
  if (at < 0) throw new Error(`deploy/nginx.conf has no "listen ${httpsPort} ssl http2;" server to copy`);
  const start = site.lastIndexOf('server {', at);
  if (start < 0) throw new Error('deploy/nginx.conf: no server block around the TLS listen line');
  let depth = 0;
  let end = -1;
  for (let i = start; i < site.length; i++) {
    if (site[i] === '{') depth++;
    else if (site[i] === '}' && --depth === 0) {
      end = i + 1;
      break;
    }
  }
  if (end < 0) throw new Error('deploy/nginx.conf: the TLS server block is not closed');
  return site
    .slice(start, end)
    .replace(
      listen,
      // Idle connections closed after 5 s (nginx's default is 75 s): a page's first read leaves one open, and
      // ten thousand of them would take as many file descriptors in nginx and in the load generator.
      `    listen 127.0.0.1:${port}${reuseport ? ' reuseport' : ''};\n    keepalive_timeout 5s;`,
    )
    .replace(/^\s*ssl_\w+[^;]*;.*\n/gm, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{2,}/g, '\n');
}

/** The values of deploy/nginx.conf's placeholders: the site's name and address, its ports, certificate and two instances. */
export function siteValues(site: { name: string; publicUrl: string; httpsPort: number; httpPort: number; certificate: Certificate; instancePorts: [number, number] }): Record<string, string> {
  return {
    SERVER_NAME: site.name,
    PUBLIC_URL: site.publicUrl,
    HTTPS_PORT: String(site.httpsPort),
    HTTP_PORT: String(site.httpPort),
    CERTIFICATE: site.certificate.certFile,
    CERTIFICATE_KEY: site.certificate.keyFile,
    INSTANCE_1: `127.0.0.1:${site.instancePorts[0]}`,
    INSTANCE_2: `127.0.0.1:${site.instancePorts[1]}`,
  };
}

/**
 * nginx with deploy/nginx.conf, its {{NAME}}s filled in, included in the smallest main configuration
 * that runs it as this user in `dir` (pid, logs and temporary files there, in the foreground, one process):
 * what /etc/nginx/nginx.conf is on a server.
 */
export async function startNginx(dir: string, values: Record<string, string>, options: NginxOptions = {}): Promise<Proxy> {
  if (!fs.existsSync(NGINX)) throw new Error(`The deployment test needs nginx at ${NGINX}: apt-get install -y nginx-light`);
  const accessLog = path.join(dir, 'access.log');
  let site = fs.readFileSync(NGINX_TEMPLATE, 'utf8');
  for (const [key, value] of Object.entries({ ACCESS_LOG: accessLog, ...values })) site = site.replaceAll(`{{${key}}}`, value);
  const directives = site.replace(/#.*$/gm, '');
  const left = [...new Set(directives.match(/\{\{[A-Z_0-9]+\}\}/g) ?? [])];
  if (left.length > 0) throw new Error(`deploy/nginx.conf has placeholders the test did not fill: ${left.join(', ')}`);
  fs.writeFileSync(path.join(dir, 'first-round.conf'), site);
  const workers = options.workerProcesses ?? 1;
  const plain = options.plainPort === undefined ? '' : plainServerOf(site, values.HTTPS_PORT!, options.plainPort, workers > 1);
  if (plain) fs.writeFileSync(path.join(dir, 'first-round-plain.conf'), `# The bench's plain-HTTP copy of the site's TLS server (startNginx's plainPort).\n${plain}\n`);
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, temp), { recursive: true });
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `# The deployment test's main configuration: the part /etc/nginx/nginx.conf plays on a server.
daemon off;
${workers > 1 ? `master_process on;\nworker_processes ${workers};\n# The workers as this user (root's workers would otherwise be nobody's, unable to write in ${dir}).\nuser ${os.userInfo().username};` : 'master_process off;\nworker_processes 1;'}
pid ${dir}/nginx.pid;
error_log ${errorLog} warn;
${options.rlimitNofile === undefined ? '' : `worker_rlimit_nofile ${options.rlimitNofile};\n`}events { worker_connections ${options.workerConnections ?? 1024}; }
http {
    # Which instance answered each request, so the test knows when a restarted one is back in rotation.
    # (The site's own access log, {{ACCESS_LOG}} filled with this file, starts with the same two fields.)
    log_format upstreams '$upstream_addr|$upstream_status';
    access_log ${accessLog} upstreams;
    # And in a header, so the test can tell which instance holds the page's live stream (the site file sets
    # no add_header of its own, so this one applies to it).
    add_header X-Upstream $upstream_addr always;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/first-round.conf;
${plain ? `    include ${dir}/first-round-plain.conf;\n` : ''}}
`,
  );
  const child = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLog], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const proxy: Proxy = {
    child,
    errorLog,
    accessLog,
    output,
    async servedBy(address, timeoutMs = 15_000) {
      let offset = fs.existsSync(accessLog) ? fs.statSync(accessLog).size : 0;
      let partial = '';
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const size = fs.existsSync(accessLog) ? fs.statSync(accessLog).size : 0;
        if (size > offset) {
          const fd = fs.openSync(accessLog, 'r');
          const buffer = Buffer.alloc(size - offset);
          fs.readSync(fd, buffer, 0, buffer.length, offset);
          fs.closeSync(fd);
          offset = size;
          // '$upstream_addr|$upstream_status': after a retry 'A, B|502, 200', the last of each is the answer's.
          const lines = (partial + buffer.toString('utf8')).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) {
            const [addresses = '', statuses = ''] = line.split('|');
            if (addresses.split(', ').at(-1) === address && statuses.split(', ').at(-1) === '200') return;
          }
        }
        await sleep(50);
      }
      throw new Error(`nginx sent no request to ${address} that it answered within ${timeoutMs / 1000} s`);
    },
    // With workers, TERM (the master stops them at once): a graceful QUIT would wait for every live stream, and
    // a KILL of the master after it would leave the workers running.
    stop: async () => void (await stopChild(child, workers > 1 ? 'SIGTERM' : 'SIGQUIT', workers > 1 ? 15_000 : 5000)),
    workerPids() {
      try {
        return fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
  };
  const port = Number(values.HTTPS_PORT);
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : '';
      throw new Error(`nginx exited (code ${child.exitCode}): ${[...output, log].join('\n')}`);
    }
    const listening = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (listening) return proxy;
    if (Date.now() > deadline) {
      // A master's workers go with it on TERM; after a KILL they would stay.
      await stopChild(child, workers > 1 ? 'SIGTERM' : 'SIGKILL', 5000);
      throw new Error(`nginx was not listening on ${port} within 10 s: ${output.join('\n')}`);
    }
    await sleep(50);
  }
}

// ------------------------------------------------------------------------------------ HTTPS client

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json<T = unknown>(): T;
}

export interface HttpsClient {
  request(method: string, pathAndQuery: string, options?: { headers?: Record<string, string>; body?: string; timeoutMs?: number }): Promise<Answer>;
  close(): void;
}

/**
 * Requests to https://<name>:<port> as a player's program makes them: the name resolved to 127.0.0.1 (as
 * Chromium's --host-resolver-rules does), the run's certificate the only one trusted, connections kept alive.
 */
export function httpsClient(name: string, port: number, certificate: string, maxSockets = 64): HttpsClient {
  const agent = new https.Agent({
    keepAlive: true,
    maxSockets,
    ca: certificate,
    servername: name,
    lookup: ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (options?.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as net.LookupFunction,
  });
  return {
    request(method, pathAndQuery, options = {}) {
      return new Promise<Answer>((resolve, reject) => {
        const req = https.request(
          { host: name, port, path: pathAndQuery, method, agent, headers: { ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}), ...options.headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('error', reject);
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T>() => JSON.parse(text) as T });
            });
          },
        );
        req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${pathAndQuery}: no answer within ${(options.timeoutMs ?? 30_000) / 1000} s`)));
        req.on('error', reject);
        req.end(options.body);
      });
    },
    close: () => agent.destroy(),
  };
}
