import { Migration } from '@mikro-orm/migrations';

/**
 * The built-in identity provider (used when Clerk is not configured): users, one-time codes (hashed, never
 * stored in clear), sessions (the cookie secret is stored hashed) and the development outbox.
 */
export class Migration20250401000100_identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table idp_user (
        id text primary key,
        email text not null,
        username text,
        created_at timestamptz not null default now()
      );
      create unique index idp_user_email_unique on idp_user (lower(email));
      create unique index idp_user_username_unique on idp_user (lower(username));

      create table idp_code (
        id bigint generated always as identity primary key,
        email text not null,
        purpose text not null check (purpose in ('sign_in', 'sign_up')),
        code_hash text not null,
        username text,
        attempts integer not null default 0,
        ip text,
        expires_at timestamptz not null,
        consumed_at timestamptz,
        created_at timestamptz not null default now()
      );
      create index idp_code_email_idx on idp_code (lower(email), created_at desc);
      create index idp_code_ip_idx on idp_code (ip, created_at desc);

      create table idp_session (
        id text primary key,
        user_id text not null references idp_user (id) on delete cascade,
        secret_hash text not null,
        created_at timestamptz not null default now(),
        refreshed_at timestamptz not null default now(),
        ended_at timestamptz,
        constraint idp_session_secret_unique unique (secret_hash)
      );
      create index idp_session_user_idx on idp_session (user_id);

      create table idp_outbox (
        id bigint generated always as identity primary key,
        to_address text not null,
        subject text not null,
        body text not null,
        code text,
        sent_at timestamptz not null default now()
      );
      create index idp_outbox_to_idx on idp_outbox (lower(to_address), id desc);
    `);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists idp_outbox, idp_session, idp_code, idp_user cascade;');
  }
}
