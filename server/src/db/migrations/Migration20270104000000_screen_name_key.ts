import { Migration } from '@mikro-orm/migrations';
import { legacyNameKey } from './legacy-name-key.js';

/**
 * Screen names are unique by their key (NFKC, case-folded, without invisible characters, spaces or
 * punctuation: legacy-name-key.ts, this migration's own copy), so 'Operator RT' cannot stand beside
 * 'operatorrt'. Migration20270116000000_name_lookalike_keys keys them again, by look-alike letters too. The key
 * is worked out in the application (PostgreSQL's lower() and normalize() follow the server's locale and
 * Unicode version, not the app's) and stored beside the name; the unique index is what holds the rule.
 *
 * Names already stored are kept as they are. Where several share a key, the oldest participant's (by
 * `created_at`, then id) gets it and the others keep their name without a key: nobody is renamed, and
 * nobody new can take that key. A key is set again whenever its player renames.
 */
export class Migration20270104000000_screen_name_key extends Migration {
  override async up(): Promise<void> {
    // Run now, in the migration's transaction (`addSql` statements run only after `up` returns): the
    // backfill below reads the names and needs the column.
    await this.execute('alter table participant add column screen_name_key text');
    const rows = await this.execute(`select id, screen_name from participant where screen_name is not null order by created_at, id`);
    const keyed = new Map<string, string>();
    for (const row of rows as { id: string; screen_name: string }[]) {
      const key = legacyNameKey(row.screen_name);
      if (!keyed.has(key)) keyed.set(key, row.id);
    }
    if (keyed.size > 0) {
      await this.execute(
        `update participant p set screen_name_key = k.key from json_to_recordset(?::json) as k(id text, key text) where p.id = k.id`,
        [JSON.stringify([...keyed].map(([key, id]) => ({ id, key })))],
      );
    }
    await this.execute('create unique index participant_screen_name_key_unique on participant (screen_name_key)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists participant_screen_name_key_unique;');
    this.addSql('alter table participant drop column if exists screen_name_key;');
  }
}
