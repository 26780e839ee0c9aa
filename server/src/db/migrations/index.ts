import type { MigrationObject } from '@mikro-orm/core';
import { Migration20250401000000_initial } from './Migration20250401000000_initial.js';
import { Migration20250401000100_identity } from './Migration20250401000100_identity.js';
import { Migration20250401000200_entry_stats } from './Migration20250401000200_entry_stats.js';
import { Migration20261122000000_group_join_failures } from './Migration20261122000000_group_join_failures.js';
import { Migration20261201000000_player_band } from './Migration20261201000000_player_band.js';
import { Migration20261210000000_share_links } from './Migration20261210000000_share_links.js';
import { Migration20261220000000_reminders } from './Migration20261220000000_reminders.js';
import { Migration20261221000000_feed } from './Migration20261221000000_feed.js';
import { Migration20261222000000_feed_backoff } from './Migration20261222000000_feed_backoff.js';
import { Migration20261230000000_seasons } from './Migration20261230000000_seasons.js';
import { Migration20270101000000_linked_entries } from './Migration20270101000000_linked_entries.js';
import { Migration20270102000000_round_one_order } from './Migration20270102000000_round_one_order.js';
import { Migration20270103000000_group_invites } from './Migration20270103000000_group_invites.js';
import { Migration20270104000000_screen_name_key } from './Migration20270104000000_screen_name_key.js';
import { Migration20270105000000_group_join_failure_by_group } from './Migration20270105000000_group_join_failure_by_group.js';
import { Migration20270110000000_push_subscriptions } from './Migration20270110000000_push_subscriptions.js';
import { Migration20270111000000_push_deliveries } from './Migration20270111000000_push_deliveries.js';
import { Migration20270112000000_entry_numbers } from './Migration20270112000000_entry_numbers.js';
import { Migration20270113000000_push_device_cap } from './Migration20270113000000_push_device_cap.js';
import { Migration20270116000000_name_lookalike_keys } from './Migration20270116000000_name_lookalike_keys.js';
import { Migration20270117000000_facts_only } from './Migration20270117000000_facts_only.js';

/** Listed explicitly (not discovered by glob) so migrations run the same under tsx, tests and bundles. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20250401000000_initial', class: Migration20250401000000_initial },
  { name: 'Migration20250401000100_identity', class: Migration20250401000100_identity },
  { name: 'Migration20250401000200_entry_stats', class: Migration20250401000200_entry_stats },
  { name: 'Migration20261122000000_group_join_failures', class: Migration20261122000000_group_join_failures },
  { name: 'Migration20261201000000_player_band', class: Migration20261201000000_player_band },
  { name: 'Migration20261210000000_share_links', class: Migration20261210000000_share_links },
  { name: 'Migration20261220000000_reminders', class: Migration20261220000000_reminders },
  { name: 'Migration20261221000000_feed', class: Migration20261221000000_feed },
  { name: 'Migration20261222000000_feed_backoff', class: Migration20261222000000_feed_backoff },
  { name: 'Migration20261230000000_seasons', class: Migration20261230000000_seasons },
  { name: 'Migration20270101000000_linked_entries', class: Migration20270101000000_linked_entries },
  { name: 'Migration20270102000000_round_one_order', class: Migration20270102000000_round_one_order },
  { name: 'Migration20270103000000_group_invites', class: Migration20270103000000_group_invites },
  { name: 'Migration20270104000000_screen_name_key', class: Migration20270104000000_screen_name_key },
  { name: 'Migration20270105000000_group_join_failure_by_group', class: Migration20270105000000_group_join_failure_by_group },
  { name: 'Migration20270110000000_push_subscriptions', class: Migration20270110000000_push_subscriptions },
  { name: 'Migration20270111000000_push_deliveries', class: Migration20270111000000_push_deliveries },
  { name: 'Migration20270112000000_entry_numbers', class: Migration20270112000000_entry_numbers },
  { name: 'Migration20270113000000_push_device_cap', class: Migration20270113000000_push_device_cap },
  { name: 'Migration20270116000000_name_lookalike_keys', class: Migration20270116000000_name_lookalike_keys },
  { name: 'Migration20270117000000_facts_only', class: Migration20270117000000_facts_only },
];
