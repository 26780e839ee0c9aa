// Runs the draft-night load generator (bench-draft-load.ts) as a process of its own, against the game or
// against the plain fan-out yardstick (plain-fanout.mjs), and starts that yardstick.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CONNECTED } from '../../server/src/wire/sse-frames.js';
import type { LoadOptions, LoadResult } from '../bench-draft-load.js';

/** What may stop the bench's children on the way out (the bench's own list, run last-in first). */
export type Cleanups = (() => Promise<unknown>)[];

/**
 * The load generator over `options`, its output on this process's; resolves with its result. `nodeArgs`
 * go to its Node (a profile's flags), `nice` > 0 runs every thread of it at that lower priority.
 */
export async function runLoad(options: LoadOptions, cleanups: Cleanups, { nodeArgs = [], nice = 0 }: { nodeArgs?: string[]; nice?: number } = {}): Promise<LoadResult> {
  const optionsFile = `${options.resultFile}.options.json`;
  await fs.writeFile(optionsFile, JSON.stringify(options));
  const loadCommand = [process.execPath, ...nodeArgs, '--import', 'tsx', path.resolve('scripts/bench-draft-load.ts'), optionsFile];
  // Through `nice`, so that every thread of it (its workers, V8's and libuv's) runs at that priority.
  const [command, ...args] = nice > 0 ? ['nice', '-n', String(nice), ...loadCommand] : loadCommand;
  const load = spawn(command!, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  cleanups.unshift(async () => {
    if (load.exitCode === null) load.kill('SIGKILL');
  });
  const code = await new Promise<number | null>((resolve) => load.once('exit', resolve));
  if (code !== 0) throw new Error(`the load generator failed (exit ${code})`);
  return JSON.parse(await fs.readFile(options.resultFile, 'utf8')) as LoadResult;
}

/**
 * The plain Fastify fan-out (plain-fanout.mjs) writing `pickBytes` (one client's stream bytes at a pick of
 * the game, as the load generator captured them) to every stream at each pick, or `gzipPickBytes` (the same
 * as they came on the wire, compressed) to a client that accepts gzip; resolves once it listens. `nodeArgs`
 * go to its Node (a profile's flags).
 */
export async function startPlainFanOut(
  dir: string,
  pickBytes: Buffer,
  cleanups: Cleanups,
  nodeArgs: string[] = [],
  gzipPickBytes?: Buffer,
): Promise<{ base: string; pid: number | undefined; stop: () => Promise<void> }> {
  const file = path.join(dir, 'plain-fanout.json');
  await fs.writeFile(file, JSON.stringify({ connected: CONNECTED, pick: pickBytes.toString('base64'), ...(gzipPickBytes ? { gzipPick: gzipPickBytes.toString('base64') } : {}) }));
  const child = spawn(process.execPath, [...nodeArgs, path.resolve('scripts/lib/plain-fanout.mjs'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  cleanups.unshift(stop);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    void exited.then(() => reject(new Error('the plain fan-out process exited')));
  });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid, stop };
}
