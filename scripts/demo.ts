// `npm run demo`: a draft night to watch on a fresh install. Fills the database with N players (default 500)
// holding plausible picks across groups, then replays the real 2025 round one at a chosen pace.
//   npm run demo -- [--players 500] [--interval 10] [--keep-draft]
// If the game is not running yet, the demo starts it (http://localhost:PORT) and stops it when you press
// Ctrl-C; if `npm start` is already running, the demo only adds its data and drives the draft.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../server/src/config.js';
import { sql } from '../server/src/db/sql.js';
import { draftSettings, resetDraft } from '../server/src/modules/draft/draft.service.js';
import { replayRoundOne2025 } from '../server/src/modules/draft/replay.js';
import { CommandFailure } from './lib/command.js';
import { fail, openScriptDatabase } from './lib/database.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  if (!Number.isFinite(value) || value < 0) fail(`--${name} takes a number`);
  return value;
};
const PLAYERS = Math.floor(option('players', 500));
const INTERVAL_S = option('interval', 10);

const FIRST = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Chris', 'Pat', 'Morgan', 'Casey', 'Jamie', 'Drew', 'Riley', 'Quinn', 'Avery', 'Blake', 'Cameron', 'Dana', 'Elliot', 'Frankie', 'Harper', 'Jesse'];
/** The account a viewer signs in with to watch the demo from inside a group (ids like the demo's: replaced on a re-run). */
const DEMO_FAN = { id: 'user_demofan', email: 'demo@first-round.local', name: 'DemoFan' };
const TEAMS = ['Office Pool', 'Fantasy Crew', 'Family Draft', 'Tailgate League', 'Sunday Squad', 'Mock Draft Nerds', 'Big Board Club', 'War Room', 'Green Room', 'Draft Party'];

async function serverIsUp(port: number) {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).ok;
  } catch {
    return false;
  }
}

let server: ChildProcess | undefined;

/** The game this demo started (if any) goes down with it, whatever ends the demo. */
async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}

async function main() {
  if (fs.existsSync(path.resolve('.env'))) process.loadEnvFile(path.resolve('.env'));
  const config = loadConfig();
  if (!(await serverIsUp(config.PORT))) {
    console.log(`Starting the game at http://localhost:${config.PORT} …`);
    server = spawn(process.execPath, ['scripts/start.mjs'], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' } });
    const until = Date.now() + 120_000;
    while (!(await serverIsUp(config.PORT))) {
      if (server.exitCode !== null || Date.now() > until) throw new Error('the game did not start; see the messages above');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  process.on('SIGINT', () => void stopServer().then(() => process.exit(0)));
  process.on('SIGTERM', () => void stopServer().then(() => process.exit(0)));

  const db = await openScriptDatabase({ seedBoard: true });
  const em = db.orm.em.fork();
  const settings = draftSettings(db.config);

  console.log(`Creating ${PLAYERS} demo players with picks …`);
  await em.transactional(async (tx) => {
    // A re-run replaces the previous demo: its players, their groups and picks go first.
    await sql(tx, `delete from groups where id in (select group_id from group_membership where participant_id like 'user_demo%')`);
    await sql(tx, `delete from participant where id like 'user_demo%'`);
    await sql(tx, `select setseed(0.42)`);
    await sql(
      tx,
      `insert into participant (id, screen_name, is_first_login)
       select 'user_demo' || n, ($2::text[])[1 + (n - 1) % array_length($2::text[], 1)] || ' ' || n, false from generate_series(1, $1) n`,
      [PLAYERS, FIRST],
    );
    // Plausible entries: 6–24 players each, mostly from the top of the board, some bolder.
    await sql(
      tx,
      `insert into pick (participant_id, group_id, player_id)
       select p.id, 1, c.id from participant p
       cross join lateral (select pl.id from player pl where pl.rank <= 70
                            order by pl.rank * (0.4 + random() * (0.5 + length(p.id) % 3)) limit 6 + floor(random() * 19)::int) c
       where p.id like 'user_demo%'`,
    );
    const groupCount = Math.max(1, Math.floor(PLAYERS / 12));
    await sql(
      tx,
      // Random 8-digit ids, as the game gives every group (a collision just makes one group fewer).
      `insert into groups (id, name, is_public, picks_public, created_by)
       select 10000000 + floor(random() * 90000000)::int, ($2::text[])[1 + (n - 1) % array_length($2::text[], 1)] || ' #' || n,
              n % 3 = 0, n % 2 = 0, 'user_demo' || n
         from generate_series(1, $1) n
       on conflict (id) do nothing`,
      [groupCount, TEAMS],
    );
    await sql(
      tx,
      `insert into group_membership (group_id, participant_id, is_owner, use_global_picks)
       select g.id, p.id, p.id = g.created_by, random() < 0.6
         from groups g join participant p on p.id like 'user_demo%'
        where g.created_by like 'user_demo%' and (p.id = g.created_by or random() < 10.0 / $1)
       on conflict do nothing`,
      [PLAYERS],
    );
    // The viewer's own seat: an account to sign in with (the built-in provider's), an entry, and a group
    // with public picks whose members play their My Picks, so its draft board names who had whom.
    await sql(tx, `insert into idp_user (id, email, username) values ($1, $2, $3) on conflict do nothing`, [DEMO_FAN.id, DEMO_FAN.email, DEMO_FAN.name]);
    await sql(tx, `insert into participant (id, email, screen_name, is_first_login) values ($1, $2, $3, false)`, [DEMO_FAN.id, DEMO_FAN.email, DEMO_FAN.name]);
    await sql(
      tx,
      `insert into pick (participant_id, group_id, player_id)
       select $1, 1, id from player where rank <= 40 order by rank * (0.5 + random()) limit 10`,
      [DEMO_FAN.id],
    );
    const [party] = await sql<{ id: number }>(
      tx,
      `insert into groups (id, name, is_public, picks_public, created_by)
       values (10000000 + floor(random() * 90000000)::int, 'Demo Watch Party', false, true, $1) returning id`,
      [DEMO_FAN.id],
    );
    await sql(
      tx,
      `insert into group_membership (group_id, participant_id, is_owner, use_global_picks)
       select $1, p.id, p.id = $2, true from participant p where p.id = $2 or p.id = any($3::text[])`,
      [party!.id, DEMO_FAN.id, Array.from({ length: Math.min(9, PLAYERS) }, (_, i) => `user_demo${i + 1}`)],
    );
    await sql(
      tx,
      `insert into pick (participant_id, group_id, player_id)
       select m.participant_id, m.group_id, c.id from group_membership m
       cross join lateral (select pl.id from player pl where pl.rank <= 60 order by pl.rank * (0.3 + random()) limit 5 + floor(random() * 14)::int) c
       where m.participant_id like 'user_demo%' and not m.use_global_picks`,
    );
  });
  const [counts] = await sql<{ groups: number; picks: number }>(
    em,
    `select (select count(*)::int from groups where created_by like 'user_demo%') as groups, (select count(*)::int from pick where participant_id like 'user_demo%') as picks`,
  );
  console.log(`  ${PLAYERS} players, ${counts?.groups} groups, ${counts?.picks} picks`);

  if (!args.includes('--keep-draft')) await resetDraft(em, 'demo');
  console.log(`Open http://localhost:${config.PORT} and sign in as ${DEMO_FAN.email} (the code is in the server log and at`);
  console.log(`http://localhost:${config.PORT}/idp/dev/outbox?email=${DEMO_FAN.email}): 'Demo Watch Party' has a draft board, standings and`);
  console.log(`share cards to watch; or sign up and watch the leaderboards. Replaying 2025 round one, one pick every ${INTERVAL_S} s …`);
  await replayRoundOne2025(em, settings, 'demo', {
    intervalMs: INTERVAL_S * 1000,
    onChange: (c) => console.log(c.kind === 'pick' ? `  Pick ${c.slot}: ${c.player?.player_name}, ${c.player?.position}, ${c.player?.school}` : `  ${c.kind}`),
  });
  await db.close();
  console.log(server ? 'Round one is complete. The game keeps running: press Ctrl-C to stop it.' : 'Round one is complete.');
  if (!server) process.exit(0);
}

main().catch(async (error: unknown) => {
  // A refusal (a bad DATABASE_URL, say) is printed alone, as by the other commands.
  console.error(error instanceof CommandFailure ? error.message : `demo: ${(error as Error)?.message ?? error}`);
  await stopServer();
  process.exit(1);
});
