import { entrySetGroupSql } from '../groups/entry-rule.js';

/**
 * Leaderboard query for one group, computed entirely in PostgreSQL.
 *
 * Parameters:
 *   $1  group id (int). Group 1 is the global group: its entries are every
 *       participant's global pick set (there are no membership rows for group
 *       1). For any other group g, the entries are g's members, each with the
 *       global set when use_global_picks is set, else their set in g.
 *   $2  number of round-one slots (int, normally 32).
 *
 * Returns rows { rank, participant_id, participant_name, correct_picks, busted,
 * tiebreak_rank, picks, max_possible, can_win } in exactly the order of `rankEntries` in
 * shared/src/scoring.ts, the reference implementation of the rules (hit / miss
 * / pending, busted and busted early, tie-break, competition ranks).
 * server/test/leaderboard-sql.test.ts checks the two agree.
 *
 * It reads `entry_stat` (one row per pick set: picks, hits, later-round picks,
 * largest rank among hits), which triggers keep exact, so ranking a group costs
 * one pass over its entries, never a join of every pick with the board.
 *
 * Notes:
 * - A pick is pending while its player is undrafted and round one is open;
 *   once round one is complete an undrafted pick is a miss.
 * - A busted entry scores 0 and its tie-break is null: its hits no longer
 *   count (same decision as scoreEntry).
 * - Who can still win (max_possible, can_win): measured against `bar`, the best
 *   settled entry (alive, nothing pending), as shared/src/contention.ts does.
 * - Rows sharing a rank are ordered by participant_id COLLATE "C" (byte order),
 *   matching compareCodePoints in scoring.ts.
 */
export const groupLeaderboardSql = /* sql */ `
with draft as (
  select (coalesce(ds.round_one_complete, false) or f.filled >= $2::int) as complete, f.filled
    from (select count(*)::int as filled from player where draft_round = 1) f
    left join draft_state ds on ds.id = 1
),
params as (
  select complete, case when complete then 0 else greatest(0, $2::int - filled) end as remaining from draft
),
entries as (
  select s.participant_id, s.picks, s.hits, s.later_round, s.max_hit_rank
    from entry_stat s
   where $1::int = 1 and s.pick_group_id = 1
  union all
  select s.participant_id, s.picks, s.hits, s.later_round, s.max_hit_rank
    from group_membership m
    join entry_stat s on s.participant_id = m.participant_id
                     and s.pick_group_id = ${entrySetGroupSql('m.group_id', 'm.use_global_picks')}
   where $1::int <> 1 and m.group_id = $1::int
),
scored as (
  select e.participant_id, e.picks, e.hits, e.max_hit_rank,
         (e.later_round > 0
          or (p.complete and e.picks - e.hits > 0)
          or (e.picks - e.hits - e.later_round) > p.remaining) as busted
    from entries e cross join params p
),
score as (
  select participant_id, busted, picks,
         (case when busted then 0 else hits end)::int as correct_picks,
         (case when busted then null else max_hit_rank end)::int as tiebreak_rank
    from scored
),
bar as (
  select correct_picks as score, coalesce(tiebreak_rank, 0) as tiebreak_rank
    from score
   where not busted and correct_picks = picks
   order by correct_picks desc, tiebreak_rank desc nulls last
   limit 1
)
select
  (rank() over (order by sc.correct_picks desc, sc.tiebreak_rank desc nulls last))::int as rank,
  sc.participant_id,
  coalesce(p.screen_name, p.id) as participant_name,
  sc.correct_picks,
  sc.busted,
  sc.tiebreak_rank,
  sc.picks,
  (case when sc.busted then 0 else sc.picks end)::int as max_possible,
  (not sc.busted and (b.score is null
                      or sc.picks > b.score
                      or (sc.picks = b.score
                          and (sc.picks > sc.correct_picks or coalesce(sc.tiebreak_rank, 0) >= b.tiebreak_rank)))) as can_win
from score sc
join participant p on p.id = sc.participant_id
left join bar b on true
order by 1, sc.participant_id collate "C"
`;
