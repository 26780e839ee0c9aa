/**
 * Matching a feed's pick to the big board (docs/decisions.md, "Results feed"). In order:
 * 1. exact: the feed's name is a board name, character for character → recorded;
 * 2. normalised: names equal once case, accents, punctuation and suffixes (Jr., Sr., II–V) are dropped,
 *    and the schools equal the same way → recorded;
 * 3. fuzzy: the closest board name by a bigram (Dice) similarity, at least FUZZY_THRESHOLD, with the school
 *    counted in → only suggested, queued for the operator to confirm;
 * 4. none: queued with no suggestion (the operator chooses the player).
 */

export interface BoardPlayer {
  id: number;
  playerName: string;
  school: string;
}

export type Match<P extends BoardPlayer> =
  | { kind: 'exact' | 'normalised'; player: P; score: 1 }
  | { kind: 'fuzzy'; player: P; score: number }
  | { kind: 'none'; player: null; score: number };

export const FUZZY_THRESHOLD = 0.55;

const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

export function normaliseName(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[.'’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

export function normaliseSchool(school: string): string {
  return school
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\bst\b\.?/g, 'state')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function bigrams(s: string): Map<string, number> {
  const grams = new Map<string, number>();
  const padded = ` ${s} `;
  for (let i = 0; i < padded.length - 1; i++) {
    const g = padded.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Dice's coefficient on character bigrams: 1 for equal strings, 0 for nothing in common. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let common = 0;
  let total = 0;
  for (const n of ga.values()) total += n;
  for (const n of gb.values()) total += n;
  for (const [g, n] of ga) common += Math.min(n, gb.get(g) ?? 0);
  return total === 0 ? 0 : (2 * common) / total;
}

export function matchPlayer<P extends BoardPlayer>(feed: { playerName: string; school: string }, board: readonly P[]): Match<P> {
  const exact = board.filter((p) => p.playerName === feed.playerName);
  if (exact.length === 1) return { kind: 'exact', player: exact[0]!, score: 1 };
  const name = normaliseName(feed.playerName);
  const school = normaliseSchool(feed.school);
  const normalised = board.filter((p) => normaliseName(p.playerName) === name && normaliseSchool(p.school) === school);
  if (normalised.length === 1) return { kind: 'normalised', player: normalised[0]!, score: 1 };
  let best: P | null = null;
  let bestScore = 0;
  for (const p of board) {
    const score = 0.8 * similarity(name, normaliseName(p.playerName)) + 0.2 * similarity(school, normaliseSchool(p.school));
    if (score > bestScore) {
      best = p;
      bestScore = score;
    }
  }
  const score = Math.round(bestScore * 1000) / 1000;
  return best && bestScore >= FUZZY_THRESHOLD ? { kind: 'fuzzy', player: best, score } : { kind: 'none', player: null, score };
}
