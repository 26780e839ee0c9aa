import { Migration } from '@mikro-orm/migrations';

/**
 * A group's wrong passwords across all accounts are counted (join-limits.ts): many accounts guessing one
 * group share one limit. This index finds a group's recent wrong passwords without reading anyone else's,
 * and its old failures to prune (of every reason, so the index is not limited to wrong passwords).
 */
export class Migration20270105000000_group_join_failure_by_group extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index group_join_failure_group_idx on group_join_failure (group_id, created_at);`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists group_join_failure_group_idx;');
  }
}
