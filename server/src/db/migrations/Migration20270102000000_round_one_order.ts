import fs from 'node:fs/promises';
import { Migration } from '@mikro-orm/migrations';
import { parseOrderCsv } from '@first-round/shared/order-csv';
import { fromRoot } from '../../paths.js';

/** The bundled 2025 order (shared/data/README.md): the one source of it, read by this migration only. */
const ORDER_2025_FILE = fromRoot('shared/data/round-one-order-2025.csv');

/** A team abbreviation's shape (which 32 there are is the app's to know: shared/src/teams.ts). */
const team = (column: string) => `check (${column} ~ '^[A-Z]{2,3}$')`;

/**
 * Round one's order (docs/decisions.md, "Teams on the clock"): which team holds each slot.
 * - `round_one_order`: the current season's order, one row per slot whose team is known; `changed_by` is
 *   the draft event (a `team` change by the operator or the feed) that put the team there, null for the
 *   season's order as imported. The feed never overrides a team an operator set.
 * - `round_one_order_change`: the team changes still in effect, newest last: what undo takes back (the
 *   team before and who had set it). Gone with the audit log when a new season opens.
 * - `draft_event` logs team changes (`team`, `undo_team`) with the team before and after, so the live
 *   stream and its replay carry them; the archive's copy of the log keeps both.
 * - `season_round_one_order`: a closed season's order, kept with its board and results.
 * - The feed's queue gets `team` items: a feed naming a team we do not know, or another team than an
 *   operator set, waits there (`recorded_team`: the slot's team when it was raised), once per slot and team.
 * A database whose current season is 2025 (every fresh one) gets the bundled 2025 order; a closed 2025
 * season in the archive gets it too.
 */
export class Migration20270102000000_round_one_order extends Migration {
  override async up(): Promise<void> {
    const parsed = parseOrderCsv(await fs.readFile(ORDER_2025_FILE, 'utf8'));
    if (!parsed.ok) throw new Error(`round-one-order-2025.csv is not valid: ${parsed.errors.map((e) => `row ${e.row}: ${e.message}`).join('; ')}`);
    // Validated above (whole numbers, two- or three-letter abbreviations): safe to write as literals.
    const values = parsed.rows.map((r) => `(${r.slot}, '${r.team}')`).join(', ');
    this.addSql(`
      alter table draft_event drop constraint draft_event_kind_check;
      alter table draft_event add constraint draft_event_kind_check
        check (kind in ('start', 'pick', 'undo', 'complete_round', 'reopen_round', 'reset', 'auto_start', 'team', 'undo_team'));
      alter table draft_event add column team text ${team('team')}, add column team_before text ${team('team_before')};
      alter table season_draft_event add column team text, add column team_before text;

      create table round_one_order (
        slot integer primary key check (slot >= 1),
        team text not null ${team('team')},
        changed_by bigint references draft_event (id) on delete set null
      );
      create table round_one_order_change (
        event_id bigint primary key references draft_event (id) on delete cascade,
        slot integer not null check (slot >= 1),
        team_before text ${team('team_before')},
        changed_by_before bigint references draft_event (id) on delete set null
      );
      create table season_round_one_order (
        season integer not null references season (year) on delete cascade,
        slot integer not null check (slot >= 1),
        team text not null,
        primary key (season, slot)
      );

      alter table feed_queue_item drop constraint feed_queue_item_kind_check;
      alter table feed_queue_item add constraint feed_queue_item_kind_check check (kind in ('confirm', 'conflict', 'team'));
      alter table feed_queue_item add column recorded_team text;
      alter table feed_queue_item drop constraint feed_queue_item_report_unique;
      create unique index feed_queue_item_report_unique on feed_queue_item (slot, kind, feed_player_name, feed_school) where kind <> 'team';
      create unique index feed_queue_item_team_unique on feed_queue_item (slot, feed_team) where kind = 'team';

      insert into round_one_order (slot, team)
      select v.slot, v.team from (values ${values}) v (slot, team)
       where (select year from season where closed_at is null) = 2025;
      insert into season_round_one_order (season, slot, team)
      select 2025, v.slot, v.team from (values ${values}) v (slot, team)
       where exists (select 1 from season where year = 2025 and closed_at is not null);
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      delete from feed_queue_item where kind = 'team';
      drop index feed_queue_item_team_unique;
      drop index feed_queue_item_report_unique;
      alter table feed_queue_item add constraint feed_queue_item_report_unique unique (slot, kind, feed_player_name, feed_school);
      alter table feed_queue_item drop column recorded_team;
      alter table feed_queue_item drop constraint feed_queue_item_kind_check;
      alter table feed_queue_item add constraint feed_queue_item_kind_check check (kind in ('confirm', 'conflict'));

      drop table season_round_one_order, round_one_order_change, round_one_order;
      alter table season_draft_event drop column team, drop column team_before;
      delete from draft_event where kind in ('team', 'undo_team');
      alter table draft_event drop column team, drop column team_before;
      alter table draft_event drop constraint draft_event_kind_check;
      alter table draft_event add constraint draft_event_kind_check
        check (kind in ('start', 'pick', 'undo', 'complete_round', 'reopen_round', 'reset', 'auto_start'));
    `);
  }
}
