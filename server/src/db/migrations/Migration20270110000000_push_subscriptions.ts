import { Migration } from '@mikro-orm/migrations';

/**
 * Push notifications when your picks go: one row per device a player opted in on. The
 * endpoint is the device's address at its push service and unique (a browser has one per origin), so a
 * device that signs in as someone else moves its row rather than getting two. `delay_seconds` is that
 * device's viewing delay ("No spoilers"): its notifications go that long after the pick.
 */
export class Migration20270110000000_push_subscriptions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table push_subscription (
        id bigint generated always as identity primary key,
        participant_id text not null references participant (id) on delete cascade on update cascade,
        endpoint text not null,
        p256dh text not null,
        auth text not null,
        delay_seconds integer not null default 0 check (delay_seconds between 0 and 600),
        created_at timestamptz not null default now(),
        constraint push_subscription_endpoint_unique unique (endpoint)
      );
      create index push_subscription_participant_idx on push_subscription (participant_id);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists push_subscription;');
  }
}
