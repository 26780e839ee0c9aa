import { describe, expect, it } from 'vitest';
import { describeDraftChange } from './draft-words';

const membou = { player_name: 'Armand Membou', position: 'OT', school: 'Missouri' };

describe('a draft change in words', () => {
  it('announces a pick the way the spec shows it, to players and to the operator', () => {
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
});
