/**
 * Leaderboard query for one group, computed entirely in PostgreSQL.
 *
 * Parameters:
 *   $1  group id (int). Group 1 is the global group: its entries are all
 *       participants with picks in group 1 (there are no membership rows for
 *       group 1). For any other group g, the entries are g's members, each with
 *       the picks from group 1 when use_global_picks is set, else from group g.
 *   $2  number of round-one slots (int, normally 32).
 *
 * Returns rows { rank, participant_id, participant_name, correct_picks, busted,
 * tiebreak_rank } in exactly the order of `rankEntries` in
 * shared/src/scoring.ts, which is the reference implementation of the rules
 * (hit / miss / pending, busted and busted early, tie-break, competition
 * ranks). server/test/leaderboard-sql.test.ts checks the two agree.
 *
 * Shape, for efficiency on large groups: one pass over the entries' picks
 * joined to player, aggregated per participant with conditional counts; the
 * draft snapshot (filled slots, marked-complete flag) is computed once; one
 * window function for the ranks.
 *
 * Notes:
 * - A busted entry scores 0 and its tie-break is null: its hits no longer
 *   count (same decision as scoreEntry).
 * - Entries without picks produce no pick rows and are therefore not ranked.
 * - Rows sharing a rank are ordered by participant_id COLLATE "C" (byte order),
 *   matching compareCodePoints in scoring.ts.
 */
export const groupLeaderboardSql = /* sql */ `
with filled as (
  select count(*)::int as filled_slots
  from player
  where draft_round = 1
),
snapshot as (
  select
    f.filled_slots,
    (coalesce(ds.round_one_complete, false) or f.filled_slots >= $2::int) as round_one_complete
  from filled f
  left join draft_state ds on ds.id = 1
),
draft as (
  select
    s.round_one_complete,
    case when s.round_one_complete then 0
         else greatest(0, $2::int - s.filled_slots)
    end as remaining_slots
  from snapshot s
),
entry_pick as (
  -- global group: every participant's own group-1 picks
  select pk.participant_id, pk.player_id
  from pick pk
  where $1::int = 1
    and pk.group_id = 1
  union all
  -- other groups: members, with global or group picks per use_global_picks
  select gm.participant_id, pk.player_id
  from group_membership gm
  join pick pk
    on pk.participant_id = gm.participant_id
   and pk.group_id = case when gm.use_global_picks then 1 else gm.group_id end
  where $1::int <> 1
    and gm.group_id = $1::int
),
tally as (
  select
    ep.participant_id,
    count(*)::int as total,
    count(*) filter (where pl.draft_round = 1)::int as hits,
    count(*) filter (
      where pl.draft_round > 1
         or (pl.draft_round is null and d.round_one_complete)
    )::int as misses,
    max(pl.rank) filter (where pl.draft_round = 1) as max_hit_rank
  from entry_pick ep
  join player pl on pl.id = ep.player_id
  cross join draft d
  group by ep.participant_id
),
scored as (
  select
    t.participant_id,
    t.hits,
    t.max_hit_rank,
    (t.misses > 0 or (t.total - t.hits - t.misses) > d.remaining_slots) as busted
  from tally t
  cross join draft d
),
score as (
  select
    participant_id,
    busted,
    (case when busted then 0 else hits end)::int as correct_picks,
    (case when busted then null else max_hit_rank end)::int as tiebreak_rank
  from scored
)
select
  (rank() over (order by sc.correct_picks desc, sc.tiebreak_rank desc nulls last))::int as rank,
  sc.participant_id,
  coalesce(p.screen_name, p.id) as participant_name,
  sc.correct_picks,
  sc.busted,
  sc.tiebreak_rank
from score sc
join participant p on p.id = sc.participant_id
order by 1, sc.participant_id collate "C"
`;
