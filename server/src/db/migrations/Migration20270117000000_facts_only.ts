import { Migration } from '@mikro-orm/migrations';

/**
 * PostgreSQL keeps facts only (docs/decisions.md, "The rules once, counts in memory"): the per-set counts
 * `entry_stat`, the triggers that rewrote them on every pick and result (a recorded pick rewrote every set
 * holding the player inside the operator's transaction: ~250,000 rows at a million entries) and the
 * functions restating the rules in SQL go. Each instance counts the sets in memory (the entry book,
 * server/src/modules/standings/) with the rules' own code (shared/src/scoring.ts).
 *
 * `participant.num` stays: the book reads pick sets keyed by it. The (id, num) key, which only
 * `entry_stat`'s foreign key used, goes. `down` restores the table, its functions and triggers as
 * Migration20270112000000_entry_numbers left them, the counts recomputed from the picks.
 */
export class Migration20270117000000_facts_only extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      drop trigger if exists player_update_stats on player;
      drop trigger if exists pick_truncate_stats on pick;
      drop trigger if exists pick_delete_stats on pick;
      drop trigger if exists pick_insert_stats on pick;
      drop function if exists player_changed(), pick_truncated(), pick_deleted(), pick_inserted(), entry_stat_recompute(jsonb);
      drop table if exists entry_stat;
      alter table participant drop constraint if exists participant_id_num_key;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      alter table participant add constraint participant_id_num_key unique (id, num);
      create table entry_stat (
        participant_id text not null,
        participant_num integer not null,
        pick_group_id integer not null references groups (id) on delete cascade,
        picks integer not null,
        hits integer not null,
        later_round integer not null,
        max_hit_rank integer,
        primary key (pick_group_id, participant_id),
        constraint entry_stat_participant_fkey foreign key (participant_id, participant_num)
          references participant (id, num) on delete cascade on update cascade
      );
      create index entry_stat_participant_idx on entry_stat (participant_id);

      create function entry_stat_recompute(sets jsonb) returns void language sql as $fn$
        delete from entry_stat s
         using jsonb_to_recordset(sets) as a(participant_id text, group_id int)
         where s.participant_id = a.participant_id and s.pick_group_id = a.group_id
           and not exists (select 1 from pick k where k.participant_id = a.participant_id and k.group_id = a.group_id);
        insert into entry_stat (participant_id, participant_num, pick_group_id, picks, hits, later_round, max_hit_rank)
        select k.participant_id, pa.num, k.group_id, count(*)::int,
               (count(*) filter (where p.draft_round = 1))::int,
               (count(*) filter (where p.draft_round > 1))::int,
               max(p.rank) filter (where p.draft_round = 1)
          from pick k join player p on p.id = k.player_id join participant pa on pa.id = k.participant_id
         where (k.participant_id, k.group_id) in (select a.participant_id, a.group_id from jsonb_to_recordset(sets) as a(participant_id text, group_id int))
         group by k.participant_id, pa.num, k.group_id
        on conflict (pick_group_id, participant_id) do update
          set picks = excluded.picks, hits = excluded.hits, later_round = excluded.later_round, max_hit_rank = excluded.max_hit_rank;
      $fn$;

      create function pick_inserted() returns trigger language plpgsql as $fn$
      begin
        perform entry_stat_recompute((select coalesce(jsonb_agg(distinct jsonb_build_object('participant_id', participant_id, 'group_id', group_id)), '[]') from new_picks));
        return null;
      end $fn$;
      create function pick_deleted() returns trigger language plpgsql as $fn$
      begin
        perform entry_stat_recompute((select coalesce(jsonb_agg(distinct jsonb_build_object('participant_id', participant_id, 'group_id', group_id)), '[]') from old_picks));
        return null;
      end $fn$;
      create function pick_truncated() returns trigger language plpgsql as $fn$
      begin
        delete from entry_stat;
        return null;
      end $fn$;
      create trigger pick_insert_stats after insert on pick referencing new table as new_picks for each statement execute function pick_inserted();
      create trigger pick_delete_stats after delete on pick referencing old table as old_picks for each statement execute function pick_deleted();
      create trigger pick_truncate_stats after truncate on pick for each statement execute function pick_truncated();

      create function player_changed() returns trigger language plpgsql as $fn$
      begin
        update entry_stat s
           set hits = s.hits + 1, max_hit_rank = greatest(s.max_hit_rank, c.rank)
          from (select n.id, n.rank from new_players n join old_players o on o.id = n.id
                 where o.draft_round is null and n.draft_round = 1 and o.rank = n.rank) c
          join pick k on k.player_id = c.id
         where s.participant_id = k.participant_id and s.pick_group_id = k.group_id;
        perform entry_stat_recompute((
          select coalesce(jsonb_agg(distinct jsonb_build_object('participant_id', k.participant_id, 'group_id', k.group_id)), '[]')
            from new_players n join old_players o on o.id = n.id
            join pick k on k.player_id = n.id
           where (o.draft_round, o.rank) is distinct from (n.draft_round, n.rank)
             and not (o.draft_round is null and n.draft_round = 1 and o.rank = n.rank)));
        return null;
      end $fn$;
      create trigger player_update_stats after update on player referencing old table as old_players new table as new_players
        for each statement execute function player_changed();

      select entry_stat_recompute((select coalesce(jsonb_agg(distinct jsonb_build_object('participant_id', participant_id, 'group_id', group_id)), '[]') from pick));
    `);
  }
}
