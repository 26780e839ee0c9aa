import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderRow } from '@first-round/shared/order-csv';
import { sql, sqlOne } from '../../db/sql.js';

/**
 * Round one's order (docs/decisions.md, "Teams on the clock"): the team holding each slot
 * (`round_one_order`, absent where none is known) and the team changes still in effect
 * (`round_one_order_change`), which undo takes back newest first. Written inside the draft's operator
 * changes (draft.service.ts), serialised on the locked draft_state row, and when a season opens.
 */

/** The order as one JSON value of [slot, team] pairs, for the draft state's one statement (draft.repository.ts). */
export const ORDER_SUBSELECT = `(select coalesce(json_agg(json_build_array(slot, team) order by slot), '[]'::json) from round_one_order)`;

/** A slot's team now and the team change that put it there (null: the season's order). */
export interface OrderSlotRow {
  team: string;
  changedBy: number | null;
}

export async function orderSlot(em: EntityManager, slot: number): Promise<OrderSlotRow | null> {
  const row = await sqlOne<{ team: string; changed_by: string | null }>(em, `select team, changed_by from round_one_order where slot = $1`, [slot]);
  return row ? { team: row.team, changedBy: row.changed_by === null ? null : Number(row.changed_by) } : null;
}

/** Gives `slot` to `team` (null: no team known), as set by draft event `changedBy` (null: the season's order). */
export async function writeOrderSlot(em: EntityManager, slot: number, team: string | null, changedBy: number | null): Promise<void> {
  if (team === null) await sql(em, `delete from round_one_order where slot = $1`, [slot]);
  else
    await sql(
      em,
      `insert into round_one_order (slot, team, changed_by) values ($1, $2, $3)
       on conflict (slot) do update set team = excluded.team, changed_by = excluded.changed_by`,
      [slot, team, changedBy],
    );
}

/** A team change still in effect: its event, the slot, and what the slot held before (what undo restores). */
export interface OrderChangeRow {
  eventId: number;
  slot: number;
  teamBefore: string | null;
  changedByBefore: number | null;
}

export async function insertOrderChange(em: EntityManager, change: OrderChangeRow): Promise<void> {
  await sql(em, `insert into round_one_order_change (event_id, slot, team_before, changed_by_before) values ($1, $2, $3, $4)`, [
    change.eventId,
    change.slot,
    change.teamBefore,
    change.changedByBefore,
  ]);
}

/** The newest team change still in effect made since the last reset (undo never reaches past a reset), or null. */
export async function latestOrderChange(em: EntityManager): Promise<OrderChangeRow | null> {
  const row = await sqlOne<{ event_id: string; slot: number; team_before: string | null; changed_by_before: string | null }>(
    em,
    `select event_id, slot, team_before, changed_by_before from round_one_order_change
      where event_id > (select coalesce(max(id), 0) from draft_event where kind = 'reset')
      order by event_id desc limit 1`,
  );
  if (!row) return null;
  return { eventId: Number(row.event_id), slot: row.slot, teamBefore: row.team_before, changedByBefore: row.changed_by_before === null ? null : Number(row.changed_by_before) };
}

export async function deleteOrderChange(em: EntityManager, eventId: number): Promise<void> {
  await sql(em, `delete from round_one_order_change where event_id = $1`, [eventId]);
}

/** Each slot's team with whoever set it: the actor of the team change that put it there, null for the season's order. */
export async function orderWithSetters(em: EntityManager): Promise<Map<number, { team: string; setBy: string | null }>> {
  const rows = await sql<{ slot: number; team: string; actor: string | null }>(
    em,
    `select o.slot, o.team, e.actor from round_one_order o left join draft_event e on e.id = o.changed_by order by o.slot`,
  );
  return new Map(rows.map((r) => [r.slot, { team: r.team, setBy: r.actor }]));
}

/** A new season's order (none: every slot without a team): the changes of the season before go too. */
export async function replaceOrder(tx: EntityManager, rows: readonly OrderRow[]): Promise<void> {
  await sql(tx, `delete from round_one_order_change`);
  await sql(tx, `delete from round_one_order`);
  if (rows.length === 0) return;
  await sql(tx, `insert into round_one_order (slot, team) select * from unnest($1::int[], $2::text[])`, [rows.map((r) => r.slot), rows.map((r) => r.team)]);
}
