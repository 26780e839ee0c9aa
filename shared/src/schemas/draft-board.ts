import { z } from 'zod';

/* The schemas of a group's draft board: one of the files shared/src/schemas.ts gathers. */
/** A member named on the draft board: their screen name (their id when they have none). */
export const boardMemberOutput = z.object({ participant_id: z.string(), participant_name: z.string() });
export type BoardMember = z.infer<typeof boardMemberOutput>;
/** A round-one slot: its team, the player taken there (null while open) and the members whose entry had him. */
export const boardSlotOutput = z.object({
  slot: z.number(),
  /** The team that holds the slot (null: not known). */
  team: z.string().nullable(),
  player: z.object({ id: z.number(), player_name: z.string(), position: z.string(), school: z.string(), rank: z.number() }).nullable(),
  /**
   * Members whose entry has this player, busted ones included; by name. Empty while the slot is open. Where
   * the group keeps picks private, only the caller (if they had him): `had_by_count` counts everyone.
   */
  had_by: z.array(boardMemberOutput),
  had_by_count: z.number(),
});
export type BoardSlot = z.infer<typeof boardSlotOutput>;
/** An undrafted player some alive entry still needs: each member in `needed_by` busts if he is not taken in round one. */
export const waitingOnOutput = z.object({
  player_id: z.number(),
  player_name: z.string(),
  position: z.string(),
  school: z.string(),
  rank: z.number(),
  /** By name; where the group keeps picks private, only the caller (if they need him). */
  needed_by: z.array(boardMemberOutput),
  /** Every alive entry of the group waiting on him, named or not. */
  needed_by_count: z.number(),
  /**
   * Alive entries that would be certain to survive round one if he went with the next pick (he is the last
   * pick they wait on): the group's board line.
   */
  safe_if_goes_now: z.number(),
  /** 'If Jalen Milroe goes now, 3 of you are safe'; null when he would make nobody safe. */
  if_goes_now: z.string().nullable(),
});
export type WaitingOn = z.infer<typeof waitingOnOutput>;
/**
 * A group's round one as it fills (groups.draftBoard, after the start only): every slot with the player
 * taken there and who had him, then the undrafted players alive entries are waiting on, most-needed first.
 */
export const draftBoardOutput = z.object({
  group_id: z.number(),
  /**
   * Whether other members are named (the group's picks_public, as for reading a member's picks). When
   * false, `had_by` and `needed_by` name only the caller; the counts still count every member's entry.
   */
  picks_visible: z.boolean(),
  /** The draft version the board was built at (draft.status's last_event_id). */
  last_event_id: z.number(),
  round_one_complete: z.boolean(),
  /** Entries shown (members with picks here; only the caller's when picks are not visible) and how many are not busted. */
  entries: z.number(),
  alive: z.number(),
  /** Slots 1 to round_one_picks, in order. */
  slots: z.array(boardSlotOutput),
  /** Empty once round one is complete: nothing is pending any more. */
  waiting_on: z.array(waitingOnOutput),
});
export type DraftBoard = z.infer<typeof draftBoardOutput>;
