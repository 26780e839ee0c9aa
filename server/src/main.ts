import { ConfigError, loadConfig } from './config.js';
import { DatabaseUnavailableError, openAppDatabase, type AppDatabase } from './db/database.js';
import { buildApp } from './app.js';
import { createDeps, type AppDeps } from './deps.js';
import { seedDefaultBoard } from './modules/players/board.service.js';
import { syncDeadline } from './modules/draft/draft.service.js';
import { startDeadlineWatcher } from './modules/draft/deadline.js';

/** A failure the operator can fix: printed as one line, no stack trace. */
class StartupError extends Error {}

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
    await deps?.events.stop().catch(() => {});
    await db?.close();
  };

  try {
    db = await openAppDatabase(config, { log: say });
    deps = await createDeps(config, db.orm);
    const em = db.orm.em.fork();
    await syncDeadline(em, deps.draft);
    const seeded = await seedDefaultBoard(em);
    if (seeded) say(`Loaded the default 2025 big board (${seeded.inserted} players)`);
    await deps.events.start();
    const app = await buildApp(deps);
    const stopWatcher = startDeadlineWatcher(deps);
    const stopRefresh = deps.leaderboards.startBackgroundRefresh();

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      say(`${signal} received: finishing requests and shutting down`);
      const force = setTimeout(() => {
        console.error('Shutdown took too long; exiting');
        void cleanup().finally(() => process.exit(1));
      }, 10_000);
      force.unref();
      stopWatcher();
      stopRefresh();
      await app.close().catch(() => {});
      await cleanup();
      clearTimeout(force);
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));

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
