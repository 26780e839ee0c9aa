import { riskiestPick } from '@first-round/shared/risk-bands';
import { plural } from '@first-round/shared/words';

/** '1 selection', '10 selections' (the counter, with the singular right). */
export function selectionsLabel(n: number): string {
  return plural(n, 'selection');
}

/** The 'Picks saved' toast's text: how many, and the pick most likely to bust the entry. */
export function savedDescription(players: readonly { rank: number; player_name: string }[]): string {
  // Saved, not locked: they can change until the lock ('locked in' is said only once they are).
  const count = `${plural(players.length, 'player')} saved. You can change your picks until they lock.`;
  const riskiest = riskiestPick(players);
  return riskiest ? `${count} Riskiest pick: ${riskiest.player_name} (#${riskiest.rank}).` : count;
}
