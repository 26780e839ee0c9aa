import type { StandingsMine, StandingsPage, StandingsUpdate } from './schemas.js';

/*
 * The live stream sends a watched standings page in two parts (shared/src/schemas.ts): the page, the same
 * bytes for all its watchers, and the reader's own part, only when it changed. A reader puts them
 * together here. No zod: the web app's live layer is in its first load.
 */

/**
 * The page as leaderboard.group answers it (its keys in that order), from the page and the reader's own
 * part last sent on this stream; undefined when that part is of another group (or none came), which the
 * server never does: the page is then not shown, and the reader's read after the wait brings it.
 */
export function assembleStandings(page: StandingsPage, mine: StandingsMine | undefined): StandingsUpdate | undefined {
  const { group_id, draft_started, entries, alive, clinched_by, rankings, matches, benchmarks } = page.leaderboard;
  if (!mine || mine.group_id !== group_id) return undefined;
  return {
    kind: 'standings',
    event_id: page.event_id,
    leaderboard: { group_id, draft_started, entries, alive, clinched_by, rankings, me: mine.me, matches, me_position: mine.me_position, benchmarks },
  };
}
