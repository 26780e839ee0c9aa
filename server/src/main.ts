// First: the V8 setting the server runs under (heap-tuning.ts says why).
import './heap-tuning.js';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseUnavailableError, openAppDatabase, type AppDatabase } from './db/database.js';
import { buildApp } from './app.js';
import { createDeps, type AppDeps } from './deps.js';
import { seedDefaultBoard } from './modules/seasons/board.service.js';
import { syncDeadline } from './modules/draft/draft.service.js';
import { startDeadlineWatcher } from './modules/draft/deadline.js';
import { startReminderTimer } from './modules/reminders/reminders.service.js';
import { drain } from './draining.js';

/** A failure the operator can fix: printed as one line, no stack trace. */
class StartupError extends Error {}

/** Ctrl-C in a terminal (the whole process group), a supervisor's stop, a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const say = (line: string) => {
    if (config.LOG_LEVEL !== 'silent') process.stdout.write(`${line}\n`);
  };
  let db: AppDatabase | undefined;
  let deps: AppDeps | undefined;
  const cleanup = async () => {
    await deps?.feed.stop().catch(() => {});
    await deps?.push.stop().catch(() => {});
    await deps?.events.stop().catch(() => {});
    // A connection a cut-off request still holds gets as long as the drain did, 5 s at most.
    await db?.close(Math.min(5000, config.DRAIN_SECONDS * 1000));
  };
  // Until the server runs, a stop signal just ends the process: nothing is in flight yet, and an embedded
  // PostgreSQL already started gets its fast shutdown on the way out (embedded-postgres.ts).
  let stop: (signal: NodeJS.Signals) => void = (signal) => {
    console.error(`${signal} received while starting: stopping`);
    process.exit(1);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, (s: NodeJS.Signals) => stop(s));

  try {
    // The server restarts its embedded PostgreSQL by itself should it die (db/supervisor.ts).
    db = await openAppDatabase(config, { log: say, supervise: true });
    deps = await createDeps(config, db.orm);
    const em = db.orm.em.fork();
    await syncDeadline(em, deps.draft);
    const seeded = await seedDefaultBoard(em);
    if (seeded) say(`Loaded the default 2025 big board (${seeded.inserted} players)`);
    await deps.events.start();
    const app = await buildApp(deps);
    const stopWatcher = startDeadlineWatcher(deps);
    const stopRefresh = deps.leaderboards.startBackgroundRefresh();
    const stopReminders = startReminderTimer(deps);
    // Only while the draft is live, and on one instance only (an advisory lock): modules/feed/feed.poller.ts.
    deps.feed.start();
    // One instance sends (an advisory lock), the others stand by: modules/push/push.sender.ts.
    if (config.PUSH) deps.push.start();
    if (config.FEED_URL) say(`Results feed: ${config.FEED_KIND} at ${new URL(config.FEED_URL).host}, every ${config.FEED_INTERVAL_SECONDS} s while the draft is live`);

    let closing = false;
    const shutdown = async (signal: NodeJS.Signals) => {
      // Once is enough: npm forwards the terminal's Ctrl-C as a second SIGINT, and the drain is bounded.
      if (closing) return;
      closing = true;
      say(`${signal} received: finishing requests and shutting down`);
      stopWatcher();
      stopRefresh();
      stopReminders();
      // /readyz turns 503 at once; the listener keeps accepting for READY_DRAIN_SECONDS (1 by default), closes
      // once the kernel's accept queue is empty, and requests in flight then have DRAIN_SECONDS (10 by default)
      // to finish before they are cut off (draining.ts).
      const drained = await drain(app, { pauseMs: config.READY_DRAIN_SECONDS * 1000, drainMs: config.DRAIN_SECONDS * 1000 });
      if (!drained) console.error(`Requests still running after ${config.DRAIN_SECONDS} s were cut off`);
      await cleanup();
      say('First Round stopped');
      process.exit(drained ? 0 : 1);
    };
    stop = (signal) => {
      shutdown(signal).catch((error: unknown) => {
        console.error(`Shutdown failed: ${(error as Error)?.message ?? error}`);
        process.exit(1);
      });
    };

    try {
      await app.listen({ port: config.PORT, host: config.HOST });
    } catch (error) {
      const e = error as { code?: string };
      if (e.code === 'EADDRINUSE') throw new StartupError(`Port ${config.PORT} is already in use: stop the other program or set PORT to another port`);
      if (e.code === 'EACCES') throw new StartupError(`Not allowed to listen on port ${config.PORT}: set PORT to a port above 1024`);
      throw error;
    }
    say(`First Round is running at http://localhost:${config.PORT} (auth: ${config.authProvider}, database: ${db.embedded ? 'embedded' : 'DATABASE_URL'})`);
  } catch (error) {
    await cleanup();
    if (error instanceof ConfigError || error instanceof StartupError || error instanceof DatabaseUnavailableError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(`First Round failed to start: ${(error as Error)?.message ?? error}`);
  process.exit(1);
});
