import { Migration } from '@mikro-orm/migrations';

/**
 * Share links: one per (participant, group) entry, made on demand by its owner. The token is what the
 * public card and page are found by (at least 128 random bits); it is stored as it is, not hashed, so the
 * owner asking again gets the same link (see docs/decisions.md, "Share cards"). A member who leaves the
 * group, or a group that goes, takes its links along.
 */
export class Migration20261210000000_share_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table share_link (
        id bigint generated always as identity primary key,
        token text not null check (length(token) >= 22),
        participant_id text not null references participant (id) on delete cascade on update cascade,
        group_id integer not null references groups (id) on delete cascade,
        created_at timestamptz not null default now(),
        constraint share_link_token_unique unique (token),
        constraint share_link_entry_unique unique (participant_id, group_id)
      );
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists share_link;');
  }
}
