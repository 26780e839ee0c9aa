import { describe, expect, it } from 'vitest';
import { buildDraftBoard, type BoardPlayer } from './draft-board.js';

const player = (id: number, draft_pick: number | null = null, draft_round: number | null = draft_pick === null ? null : 1): BoardPlayer => ({
  id,
  rank: id,
  player_name: `P${id}`,
  position: 'QB',
  school: 'State',
  draft_round,
  draft_pick,
});
const member = (name: string) => ({ participant_id: `user_${name}`, participant_name: name });

describe('buildDraftBoard', () => {
  // Slot 3's team is not known (a season opened without its order, say).
  const base = { group_id: 7, picks_visible: true, viewer: 'user_amy', last_event_id: 3, order: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'JAX' }, { slot: 3, team: null }] };

  it('fills slots by draft_pick with the team holding each, keeps busted members in had_by, and leaves them out of waiting_on', () => {
    // Round of 3: slot 2 taken (P2); P5 went in round two, so zed (who had him) is busted.
    const players = [player(1), player(2, 2), player(3), player(4), player(5, null, 2)];
    const board = buildDraftBoard({
      ...base,
      players,
      draft: { roundOnePicks: 3, filledSlots: 1, roundOneCompleteMarked: false },
      entries: [
        { ...member('Zed'), player_ids: [2, 5, 4] },
        { ...member('amy'), player_ids: [2, 3] },
        { ...member('Bea'), player_ids: [3, 1] },
        { ...member('nobody'), player_ids: [] },
      ],
    });
    expect(board.slots).toEqual([
      { slot: 1, team: 'TEN', player: null, had_by: [], had_by_count: 0 },
      { slot: 2, team: 'JAX', player: { id: 2, player_name: 'P2', position: 'QB', school: 'State', rank: 2 }, had_by: [member('amy'), member('Zed')], had_by_count: 2 },
      { slot: 3, team: null, player: null, had_by: [], had_by_count: 0 },
    ]);
    expect(board).toMatchObject({ entries: 3, alive: 2, round_one_complete: false });
    // P3 needed by two, then P1 by one; zed's P4 is not awaited (busted).
    expect(board.waiting_on.map((w) => [w.player_id, w.needed_by])).toEqual([
      [3, [member('amy'), member('Bea')]],
      [1, [member('Bea')]],
    ]);
    // If P3 goes now amy has nothing left pending (safe); Bea still needs P1.
    expect(board.waiting_on.map((w) => [w.player_id, w.safe_if_goes_now, w.if_goes_now])).toEqual([
      [3, 1, 'If P3 goes now, 1 of you is safe'],
      [1, 0, null],
    ]);
  });

  it('counts the entries a pick would make safe: those waiting on him alone', () => {
    const players = [player(1), player(2), player(3), player(4)];
    const board = buildDraftBoard({
      ...base,
      players,
      draft: { roundOnePicks: 3, filledSlots: 0, roundOneCompleteMarked: false },
      entries: [
        { ...member('amy'), player_ids: [1] },
        { ...member('Bea'), player_ids: [1] },
        { ...member('Cy'), player_ids: [1] },
        { ...member('Dee'), player_ids: [1, 2] },
      ],
    });
    expect(board.waiting_on.find((w) => w.player_id === 1)).toMatchObject({ needed_by_count: 4, safe_if_goes_now: 3, if_goes_now: 'If P1 goes now, 3 of you are safe' });
    expect(board.waiting_on.find((w) => w.player_id === 2)).toMatchObject({ needed_by_count: 1, safe_if_goes_now: 0, if_goes_now: null });
  });

  it('where picks are private: counts every entry, names only the reader', () => {
    const players = [player(1), player(2, 1), player(3)];
    const board = buildDraftBoard({
      ...base,
      picks_visible: false,
      players,
      draft: { roundOnePicks: 3, filledSlots: 1, roundOneCompleteMarked: false },
      entries: [
        { ...member('amy'), player_ids: [2, 3] },
        { ...member('Bea'), player_ids: [2, 3, 1] },
        { ...member('Cy'), player_ids: [1] },
      ],
    });
    expect(board.slots[0]).toEqual({ slot: 1, team: 'TEN', player: { id: 2, player_name: 'P2', position: 'QB', school: 'State', rank: 2 }, had_by: [member('amy')], had_by_count: 2 });
    // P1 is needed by Bea and Cy (2, nobody named: amy does not need him), P3 by amy and Bea.
    expect(board.waiting_on.map((w) => [w.player_id, w.needed_by_count, w.needed_by])).toEqual([
      [1, 2, []],
      [3, 2, [member('amy')]],
    ]);
    expect(board).toMatchObject({ entries: 3, alive: 3, picks_visible: false });
  });

  it('waits on nobody once round one is complete', () => {
    const board = buildDraftBoard({
      ...base,
      players: [player(1, 1), player(2)],
      draft: { roundOnePicks: 2, filledSlots: 1, roundOneCompleteMarked: true },
      entries: [{ ...member('amy'), player_ids: [1, 2] }],
    });
    expect(board).toMatchObject({ round_one_complete: true, alive: 0, waiting_on: [] });
    expect(board.slots[0]!.had_by).toEqual([member('amy')]);
  });
});
