/** Player search and position filter for the selection screen (docs/web-app.md, the selection screen). Pure: no I/O. */

export const POSITION_FILTERS = ['QB', 'WR', 'RB', 'TE', 'OT', 'OL', 'IOL', 'DL', 'EDGE', 'LB', 'CB', 'S'] as const;
export type PositionFilter = (typeof POSITION_FILTERS)[number];

/** The offensive-line filter covers every line position. */
const OFFENSIVE_LINE = ['OT', 'OL', 'IOL'];

interface FilterablePlayer {
  player_name: string;
  school: string;
  position: string;
}

/** OL matches OT, OL or IOL; any other value matches a '/'-separated part of the position containing it. */
export function matchesPosition(position: string, filter: string): boolean {
  if (!filter) return true;
  const parts = position.split('/').map((p) => p.trim().toUpperCase());
  const wanted = filter.trim().toUpperCase();
  if (wanted === 'OL') return parts.some((p) => OFFENSIVE_LINE.includes(p));
  return parts.some((p) => p.includes(wanted));
}

/** Case-insensitive match on the player's name or school; a blank query matches everyone. */
export function matchesSearch(player: Pick<FilterablePlayer, 'player_name' | 'school'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return player.player_name.toLowerCase().includes(q) || player.school.toLowerCase().includes(q);
}

export function filterPlayers<T extends FilterablePlayer>(players: readonly T[], query: string, position: string): T[] {
  return players.filter((p) => matchesSearch(p, query) && matchesPosition(p.position, position));
}

interface SortablePlayer {
  rank: number;
  draft_round: number | null;
  draft_pick: number | null;
}

/** Read-only order after the start: by draft round, then pick, drafted before undrafted, then board rank. */
export function compareByDraftOrder(a: SortablePlayer, b: SortablePlayer): number {
  const aDrafted = a.draft_round !== null;
  const bDrafted = b.draft_round !== null;
  if (aDrafted !== bDrafted) return aDrafted ? -1 : 1;
  if (aDrafted && bDrafted) {
    if (a.draft_round !== b.draft_round) return a.draft_round! - b.draft_round!;
    if (a.draft_pick !== b.draft_pick) return (a.draft_pick ?? Infinity) - (b.draft_pick ?? Infinity);
  }
  return a.rank - b.rank;
}
