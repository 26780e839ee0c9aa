import { Migration } from '@mikro-orm/migrations';

/**
 * Failed joins by group id (a wrong password, or an id that names no group), kept in the database so
 * every instance counts the same guesses. `group_id` is the id as given: it may name no group, so it
 * has no foreign key. Rows older than an hour no longer count and are pruned as new ones arrive.
 */
export class Migration20261122000000_group_join_failures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table group_join_failure (
        id bigint generated always as identity primary key,
        participant_id text not null references participant (id) on delete cascade on update cascade,
        group_id integer not null,
        reason text not null check (reason in ('wrong_password', 'unknown_group')),
        created_at timestamptz not null default now()
      );
      create index group_join_failure_participant_idx on group_join_failure (participant_id, created_at);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists group_join_failure;');
  }
}
