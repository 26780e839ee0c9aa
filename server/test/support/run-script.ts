import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Runs one of the project's commands (`scripts/<name>.ts`) as a user would, in a process of its own, with
 * extra environment: for what only its process shows (exit code, output streams, joining a cluster another
 * process owns). A process costs seconds; the rest of a command's tests run it in-process
 * (runCommandInProcess in scripts/lib/command.ts).
 */
export function runScript(script: string, args: string[], env: Record<string, string>): { code: number | null; out: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}`.trim() };
}
