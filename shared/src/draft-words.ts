import type { DraftChange, NextUndo } from './schemas.js';
import { teamName } from './teams.js';
import { plural } from './words.js';

/** What a change is described from: a live change, or an audit-log entry (which has only the name). */
export interface ChangeToDescribe {
  kind: DraftChange['kind'];
  slot?: number | null;
  player?: { player_name: string; position?: string; school?: string } | null;
  /** Team changes: the slot's team after and before. */
  team?: string | null;
  team_before?: string | null;
}

/**
 * A draft change in words, in one place for every screen and the command line. Players read news ('Pick 7:
 * Armand Membou, OT, Missouri', 'The draft has started'); the operator reads what was done, in the audit
 * log and the `npm run draft` output ('Undid pick 7 (Armand Membou)', 'Marked round one complete').
 */
export function describeDraftChange(change: ChangeToDescribe, audience: 'players' | 'operator' = 'players'): { title: string; description?: string } {
  const p = change.player ?? undefined;
  const who = p ? [p.player_name, p.position, p.school].filter(Boolean).join(', ') : undefined;
  const operator = audience === 'operator';
  switch (change.kind) {
    case 'pick':
      return { title: who ? `Pick ${change.slot}: ${who}` : `Pick ${change.slot} is in` };
    case 'undo':
      return operator
        ? { title: `Undid pick ${change.slot}${p ? ` (${p.player_name})` : ''}` }
        : { title: `Pick ${change.slot} undone`, description: p ? `${p.player_name} is back on the board.` : undefined };
    case 'start':
      return operator ? { title: 'Started the draft: picks are locked' } : { title: 'The draft has started', description: 'Picks are locked. Follow your picks live.' };
    case 'auto_start':
      return operator
        ? { title: 'The draft started at the deadline: picks are locked' }
        : { title: 'The draft has started', description: 'Picks are locked. Follow your picks live.' };
    case 'complete_round':
      return operator ? { title: 'Marked round one complete' } : { title: 'Round one is complete', description: 'Every undrafted pick is now a miss.' };
    case 'reopen_round':
      return { title: operator ? 'Reopened round one' : 'Round one is open again' };
    case 'reset':
      return operator ? { title: 'Reset the draft (all results cleared)' } : { title: 'The draft was reset', description: 'All results were cleared.' };
    case 'team':
      return operator
        ? { title: `Gave pick ${change.slot} to ${change.team}${change.team_before ? ` (was ${change.team_before})` : ''}` }
        : { title: `Pick ${change.slot} now belongs to ${change.team}`, description: `${teamName(change.team) ?? change.team}${change.team_before ? ` (before: ${change.team_before})` : ''}` };
    case 'undo_team':
      if (operator) return { title: `Undid the team change of pick ${change.slot} (${change.team ? `back to ${change.team}` : 'no team now'})` };
      return change.team
        ? { title: `Pick ${change.slot} is back with ${change.team}`, description: teamName(change.team) ?? undefined }
        : { title: `Pick ${change.slot} has no team for now` };
  }
}

/** What undo would take back, as the console's confirmation says it: 'pick 7 (Armand Membou)'. */
export function describeUndo(next: NonNullable<NextUndo>): string {
  switch (next.kind) {
    case 'reopen_round':
      return 'the "round one complete" mark';
    case 'undo':
      return `pick ${next.slot} (${next.player_name})`;
    case 'undo_team':
      return `the change of pick ${next.slot} to ${next.team_before}${next.team ? ` (back to ${next.team})` : ''}`;
  }
}

/**
 * What marking round one complete does, as the console asks before it: with slots still empty, that they
 * stay empty (and count as misses).
 */
export function completeRoundWarning(picksMade: number, roundOnePicks: number): string {
  const empty = roundOnePicks - picksMade;
  const base = 'Every pick not yet drafted becomes a miss, busting those entries. Undo reverses it.';
  if (empty <= 0) return base;
  return `${picksMade} of ${roundOnePicks} picks are in: ${plural(empty, 'slot has', 'slots have')} no pick: ${empty === 1 ? 'it' : 'they'} will stay empty. ${base}`;
}

/** A round-one slot with no player: waiting while the round runs, empty for good once it is complete. */
export function emptySlotWords(roundComplete: boolean): string {
  return roundComplete ? 'No pick (round complete)' : 'Not picked yet';
}
