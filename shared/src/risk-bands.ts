/**
 * Risk bands on the selection screen: how likely the big board says a player goes in round one. By rank
 * unless the board names a player's band itself (the optional `band` column of the board CSV), so whoever
 * maintains the board can move a player or redraw the bands without a release. Pure: no I/O.
 */

export const RISK_BANDS = ['safe', 'bubble', 'long_shot'] as const;
export type RiskBand = (typeof RISK_BANDS)[number];

/** The bands a rank falls in when the board does not say: safe #1–20, bubble #21–40, long shot #41 on. */
export const DEFAULT_BAND_LIMITS = { safe: 20, bubble: 40 } as const;

export const RISK_BAND_LABELS: Record<RiskBand, string> = { safe: 'Safe', bubble: 'Bubble', long_shot: 'Long shot' };

export function bandForRank(rank: number): RiskBand {
  if (rank <= DEFAULT_BAND_LIMITS.safe) return 'safe';
  if (rank <= DEFAULT_BAND_LIMITS.bubble) return 'bubble';
  return 'long_shot';
}

/** A band as written in a board file: 'safe', 'bubble', 'long shot' (or long_shot, long-shot, longshot). */
export function parseBand(raw: string): RiskBand | null {
  const key = raw.trim().toLowerCase().replace(/[\s_-]+/g, '_');
  if (key === 'longshot') return 'long_shot';
  return (RISK_BANDS as readonly string[]).includes(key) ? (key as RiskBand) : null;
}

interface RankedPlayer {
  rank: number;
  band: RiskBand;
}

/** The pick the board likes least (the highest rank number): the one most likely to bust the entry. */
export function riskiestPick<T extends { rank: number }>(players: readonly T[]): T | null {
  let worst: T | null = null;
  for (const p of players) if (!worst || p.rank > worst.rank) worst = p;
  return worst;
}

export type BandRange = { band: RiskBand; from: number; to: number | null };

/**
 * Each band's rank range for the legend ('Safe #1–20', 'Long shot #41+'), when the board's bands are
 * contiguous runs in rank order (the default, or limits moved by the board); null when a board mixes them
 * (then the legend names the bands without ranges). A band nobody is in is left out.
 */
export function bandRanges(players: readonly RankedPlayer[]): BandRange[] | null {
  const sorted = [...players].sort((a, b) => a.rank - b.rank);
  const runs: BandRange[] = [];
  for (const p of sorted) {
    const last = runs[runs.length - 1];
    if (last && last.band === p.band) last.to = p.rank;
    else runs.push({ band: p.band, from: p.rank, to: p.rank });
  }
  const order = runs.map((r) => RISK_BANDS.indexOf(r.band));
  if (order.some((o, i) => i > 0 && o <= order[i - 1]!)) return null;
  const last = runs[runs.length - 1];
  if (last) last.to = null; // the last band runs to the end of the board, whatever its length
  return runs;
}

export function formatBandRange(range: BandRange): string {
  if (range.to === null) return `#${range.from}+`;
  return range.from === range.to ? `#${range.from}` : `#${range.from}–${range.to}`;
}
