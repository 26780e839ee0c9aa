import { Migration } from '@mikro-orm/migrations';

/**
 * Pushes waiting to go out, kept in the database so they outlive the instance sending them:
 * a device with a 600 s viewing delay must still hear of the pick when the sender restarts or another
 * instance takes over meanwhile. The sending instance writes a pick's pushes here once it has heard the pick
 * (after its commit: the pick never waits on it) and deletes each once its push service took it; a new
 * sender starts from what is left. A removed device takes its waiting pushes with it (the cascade).
 *
 * `push_fanout` records the draft changes whose pushes were written (claimed in the same transaction), so a
 * change is fanned out once whoever hears it, and a new sender can find the recent ones nobody did.
 */
export class Migration20270111000000_push_deliveries extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table push_fanout (
        event_id bigint primary key,
        created_at timestamptz not null default now()
      );
      create table push_delivery (
        id bigint generated always as identity primary key,
        endpoint text not null references push_subscription (endpoint) on delete cascade on update cascade,
        -- The draft change it tells of (null: a reminder), so an undone pick's waiting pushes can be dropped.
        event_id bigint,
        payload jsonb not null,
        due_at timestamptz not null,
        attempt integer not null default 0
      );
      create index push_delivery_event_idx on push_delivery (event_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists push_delivery; drop table if exists push_fanout;');
  }
}
