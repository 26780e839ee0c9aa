import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';
import type { LeaderboardRow, OrderSlot, PlayerDto } from '@first-round/shared/schemas';
import { formatWhen } from '@first-round/shared/deadline';
import { onTheClockLabel, pickLabel, teamAt } from '@first-round/shared/teams';
import { ordinal } from '@first-round/shared/words';

export { ordinal } from '@first-round/shared/words';

/*
 * The words of the draft-night strip (components/draft-strip.tsx), as pure functions of what the cache
 * already holds: draft.status with round one's order and the big board (both patched from each live
 * change with no request),
 * the caller's picks (picks.mine) and, once round one is final, the global standings' first page.
 */

/** Rows per page of the global standings (the Leaderboard's first page is also the Final card's). */
export const GLOBAL_PAGE_SIZE = 100;
export const GLOBAL_FIRST_PAGE = { group_id: GLOBAL_GROUP_ID, limit: GLOBAL_PAGE_SIZE };

/**
 * Where the strip shows and whose entry it speaks of: the Groups, My Picks and Leaderboard tabs (player
 * selection included, as components/top-nav.tsx's activeTab counts it; not Settings, How to play or the
 * operator console), and the group a page is about (/groups/12…, /select-players?groupId=12).
 */
export function stripRoute(pathname: string, search: string): { shown: boolean; onLeaderboard: boolean; onGroupStandings: boolean; groupId: number | null } {
  const groups = pathname === '/groups' || pathname.startsWith('/groups/');
  const shown = groups || pathname === '/my-picks' || pathname === '/leaderboard' || pathname === '/select-players';
  const raw = pathname.startsWith('/groups/') ? pathname.split('/')[2] : new URLSearchParams(search).get('groupId');
  const groupId = raw && /^\d+$/.test(raw) && Number(raw) > 0 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
  return { shown, onLeaderboard: pathname === '/leaderboard', onGroupStandings: groupId !== null && /^\/groups\/\d+\/picks$/.test(pathname), groupId };
}

export { draftPhase, type DraftPhase } from './draft-phase';

/** One recorded round-one pick, the team that made it (null: not known), and whether the caller's entry has that player. */
export interface StripPick {
  slot: number;
  team: string | null;
  player: PlayerDto;
  mine: boolean;
}

export { teamAt } from '@first-round/shared/teams';

/**
 * The newest `count` round-one picks, newest first: every drafted player carries draft_round 1 and its
 * slot as draft_pick, so the board alone says what was picked (the highest slot is the latest pick); the
 * order says which team made it.
 */
export function recentPicks(players: readonly PlayerDto[], mine: ReadonlySet<number> | null, count: number, order: readonly OrderSlot[]): StripPick[] {
  return players
    .filter((p): p is PlayerDto & { draft_pick: number } => p.draft_round === 1 && p.draft_pick !== null)
    .sort((a, b) => b.draft_pick - a.draft_pick)
    .slice(0, count)
    .map((player) => ({ slot: player.draft_pick, team: teamAt(order, player.draft_pick), player, mine: mine?.has(player.id) ?? false }));
}

/** 'Tyler Warren, TE, Penn State': the player as the toasts named him. */
export function playerLine(p: Pick<PlayerDto, 'player_name' | 'position' | 'school'>): string {
  return `${p.player_name}, ${p.position}, ${p.school}`;
}

/** The strip before the first pick: the start itself is the news, and the team on the clock. */
export function waitingForFirstPick(order: readonly OrderSlot[]): string {
  return `The draft has started · ${onTheClockLabel(1, teamAt(order, 1))}`;
}

/**
 * The whole strip as one sentence (its accessible text and the unit tests' view of it):
 * 'LIVE · Pick 14 · IND · Tyler Warren, TE, Penn State · your entry ✓' (the slot, the team that made the
 * pick, the player). The mark is there only when the caller picked that player: a drafted player one did
 * not pick costs nothing (only a pick that is not drafted in round one is a miss), so a ✗ would say
 * something false.
 */
export function stripText(latest: StripPick | undefined, order: readonly OrderSlot[]): string {
  if (!latest) return `LIVE · ${waitingForFirstPick(order)}`;
  const parts = ['LIVE', pickLabel(latest.slot, latest.team, playerLine(latest.player))];
  if (latest.mine) parts.push('your entry ✓');
  return parts.join(' · ');
}

/**
 * An earlier pick in the ticker, as every screen writes a pick: 'Pick 2 · JAX · Travis Hunter, CB/WR' ('#'
 * is a big-board rank's mark, '#5 on the board', never a pick's).
 */
export function tickerText(pick: StripPick): string {
  return pickLabel(pick.slot, pick.team, `${pick.player.player_name}, ${pick.player.position}`);
}

const HOUR_MS = 3600 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Time left, as short as a chip needs: '159 d' (whole days, rounded up as the banner counts), '5 h', '12 min'; '' once passed. */
export function timeLeftShort(ms: number): string {
  if (ms <= 0) return '';
  if (ms >= DAY_MS) return `${Math.ceil(ms / DAY_MS)} d`;
  if (ms >= HOUR_MS) return `${Math.ceil(ms / HOUR_MS)} h`;
  return `${Math.max(1, Math.ceil(ms / 60_000))} min`;
}

/** The countdown chip: 'Picks lock Thu Apr 29, 8:00 PM EDT · 159 d' (no count once the deadline has passed), in the player's own zone. */
export function countdownText(deadlineIso: string, now: Date, timeZone?: string): string {
  const left = timeLeftShort(new Date(deadlineIso).getTime() - now.getTime());
  return `Picks lock ${formatWhen(deadlineIso, timeZone)}${left ? ` · ${left}` : ''}`;
}

/**
 * The caller's final place in the standings the card shows (a group's, named, or the global ones): 'You
 * finished 10th of 302' (a shared rank reads the same), '… in Sunday Squad', '… · busted'. Without an entry
 * there: 'You had no entry in Sunday Squad'; globally, when the caller played only in groups, 'No global
 * entry · you played in 2 groups'; 'You had no entry this year' only when there was none anywhere.
 */
export function finalPlace(me: LeaderboardRow | null | undefined, entries: number, where: { groupName?: string; groupEntries?: number } = {}): string {
  const inGroup = where.groupName ? ` in ${where.groupName}` : '';
  if (me) return `You finished ${ordinal(me.rank)} of ${entries}${inGroup}${me.busted ? ' · busted' : ''}`;
  if (where.groupName) return `You had no entry in ${where.groupName}`;
  if (where.groupEntries) return `No global entry · you played in ${where.groupEntries === 1 ? '1 group' : `${where.groupEntries} groups`}`;
  return 'You had no entry this year';
}

/**
 * The podium: the first three entries of the final standings that survived (a busted entry scores 0 and
 * has won nothing, even where fewer than three survived), in standings order.
 */
export function podium(rankings: readonly LeaderboardRow[]): LeaderboardRow[] {
  return rankings.filter((r) => !r.busted).slice(0, 3);
}

/** 'Winner: Ana' / 'Winners: Ana, Bo and 3 more' (a shared first place) / 'No entry survived round one'. */
export function winnerText(rankings: readonly LeaderboardRow[]): string {
  const names = rankings.filter((r) => r.rank === 1 && !r.busted).map((r) => r.participant_name);
  if (names.length === 0) return 'No entry survived round one';
  const shown = names.slice(0, 3).join(', ');
  const more = names.length > 3 ? ` and ${names.length - 3} more` : '';
  return `${names.length === 1 ? 'Winner' : 'Winners'}: ${shown}${more}`;
}
