import { Migration } from '@mikro-orm/migrations';

/**
 * What a player's devices are told besides their picks taken: an entry busted, the final result, the
 * reminder an hour before the lock, each switched on or off by the player (Settings) for all their devices.
 * No row is every kind on, as every player had before this table; a player's row goes with them.
 */
export class Migration20270118000000_push_preferences extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table push_preference (
        participant_id text primary key references participant (id) on delete cascade on update cascade,
        busted boolean not null default true,
        final boolean not null default true,
        reminder boolean not null default true,
        updated_at timestamptz not null default now()
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists push_preference;');
  }
}
