import { Migration } from '@mikro-orm/migrations';

/**
 * The feed poller's backoff (docs/decisions.md, "Results feed"): how many polls in a row have failed and
 * when the next one is due, in the status row every instance answers from, so `GET /api/draft/feed`, /admin
 * and `npm run draft -- status` can say the feed is being backed off and until when.
 */
export class Migration20261222000000_feed_backoff extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table feed_status
        add column consecutive_failures integer not null default 0,
        add column next_poll_at timestamptz;
    `);
  }

  override async down(): Promise<void> {
    this.addSql('alter table feed_status drop column if exists consecutive_failures, drop column if exists next_poll_at;');
  }
}
