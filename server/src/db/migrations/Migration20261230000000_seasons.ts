import { Migration } from '@mikro-orm/migrations';

/**
 * Seasons (docs/decisions.md, "Seasons"). The game's tables (player, pick, entry_stat,
 * draft_state, draft_event, feed_queue_item) keep holding the current season, unchanged, so every query,
 * cache and path of today stays as it is. A closed season is an archive, written once by
 * `npm run season -- new` and never changed after:
 * - `season`: one row per draft year; `closed_at` is null for the current one (at most one: a partial
 *   unique index), set when the next season opens.
 * - `season_group`: each group as it was at the close (name, visibility): groups can be renamed or
 *   deleted later and the history must still read. No foreign key to `groups` for that reason.
 * - `season_player`: the board with its draft results; `season_draft_event`: the audit log.
 * - `season_entry`: the final standings, per group (1 = global): rank, score, busted, the name shown then.
 * - `season_entry_pick`: each entry's picks and whether each was a hit.
 *
 * The existing data become one season: the year the draft started in, or the year of the recorded
 * deadline once it has passed, otherwise 2025 (the bundled board is the 2025 class; replay-2025 and
 * feed:fixture play that year's draft). On a fresh database that is 2025, so `season new 2026` works.
 */
export class Migration20261230000000_seasons extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table season (
        year integer primary key check (year between 2000 and 2999),
        deadline timestamptz,
        started_at timestamptz,
        round_one_picks integer check (round_one_picks > 0),
        opened_at timestamptz not null default now(),
        closed_at timestamptz
      );
      create unique index season_one_current on season ((true)) where closed_at is null;

      create table season_group (
        season integer not null references season (year) on delete cascade,
        group_id integer not null,
        name text not null,
        is_public boolean not null,
        picks_public boolean not null,
        primary key (season, group_id)
      );

      create table season_player (
        season integer not null references season (year) on delete cascade,
        player_id integer not null,
        rank integer not null check (rank > 0),
        player_name text not null,
        position text not null,
        school text not null,
        draft_round integer,
        draft_pick integer,
        band text,
        primary key (season, player_id),
        constraint season_player_rank_unique unique (season, rank),
        constraint season_player_slot_unique unique (season, draft_round, draft_pick)
      );

      create table season_draft_event (
        season integer not null references season (year) on delete cascade,
        event_id bigint not null,
        kind text not null,
        slot integer,
        player_id integer,
        actor text not null,
        detail text,
        created_at timestamptz not null,
        primary key (season, event_id),
        foreign key (season, player_id) references season_player (season, player_id)
      );

      create table season_entry (
        season integer not null,
        group_id integer not null,
        participant_id text not null references participant (id) on delete cascade on update cascade,
        participant_name text not null,
        rank integer not null check (rank > 0),
        picks integer not null,
        hits integer not null default 0,
        correct_picks integer not null,
        busted boolean not null,
        tiebreak_rank integer,
        primary key (season, group_id, participant_id),
        foreign key (season, group_id) references season_group (season, group_id) on delete cascade
      );
      create index season_entry_participant_idx on season_entry (participant_id);

      create table season_entry_pick (
        season integer not null,
        group_id integer not null,
        participant_id text not null,
        player_id integer not null,
        hit boolean not null,
        primary key (season, group_id, participant_id, player_id),
        foreign key (season, group_id, participant_id) references season_entry (season, group_id, participant_id) on delete cascade on update cascade,
        foreign key (season, player_id) references season_player (season, player_id)
      );

      insert into season (year, deadline, started_at)
      select case
               when s.started_at is not null then extract(year from s.started_at at time zone 'UTC')::int
               when s.deadline is not null and s.deadline <= now() then extract(year from s.deadline at time zone 'UTC')::int
               else 2025
             end,
             s.deadline, s.started_at
        from draft_state s where s.id = 1;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists season_entry_pick, season_entry, season_draft_event, season_player, season_group, season cascade;');
  }
}
