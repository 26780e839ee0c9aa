import { Migration } from '@mikro-orm/migrations';
import { nameKeys } from '@first-round/shared/name-keys';
import { legacyNameKey } from './legacy-name-key.js';

/** Rows by age, each with the name it is keyed by. */
type Named = { id: string | number; name: string };

/**
 * Each row's two keys, oldest row first; a row whose keys (either) another older row already holds (either)
 * gets none, and keeps its name.
 */
function keysByAge(rows: Named[]): { id: string | number; fold: string; glyph: string }[] {
  const held = new Set<string>();
  const keyed: { id: string | number; fold: string; glyph: string }[] = [];
  for (const row of rows) {
    const { fold, glyph } = nameKeys(row.name);
    if (held.has(fold) || held.has(glyph)) continue;
    held.add(fold).add(glyph);
    keyed.push({ id: row.id, fold, glyph });
  }
  return keyed;
}

/**
 * Names are compared by look-alike letters too (shared/src/name-keys.ts): each screen name and group
 * name gets two keys, the fold key (case folded, then Unicode's skeleton) and the glyph key (the
 * skeleton of the name as written), each under a unique index. `participant.screen_name_key` becomes the
 * fold key; `participant.screen_name_glyph_key`, `groups.name_key` and `groups.name_glyph_key` are new.
 * The keys are worked out in the application (PostgreSQL knows neither Unicode's table nor the app's
 * Unicode version) and set again with every name the services write.
 *
 * Names already stored are kept as they are. Where several share a key (either key of one is either key of
 * another), the oldest row (by `created_at`, then id) gets its keys and the others keep their name without
 * keys, as the first key migration did: nobody is renamed, and nobody new can take what the oldest holds.
 * The global group (id 1, 'Global', from the first migration) comes first and keeps its keys.
 */
export class Migration20270116000000_name_lookalike_keys extends Migration {
  override async up(): Promise<void> {
    // Run now, in the migration's transaction (`addSql` statements run only after `up` returns): the
    // backfill below needs the columns.
    await this.execute('alter table participant add column screen_name_glyph_key text');
    await this.execute('alter table groups add column name_key text, add column name_glyph_key text');
    await this.execute('update participant set screen_name_key = null where screen_name_key is not null');

    const participants = (await this.execute(
      `select id, screen_name as name from participant where screen_name is not null order by created_at, id`,
    )) as Named[];
    await this.setKeys('participant', 'screen_name_key', 'screen_name_glyph_key', 'text', keysByAge(participants));
    // The global group first, whenever its row was made: its name is the one every player sees.
    const groups = (await this.execute(`select id, name from groups order by id = 1 desc, created_at, id`)) as Named[];
    await this.setKeys('groups', 'name_key', 'name_glyph_key', 'integer', keysByAge(groups));

    await this.execute('create unique index participant_screen_name_glyph_key_unique on participant (screen_name_glyph_key)');
    await this.execute('create unique index groups_name_key_unique on groups (name_key)');
    await this.execute('create unique index groups_name_glyph_key_unique on groups (name_glyph_key)');
  }

  private async setKeys(table: string, foldColumn: string, glyphColumn: string, idType: string, keyed: { id: string | number; fold: string; glyph: string }[]) {
    if (keyed.length === 0) return;
    await this.execute(
      `update ${table} t set ${foldColumn} = k.fold, ${glyphColumn} = k.glyph
         from json_to_recordset(?::json) as k(id ${idType}, fold text, glyph text) where t.id = k.id`,
      [JSON.stringify(keyed)],
    );
  }

  /** Back to the first key migration's keys (its own copy of them), its oldest-holder rule again. */
  override async down(): Promise<void> {
    await this.execute('drop index if exists participant_screen_name_glyph_key_unique');
    await this.execute('drop index if exists groups_name_key_unique');
    await this.execute('drop index if exists groups_name_glyph_key_unique');
    await this.execute('alter table participant drop column if exists screen_name_glyph_key');
    await this.execute('alter table groups drop column if exists name_key, drop column if exists name_glyph_key');
    await this.execute('update participant set screen_name_key = null where screen_name_key is not null');
    const rows = (await this.execute(`select id, screen_name from participant where screen_name is not null order by created_at, id`)) as {
      id: string;
      screen_name: string;
    }[];
    const keyed = new Map<string, string>();
    for (const row of rows) {
      const key = legacyNameKey(row.screen_name);
      if (!keyed.has(key)) keyed.set(key, row.id);
    }
    if (keyed.size > 0) {
      await this.execute(
        `update participant p set screen_name_key = k.key from json_to_recordset(?::json) as k(id text, key text) where p.id = k.id`,
        [JSON.stringify([...keyed].map(([key, id]) => ({ id, key })))],
      );
    }
  }
}
