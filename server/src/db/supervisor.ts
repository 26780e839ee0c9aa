/**
 * Keeps a process alive: when it dies, starts it again after 1, 2, 4, 8, then every 10 s until a start
 * succeeds; the schedule begins again after every success. Used for the embedded PostgreSQL, so a
 * postmaster that crashed or was killed is back within seconds without an operator.
 */
export const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 10_000];

export interface Supervised {
  /** Resolves once the current process has exited. */
  exited(): Promise<void>;
  /** Starts it again; rejects when that fails (the supervisor tries again later). */
  restart(): Promise<void>;
  log(line: string): void;
}

export interface Supervisor {
  /** No more restarts; waits for a restart under way to finish, so the caller can stop what it started. */
  stop(): Promise<void>;
}

export function supervise(target: Supervised, delays = RESTART_DELAYS_MS): Supervisor {
  let stopped = false;
  let restarting: Promise<void> | undefined;
  let wakeSleep: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wakeSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (!stopped) {
      await target.exited();
      if (stopped) return;
      target.log('Embedded PostgreSQL stopped unexpectedly; restarting it');
      for (let attempt = 0; !stopped; attempt++) {
        const delay = delays[Math.min(attempt, delays.length - 1)]!;
        await sleep(delay);
        if (stopped) return;
        try {
          restarting = target.restart();
          await restarting;
          target.log('Embedded PostgreSQL is running again');
          break;
        } catch (error) {
          const next = delays[Math.min(attempt + 1, delays.length - 1)]! / 1000;
          target.log(`Could not restart embedded PostgreSQL (${(error as Error).message}); trying again in ${next} s`);
        } finally {
          restarting = undefined;
        }
      }
    }
  };
  loop().catch((error: unknown) => target.log(`Embedded PostgreSQL supervisor failed: ${(error as Error).message}`));

  return {
    async stop() {
      stopped = true;
      wakeSleep?.();
      await restarting?.catch(() => {});
    },
  };
}
