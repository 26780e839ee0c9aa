import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A refusal the operator can act on: printed alone (no stack, no prefix), exit code 1. */
export class CommandFailure extends Error {}

/** What an operator command reads and writes besides the database: its environment and its output lines. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  /** A line of output (stdout when run as a process). */
  out(line: string): void;
}

/** An operator command (`npm run draft`, `npm run season`, …): its arguments as typed after `--`. */
export type Command = (args: string[], io: CommandIo) => Promise<void>;

/**
 * Runs a command as `npm run <name>` does: the process's environment (openScriptDatabase adds `.env`),
 * output on stdout, a refusal on stderr with exit code 1, anything unexpected as `<name>: message` with exit
 * code 1.
 */
export function runCommandAsProcess(name: string, command: Command): void {
  command(process.argv.slice(2), { env: process.env, out: (line) => console.log(line) }).catch((error: unknown) => {
    console.error(error instanceof CommandFailure ? error.message : `${name}: ${(error as Error)?.message ?? error}`);
    process.exit(1);
  });
}

/**
 * Runs a command inside this process with `env` as its whole environment (no `.env`), as the tests do where
 * the command's own process is not the point (starting one costs seconds). Same exit code and output as the
 * process: stdout, then stderr, trimmed.
 */
export async function runCommandInProcess(name: string, command: Command, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const stdout: string[] = [];
  let stderr = '';
  let code = 0;
  try {
    await command(args, { env, out: (line) => stdout.push(line) });
  } catch (error) {
    stderr = error instanceof CommandFailure ? error.message : `${name}: ${(error as Error)?.message ?? error}`;
    code = 1;
  }
  return { code, out: [...stdout, stderr].join('\n').trim() };
}

/** Whether the module at `url` is the one node was started with (`tsx scripts/draft.ts`), not an import of it. */
export function isMainModule(url: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  const real = (file: string) => {
    try {
      return fs.realpathSync(file);
    } catch {
      return file;
    }
  };
  return real(started) === real(fileURLToPath(url));
}

/** A file as an operator would type it: relative when it is under the current directory, else absolute. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : path.resolve(file);
}
