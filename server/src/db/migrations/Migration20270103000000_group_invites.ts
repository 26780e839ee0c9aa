import { Migration } from '@mikro-orm/migrations';

/**
 * Whether a group's members may make invite links: on unless its owner turns it off. Off, only
 * the owner's links are made and work; members' links stop working until it is on again.
 */
export class Migration20270103000000_group_invites extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table groups add column members_can_invite boolean not null default true;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table groups drop column if exists members_can_invite;');
  }
}
