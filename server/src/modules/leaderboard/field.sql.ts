import { entrySetGroupSql } from '../groups/entry-rule.js';

/**
 * The field: for one scope, how many entries hold each player. One aggregate inside PostgreSQL.
 *
 * Parameters:
 *   $1  group id (int). 1 = the global group: every participant's global pick set. Any other group g:
 *       g's members, each with their global set when use_global_picks is set, else their set in g
 *       (the same entries as the leaderboard SQL, leaderboard.sql.ts).
 *
 * An entry is a pick set with at least one pick: a set has an `entry_stat` row exactly while it has picks
 * (kept by triggers), so entries are counted there, as the standings count them. Globally every pick of
 * group 1 belongs to an entry, so the counts come straight from `pick` (one scan grouped by player,
 * no join); in a group they come from the members' sets (index lookups on pick (group_id, participant_id)).
 *
 * Returns rows { player_id, player_name, picked_by, entries }: only players held by at least one entry,
 * most picked first, then by big-board rank.
 */
export const fieldSql = /* sql */ `
with entries as (
  select s.participant_id, s.pick_group_id
    from entry_stat s
   where $1::int = 1 and s.pick_group_id = 1
  union all
  select s.participant_id, s.pick_group_id
    from group_membership m
    join entry_stat s on s.participant_id = m.participant_id
                     and s.pick_group_id = ${entrySetGroupSql('m.group_id', 'm.use_global_picks')}
   where $1::int <> 1 and m.group_id = $1::int
),
picked as (
  select k.player_id, count(*)::int as picked_by
    from pick k
   where $1::int = 1 and k.group_id = 1
   group by k.player_id
  union all
  select k.player_id, count(*)::int as picked_by
    from entries e
    join pick k on k.participant_id = e.participant_id and k.group_id = e.pick_group_id
   where $1::int <> 1
   group by k.player_id
)
select p.id as player_id, p.player_name, c.picked_by, (select count(*)::int from entries) as entries
  from picked c
  join player p on p.id = c.player_id
 order by c.picked_by desc, p.rank, p.id
`;
