/**
 * Which picks a member plays in a group: the one rule every reader of an entry follows (standings, the
 * field share, the draft board, reminders, share cards, the season archive). The server's SQL writes the
 * same rule as `entrySetGroupSql` (server/src/modules/groups/entry-rule.ts), and the leaderboard's
 * differential test builds its expected entries with this function, so the two cannot drift apart.
 *
 * A membership is **linked** (it follows My Picks: the global pick set, group 1, is the entry, and every
 * edit of My Picks reaches it at once) or **own** (the member forked it: the group's own pick set, which
 * nothing else changes). Every membership starts linked; docs/decisions.md, "One entry, one truth".
 */
import { GLOBAL_GROUP_ID } from './constants.js';

export type EntryMode = 'linked' | 'own';

/** The mode a membership's `use_global_picks` flag stands for (REST clients keep the flag). */
export const entryModeOf = (useGlobalPicks: boolean): EntryMode => (useGlobalPicks ? 'linked' : 'own');

/** The group whose pick set is the member's entry in `groupId`: group 1 for the global group and for linked memberships. */
export function entrySetGroup(groupId: number, useGlobalPicks: boolean): number {
  return groupId === GLOBAL_GROUP_ID || useGlobalPicks ? GLOBAL_GROUP_ID : groupId;
}

/** 'Using My Picks' or 'Own picks': how every screen names a mode. */
export const entryModeLabel = (mode: EntryMode): string => (mode === 'linked' ? 'Using My Picks' : 'Own picks');

/** 'Using My Picks · 10' or 'Own picks · 8'; without picks 'Using My Picks · no picks yet'. */
export function entryModeText(mode: EntryMode, picks: number): string {
  return `${entryModeLabel(mode)} · ${picks > 0 ? picks : 'no picks yet'}`;
}
