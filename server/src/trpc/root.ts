import { authRouter } from '../modules/auth/auth.router.js';
import { draftProcedures } from '../modules/draft/draft.router.js';
import { feedProcedures } from '../modules/feed/feed.router.js';
import { groupsRouter } from '../modules/groups/groups.router.js';
import { joinLinksRouter } from '../modules/join-links/join-links.router.js';
import { leaderboardRouter } from '../modules/leaderboard/leaderboard.router.js';
import { picksRouter } from '../modules/groups/entries.router.js';
import { playersRouter } from '../modules/players/players.router.js';
import { usersRouter } from '../modules/users/users.router.js';
import { shareRouter } from '../modules/share/share.router.js';
import { seasonsRouter } from '../modules/seasons/seasons.router.js';
import { pushRouter } from '../modules/push/push.router.js';
import { createCallerFactory, router } from './trpc.js';

export const appRouter = router({
  auth: authRouter,
  users: usersRouter,
  groups: groupsRouter,
  joinLinks: joinLinksRouter,
  picks: picksRouter,
  players: playersRouter,
  draft: router({ ...draftProcedures, ...feedProcedures }),
  leaderboard: leaderboardRouter,
  share: shareRouter,
  seasons: seasonsRouter,
  push: pushRouter,
});

/** The client imports this type only; no server code reaches the browser bundle. */
export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
