import { z } from 'zod';
import { RISK_BANDS } from '../risk-bands.js';
import { findTeam, TEAM_ABBREVIATIONS } from '../teams.js';
import { idSchema, isoDate } from './common.js';

/* The schemas of the big board and the draft: one of the files shared/src/schemas.ts gathers. */
export const playerOutput = z.object({
  id: z.number(),
  rank: z.number(),
  player_name: z.string(),
  position: z.string(),
  school: z.string(),
  draft_round: z.number().nullable(),
  draft_pick: z.number().nullable(),
  /** The risk band the selection screen shows: the board's own, else by rank (shared/src/risk-bands.ts). */
  band: z.enum(RISK_BANDS),
});
export type PlayerDto = z.infer<typeof playerOutput>;
export const playersOutput = z.array(playerOutput);

/**
 * One of the 32 teams by its abbreviation (shared/src/teams.ts), any case on the way in ('sea' → 'SEA');
 * anything else is refused with the message naming the field.
 */
export const teamSchema = z
  .string()
  .max(40)
  .transform((v) => findTeam(v)?.abbreviation ?? v)
  .pipe(z.enum(TEAM_ABBREVIATIONS, { error: 'team must be one of the 32 NFL teams by abbreviation (ARI, ATL, … WAS)' }));
/** A round-one slot and the team that holds it now (null: not known, e.g. a season opened without an order). */
export const orderSlotOutput = z.object({ slot: z.number(), team: z.string().nullable() });
export type OrderSlot = z.infer<typeof orderSlotOutput>;

export const draftStatusOutput = z.object({
  draftHasStarted: z.boolean(),
  deadline: isoDate,
  started_at: isoDate.nullable(),
  picks_made: z.number(),
  round_one_complete: z.boolean(),
  round_one_picks: z.number(),
  /** Id of the latest draft change (0 before any): changes whenever anything about the draft does. */
  last_event_id: z.number(),
  /**
   * When that change was recorded (null before any): a page opened with a viewing delay holds back only
   * what changed within the delay (client/src/lib/hold-gate.ts).
   */
  last_change_at: isoDate.nullable(),
  /** Round one's order: slots 1 to round_one_picks, each with the team that holds it now (traded picks included). */
  round_one_order: z.array(orderSlotOutput),
});
export type DraftStatus = z.infer<typeof draftStatusOutput>;

/** `team`: a slot changed hands (a traded pick, set by the operator or the feed); `undo_team`: that taken back. */
export const draftChangeKind = z.enum(['start', 'auto_start', 'pick', 'undo', 'complete_round', 'reopen_round', 'reset', 'team', 'undo_team']);
export const draftChange = z.object({
  event_id: z.number(),
  kind: draftChangeKind,
  slot: z.number().optional(),
  player: playerOutput.optional(),
  /** `team` / `undo_team`: the slot's team after the change and before it (null: none known). */
  team: z.string().nullable().optional(),
  team_before: z.string().nullable().optional(),
  at: isoDate,
});
export type DraftChange = z.infer<typeof draftChange>;


export const recordPickInput = z.strictObject({ slot: idSchema, player_id: idSchema });
/** The operator gives a slot to another team (a traded pick). */
export const setTeamInput = z.strictObject({ slot: idSchema, team: teamSchema });
/**
 * What `draft.undo` would take back now (the operator's console asks before undoing), or null: the
 * "complete" mark (`reopen_round`), the pick at the highest filled slot (`undo`, with its player), or the
 * latest team change since the last reset (`undo_team`: the slot goes from `team_before` back to `team`).
 */
export const nextUndoOutput = z.object({
  change: z
    .object({
      kind: z.enum(['reopen_round', 'undo', 'undo_team']),
      slot: z.number().nullable(),
      player_name: z.string().nullable(),
      team: z.string().nullable(),
      team_before: z.string().nullable(),
    })
    .nullable(),
});
export type NextUndo = z.infer<typeof nextUndoOutput>['change'];
export const draftEventOutput = z.object({
  id: z.number(),
  /** The same kinds as a live change (the audit log is what changes are read back from). */
  kind: draftChangeKind,
  slot: z.number().nullable(),
  player_id: z.number().nullable(),
  player_name: z.string().nullable(),
  /** Team changes: the slot's team after and before. */
  team: z.string().nullable(),
  team_before: z.string().nullable(),
  actor: z.string(),
  created_at: isoDate,
});
export const draftEventsOutput = z.array(draftEventOutput);
