import type { SeasonSummary } from '@first-round/shared/schemas';
import { plural } from '@first-round/shared/words';

/** "2025 winner: AliceDrafts, 9 hits" (ties: "2025 winners: Ann and Bob, 9 hits"); null without entries. */
export function winnerLine(season: Pick<SeasonSummary, 'year' | 'winners' | 'winning_score'>): string | null {
  if (season.winners.length === 0) return null;
  const names = season.winners.map((w) => w.participant_name);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${season.year} winner${names.length > 1 ? 's' : ''}: ${list}, ${plural(season.winning_score ?? 0, 'hit')}`;
}

/** Closed seasons that have final standings where asked (globally, or in the group). */
export function pastSeasons(seasons: readonly SeasonSummary[] | undefined): SeasonSummary[] {
  return (seasons ?? []).filter((s) => !s.current && s.entries !== null);
}
