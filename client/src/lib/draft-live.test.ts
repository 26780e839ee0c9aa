import { describe, expect, it } from 'vitest';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';
import { showStrip, stripOnScreen, toastsChange } from './draft-live';
import { draftSnapshot, outcomeOf } from './draft-snapshot';

const status = (over: Partial<DraftStatus> = {}): DraftStatus => ({
  draftHasStarted: true,
  deadline: '2027-04-30T00:00:00.000Z',
  started_at: '2027-04-30T00:00:00.000Z',
  picks_made: 7,
  round_one_complete: false,
  round_one_picks: 32,
    last_change_at: '2027-04-30T00:00:00.000Z',
  last_event_id: 8,
  round_one_order: [{ slot: 1, team: 'TEN' }, { slot: 2, team: 'JAX' }, { slot: 3, team: 'NYG' }],
  ...over,
});
const player = (over: Partial<PlayerDto>): PlayerDto => ({
  id: 1,
  rank: 5,
  player_name: 'Armand Membou',
  position: 'OT',
  school: 'Missouri',
  draft_round: null,
  draft_pick: null,
  band: 'safe',
  ...over,
});

describe('live draft helpers', () => {
  it('toasts only what the strip cannot show while it is on screen, and everything where it is not', () => {
    for (const kind of ['pick', 'start', 'auto_start', 'complete_round'] as const) {
      expect(toastsChange({ kind }, true), kind).toBe(false);
      expect(toastsChange({ kind }, false), kind).toBe(true);
    }
    // A traded pick is news the strip does not tell (it names a pick's team only once the pick is in).
    for (const kind of ['undo', 'reopen_round', 'reset', 'team', 'undo_team'] as const) expect(toastsChange({ kind }, true), kind).toBe(true);
  });

  it('knows whether a strip is on screen, however often one says it left', () => {
    expect(stripOnScreen()).toBe(false);
    const leave = showStrip();
    const leaveToo = showStrip();
    expect(stripOnScreen()).toBe(true);
    leave();
    leave();
    expect(stripOnScreen()).toBe(true);
    leaveToo();
    expect(stripOnScreen()).toBe(false);
  });

  it('marks picks hit, missed or pending from the board and the draft status', () => {
    const board = [player({ id: 1, draft_round: 1, draft_pick: 7 }), player({ id: 2, rank: 9, draft_round: 2, draft_pick: 40 }), player({ id: 3, rank: 12 })];
    const open = draftSnapshot(status(), board)!;
    expect(board.map((p) => outcomeOf(p, open))).toEqual(['hit', 'miss', 'pending']);
    const closed = draftSnapshot(status({ round_one_complete: true }), board)!;
    expect(outcomeOf(board[2]!, closed)).toBe('miss');
    expect(draftSnapshot(undefined, board)).toBeNull();
  });
});
