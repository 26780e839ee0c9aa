import { Migration } from '@mikro-orm/migrations';

/**
 * The results feed (docs/decisions.md, "Results feed"): its confirmation queue and its status.
 *
 * A queue item is one report the poller did not record by itself. The same report seen again (every poll
 * repeats the whole feed) is the same row: unique per slot, kind, name and school, inserted with
 * `on conflict do nothing`, so a dismissed report stays dismissed. `resolved`: the slot was settled
 * otherwise (recorded by hand or by a later, sure report) while the item was open.
 *
 * feed_status is one row (id 1) written by whichever instance holds the poller's advisory lock, so every
 * instance answers the same status.
 *
 * The queue belongs to one run of the draft: a reset (logged as a `reset` draft event by whatever process
 * makes it, server or command line) empties it in the same transaction, so nothing queued before can be
 * confirmed into the next run's empty slots, and the same reports are queued afresh when the feed shows
 * them again.
 */
export class Migration20261221000000_feed extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table feed_queue_item (
        id bigint generated always as identity primary key,
        slot integer not null check (slot >= 1),
        kind text not null check (kind in ('confirm', 'conflict')),
        feed_player_name text not null,
        feed_school text not null,
        feed_position text,
        feed_team text,
        suggested_player_id integer references player (id) on delete set null,
        recorded_player_id integer references player (id) on delete set null,
        score real,
        status text not null default 'open' check (status in ('open', 'confirmed', 'dismissed', 'resolved')),
        created_at timestamptz not null default now(),
        resolved_at timestamptz,
        resolved_by text,
        constraint feed_queue_item_report_unique unique (slot, kind, feed_player_name, feed_school)
      );
    `);
    this.addSql(`create index feed_queue_item_open on feed_queue_item (slot) where status = 'open';`);
    this.addSql(`
      create table feed_status (
        id integer primary key check (id = 1),
        last_poll_at timestamptz,
        last_success_at timestamptz,
        last_error text,
        picks_seen integer not null default 0
      );
    `);
    this.addSql(`insert into feed_status (id) values (1);`);
    this.addSql(`
      create function feed_queue_clear_on_reset() returns trigger language plpgsql as $$
      begin
        delete from feed_queue_item;
        update feed_status set picks_seen = 0, last_error = null where id = 1;
        return null;
      end $$;
    `);
    this.addSql(`
      create trigger feed_queue_clear_on_reset after insert on draft_event
        for each row when (new.kind = 'reset') execute function feed_queue_clear_on_reset();
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists feed_queue_clear_on_reset on draft_event;');
    this.addSql('drop function if exists feed_queue_clear_on_reset();');
    this.addSql('drop table if exists feed_queue_item;');
    this.addSql('drop table if exists feed_status;');
  }
}
