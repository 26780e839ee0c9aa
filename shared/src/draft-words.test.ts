import { describe, expect, it } from 'vitest';
import { describeDraftChange, describeUndo } from './draft-words';

const membou = { player_name: 'Armand Membou', position: 'OT', school: 'Missouri' };

describe('a draft change in words', () => {
  it('announces a pick the way the product words it, to players and to the operator', () => {
    expect(describeDraftChange({ kind: 'pick', slot: 7, player: membou }).title).toBe('Pick 7: Armand Membou, OT, Missouri');
    expect(describeDraftChange({ kind: 'pick', slot: 7, player: membou }, 'operator').title).toBe('Pick 7: Armand Membou, OT, Missouri');
    // An audit-log entry knows only the name.
    expect(describeDraftChange({ kind: 'pick', slot: 7, player: { player_name: 'Armand Membou' } }, 'operator').title).toBe('Pick 7: Armand Membou');
  });

  it('tells players the news and the operator what was done', () => {
    expect(describeDraftChange({ kind: 'auto_start' })).toEqual({ title: 'The draft has started', description: 'Picks are locked. Follow your picks live.' });
    expect(describeDraftChange({ kind: 'undo', slot: 2, player: membou })).toEqual({ title: 'Pick 2 undone', description: 'Armand Membou is back on the board.' });
    expect(describeDraftChange({ kind: 'undo', slot: 2, player: membou }, 'operator').title).toBe('Undid pick 2 (Armand Membou)');
    expect(describeDraftChange({ kind: 'complete_round' }, 'operator').title).toBe('Marked round one complete');
    expect(describeDraftChange({ kind: 'start' }, 'operator').title).toBe('Started the draft: picks are locked');
    expect(describeDraftChange({ kind: 'reset' }, 'operator').title).toBe('Reset the draft (all results cleared)');
  });

  it('says which team a traded pick went to, and back', () => {
    const trade = { kind: 'team' as const, slot: 26, team: 'ATL', team_before: 'PHI' };
    expect(describeDraftChange(trade)).toEqual({ title: 'Pick 26 now belongs to ATL', description: 'Atlanta Falcons (before: PHI)' });
    expect(describeDraftChange(trade, 'operator').title).toBe('Gave pick 26 to ATL (was PHI)');
    expect(describeDraftChange({ kind: 'team', slot: 5, team: 'CLE', team_before: null }, 'operator').title).toBe('Gave pick 5 to CLE');
    const back = { kind: 'undo_team' as const, slot: 26, team: 'PHI', team_before: 'ATL' };
    expect(describeDraftChange(back)).toEqual({ title: 'Pick 26 is back with PHI', description: 'Philadelphia Eagles' });
    expect(describeDraftChange(back, 'operator').title).toBe('Undid the team change of pick 26 (back to PHI)');
    expect(describeDraftChange({ kind: 'undo_team', slot: 5, team: null, team_before: 'CLE' }, 'operator').title).toBe('Undid the team change of pick 5 (no team now)');
  });

  it('tells the operator what undo would take back', () => {
    expect(describeUndo({ kind: 'undo', slot: 7, player_name: 'Armand Membou', team: null, team_before: null })).toBe('pick 7 (Armand Membou)');
    expect(describeUndo({ kind: 'reopen_round', slot: null, player_name: null, team: null, team_before: null })).toBe('the "round one complete" mark');
    expect(describeUndo({ kind: 'undo_team', slot: 26, player_name: null, team: 'PHI', team_before: 'ATL' })).toBe('the change of pick 26 to ATL (back to PHI)');
  });
});
