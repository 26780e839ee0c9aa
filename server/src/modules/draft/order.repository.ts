import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderRow } from '@first-round/shared/order-csv';
import { DraftEventSchema, RoundOneOrderChangeSchema, RoundOneOrderSchema } from './draft.entities.js';

/**
 * Round one's order (docs/decisions.md, "Teams on the clock"): the team holding each slot
 * (`round_one_order`, absent where none is known) and the team changes still in effect
 * (`round_one_order_change`), which undo takes back newest first. Written inside the draft's operator
 * changes (draft.service.ts), serialised on the locked draft_state row, and when a season opens.
 *
 * Writes are native, which the identity map does not see, so reads pass `refresh: true`.
 */

/** The order as one JSON value of [slot, team] pairs, for the draft state's one statement (draft.repository.ts). */
export const ORDER_SUBSELECT = `(select coalesce(json_agg(json_build_array(slot, team) order by slot), '[]'::json) from round_one_order)`;

/** A slot's team now and the team change that put it there (null: the season's order). */
export interface OrderSlotRow {
  team: string;
  changedBy: number | null;
}

export async function orderSlot(em: EntityManager, slot: number): Promise<OrderSlotRow | null> {
  const row = await em.findOne(RoundOneOrderSchema, { slot }, { refresh: true });
  return row ? { team: row.team, changedBy: row.changedBy } : null;
}

/** Gives `slot` to `team` (null: no team known), as set by draft event `changedBy` (null: the season's order). */
export async function writeOrderSlot(em: EntityManager, slot: number, team: string | null, changedBy: number | null): Promise<void> {
  if (team === null) await em.nativeDelete(RoundOneOrderSchema, { slot });
  else await em.createQueryBuilder(RoundOneOrderSchema).insert({ slot, team, changedBy }).onConflict('slot').merge(['team', 'changedBy']).execute();
}

/** A team change still in effect: its event, the slot, and what the slot held before (what undo restores). */
export interface OrderChangeRow {
  eventId: number;
  slot: number;
  teamBefore: string | null;
  changedByBefore: number | null;
}

export async function insertOrderChange(em: EntityManager, change: OrderChangeRow): Promise<void> {
  await em.insert(RoundOneOrderChangeSchema, { ...change });
}

/** The newest team change still in effect made since the last reset (undo never reaches past a reset), or null. */
export async function latestOrderChange(em: EntityManager): Promise<OrderChangeRow | null> {
  const reset = await em.findOne(DraftEventSchema, { kind: 'reset' }, { fields: ['id'], orderBy: { id: 'desc' }, refresh: true });
  const row = await em.findOne(RoundOneOrderChangeSchema, { eventId: { $gt: reset?.id ?? 0 } }, { orderBy: { eventId: 'desc' }, refresh: true });
  return row ? { eventId: row.eventId, slot: row.slot, teamBefore: row.teamBefore, changedByBefore: row.changedByBefore } : null;
}

export async function deleteOrderChange(em: EntityManager, eventId: number): Promise<void> {
  await em.nativeDelete(RoundOneOrderChangeSchema, { eventId });
}

/** Each slot's team with whoever set it: the actor of the team change that put it there, null for the season's order. */
export async function orderWithSetters(em: EntityManager): Promise<Map<number, { team: string; setBy: string | null }>> {
  const rows = await em.find(RoundOneOrderSchema, {}, { orderBy: { slot: 'asc' }, refresh: true });
  const setters = rows.flatMap((r) => (r.changedBy === null ? [] : [r.changedBy]));
  const events = setters.length === 0 ? [] : await em.find(DraftEventSchema, { id: { $in: setters } }, { fields: ['id', 'actor'], refresh: true });
  const actors = new Map(events.map((e) => [e.id, e.actor]));
  return new Map(rows.map((r) => [r.slot, { team: r.team, setBy: r.changedBy === null ? null : (actors.get(r.changedBy) ?? null) }]));
}

/** A new season's order (none: every slot without a team): the changes of the season before go too. */
export async function replaceOrder(tx: EntityManager, rows: readonly OrderRow[]): Promise<void> {
  await tx.nativeDelete(RoundOneOrderChangeSchema, {});
  await tx.nativeDelete(RoundOneOrderSchema, {});
  if (rows.length > 0) await tx.insertMany(RoundOneOrderSchema, rows.map((r) => ({ slot: r.slot, team: r.team, changedBy: null })));
}
