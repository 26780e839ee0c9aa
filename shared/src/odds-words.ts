/**
 * The odds in words a fan reads (docs/rules.md, "Odds"), the same on every screen and in the answers:
 * '37 % to survive', '12 % to win', 'Needs all of: …'. Never 'p=', never a decimal.
 */
import { plural } from './words.js';

/**
 * A chance (0..1) in whole percent: '37 %'. Only a certainty reads 0 % or 100 %: a chance above 0 but under
 * 1 % reads '<1 %', one above 99 % but short of certain '>99 %'.
 */
export function chanceText(p: number): string {
  if (p <= 0) return '0 %';
  if (p >= 1) return '100 %';
  if (p < 0.01) return '<1 %';
  if (p > 0.99) return '>99 %';
  return `${Math.round(p * 100)} %`;
}

/** '37 % to survive' (alive when round one completes). */
export function survivalText(p: number): string {
  return `${chanceText(p)} to survive`;
}

/** On the share card: '37 % to survive after pick 12' (before any pick: '… before the first pick'). */
export function survivalAfterPickText(p: number, picksMade: number): string {
  return `${survivalText(p)} ${picksMade === 0 ? 'before the first pick' : `after pick ${picksMade}`}`;
}

/** '12 % to win' (first, sharing it counts). */
export function winText(p: number): string {
  return `${chanceText(p)} to win`;
}

/** An entry's odds in the standings: '37 % to survive · 12 % to win'. */
export function standingOddsText(survive: number, win: number): string {
  return `${survivalText(survive)} · ${winText(win)}`;
}

/** The risk meter while picking: '12 picks · 8 % to survive round one'. */
export function riskMeterText(picks: number, p: number): string {
  return `${plural(picks, 'pick')} · ${chanceText(p)} to survive round one`;
}

/** One line of the kill list: 'Jalen Milroe · 58 % to miss round one'. */
export function killListItemText(name: string, misses: number): string {
  return `${name} · ${chanceText(misses)} to miss round one`;
}

/** What the entry needs: 'Needs all of: Milroe, Dart and Zabel' (one pick: 'Needs Milroe'); nothing pending: null. */
export function needsAllOfText(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return `Needs ${names[0]}`;
  return `Needs all of: ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
