import { snapshotOf } from '@first-round/shared/draft-snapshot';
import { entryOdds, oddsBoard } from '@first-round/shared/odds';
import { killListItemText, needsAllOfText, survivalText } from '@first-round/shared/odds-words';
import type { EntryOddsDto } from '@first-round/shared/odds-schemas';
import type { DraftStatus, PlayerDto } from '@first-round/shared/schemas';

/**
 * An entry's odds for the answers (shared/src/odds.ts, the same batch the web app draws for the board and
 * draft state): null without picks, and once round one is complete.
 */
export function entryOddsOf(players: readonly PlayerDto[], status: Pick<DraftStatus, 'round_one_picks' | 'round_one_complete'>, picks: readonly number[]): EntryOddsDto | null {
  if (picks.length === 0 || players.length === 0) return null;
  const odds = entryOdds(oddsBoard(players, snapshotOf(status, players)), picks);
  if (!odds) return null;
  const names = new Map(players.map((p) => [p.id, p.player_name]));
  const kill_list = odds.kill_list.map((k) => ({ player_id: k.player_id, player_name: names.get(k.player_id)!, misses: k.misses, text: killListItemText(names.get(k.player_id)!, k.misses) }));
  return { survive: odds.survive, survive_text: survivalText(odds.survive), kill_list, needs: needsAllOfText(kill_list.map((k) => k.player_name)) };
}
