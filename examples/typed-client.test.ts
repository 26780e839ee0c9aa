/**
 * examples/typed-client.ts, run as a reader would run it (its own process, `tsx`) against the game served
 * over HTTP on a throwaway database, while the test drives the draft as an operator: the example must sign
 * in, save its picks, print the live changes it hears and exit 0 once round one is complete.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_EMAIL, createTestApp, listenOnLoopback, type TestApp } from '@first-round/server/testing';

const ROOT = path.resolve(import.meta.dirname, '..');

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  // Live changes need the instance's listener (startEvents); a two-slot round one keeps the run short.
  t = await createTestApp({ startEvents: true, env: { ROUND_ONE_PICKS: '2' } });
  baseUrl = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** Runs the example; `waitFor` resolves at the first line matching, `exited` with its code and output. */
function runExample(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/typed-client.ts', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let out = '';
  const waiters: (() => void)[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      for (const wake of waiters) wake();
    });
  }
  const exited = new Promise<{ code: number | null; out: string }>((resolve) => child.once('exit', (code) => resolve({ code, out })));
  const waitFor = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (pattern.test(out)) resolve();
        else if (child.exitCode !== null) reject(new Error(`the example exited (${child.exitCode}) before printing ${pattern}:\n${out}`));
      };
      waiters.push(check);
      void exited.then(check);
      check();
    });
  return { waitFor, exited, kill: () => child.kill('SIGKILL') };
}

it('signs in, saves picks, prints the live draft and exits 0 when round one is complete', async () => {
  // A margin of 60 s makes the example refresh its 60-second token through the session before every call.
  const run = runExample([baseUrl, 'reader@example.com'], { TOKEN_MARGIN_SECONDS: '60' });
  try {
    await run.waitFor(/^watching the draft from event \d+$/m);
    const operator = await t.caller(await t.signUp('Operator', ADMIN_EMAIL));
    const board = await operator.players.list();
    await operator.draft.start();
    await operator.draft.recordPick({ slot: 1, player_id: board[0]!.id });
    await operator.draft.recordPick({ slot: 2, player_id: board[10]!.id });
    await operator.draft.completeRound();

    const { code, out } = await run.exited;
    expect(out).toMatch(/^token refreshed \(\d+ s left\)$/m);
    // What it told its reader, refreshes aside (a reconnect of the stream would refresh between changes).
    const said = out
      .split('\n')
      .filter((line) => line && !line.startsWith('token refreshed'))
      .map((line) => line.replace(/\(user_[\w-]+\)$/, '(user_…)'));
    expect(said).toEqual([
      'signed in as reader@example.com (user_…)',
      `hello reader: ${board.length} players on the board, round one has 2 picks`,
      `saved 3 picks: ${board.slice(0, 3).map((p) => p.player_name).join(', ')}`,
      expect.stringMatching(/^watching the draft from event \d+$/),
      'start',
      `pick 1: ${board[0]!.player_name} (one of your picks)`,
      `pick 2: ${board[10]!.player_name}`,
      'complete round',
      'round one complete: rank 1 of 1, 0 points (busted)',
    ]);
    expect(code).toBe(0);
  } finally {
    run.kill();
  }
});
