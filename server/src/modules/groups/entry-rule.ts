import { GLOBAL_GROUP_ID } from '@first-round/shared/constants';

/**
 * The SQL form of `entrySetGroup` (shared/src/entries.ts): the group whose pick set is a member's entry in
 * `groupId` — the global set (group 1) for the global group and for a linked membership
 * (`use_global_picks`), else the group's own. Queries that read entries' picks join them on it
 * (reminders, my groups, the season archive's picks); the standings and the field apply `entrySetGroup`
 * itself to the entry book. The arguments are SQL expressions; a missing membership (null flag) counts as own.
 */
export function entrySetGroupSql(groupId: string, useGlobalPicks: string): string {
  return `(case when ${groupId} = ${GLOBAL_GROUP_ID} or coalesce(${useGlobalPicks}, false) then ${GLOBAL_GROUP_ID} else ${groupId} end)`;
}
