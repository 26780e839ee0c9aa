import { Migration } from '@mikro-orm/migrations';

/**
 * A player's risk band when the board names it (the board CSV's optional `band` column). Null, the usual
 * case, means the band follows the rank (shared/src/risk-bands.ts), so a re-ranked board needs no update.
 */
export class Migration20261201000000_player_band extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table player add column band text check (band in ('safe', 'bubble', 'long_shot'));`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table player drop column if exists band;');
  }
}
