import { Migration } from '@mikro-orm/migrations';

/**
 * Reminders before the lock: whether a player wants them (`participant.email_reminders`, on
 * until they unsubscribe or switch it off in Settings), and which reminders went out. One row per player,
 * reminder ('24h' or '1h') and deadline: the unique constraint is what makes a reminder go out once, even
 * with two instances or a restart mid-run (docs/decisions.md, "Reminders before the lock"). A moved
 * deadline is a new lock, so its reminders are new too.
 */
export class Migration20261220000000_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table participant add column email_reminders boolean not null default true;
      create table reminder_sent (
        participant_id text not null references participant (id) on delete cascade on update cascade,
        reminder text not null check (reminder in ('24h', '1h')),
        deadline timestamptz not null,
        sent_at timestamptz not null default now(),
        constraint reminder_sent_once unique (participant_id, reminder, deadline)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists reminder_sent; alter table participant drop column if exists email_reminders;');
  }
}
