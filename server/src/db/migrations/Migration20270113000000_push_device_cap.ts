import { Migration } from '@mikro-orm/migrations';

/**
 * At most 10 push devices per player (MAX_PUSH_DEVICES), the ones subscribed most recently: `subscribed_at`
 * is when the player last subscribed the device (a device subscribed again counts as new), and subscribing an
 * eleventh removes the one subscribed longest ago (push.repository.ts `saveSubscription`). Rows already here
 * start at their creation time, and a player with more than 10 keeps their 10 newest: the others go, with
 * their waiting pushes (the cascade). Nothing else is changed.
 */
export class Migration20270113000000_push_device_cap extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table push_subscription add column subscribed_at timestamptz not null default now();
      update push_subscription set subscribed_at = created_at;
      delete from push_subscription where id in (
        select id from (
          select id, row_number() over (partition by participant_id order by subscribed_at desc, id desc) as n from push_subscription
        ) ranked where n > 10
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table push_subscription drop column if exists subscribed_at;');
  }
}
