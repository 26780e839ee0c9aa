import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The game's rules are written once (shared/src/scoring.ts, with contention.ts for who can still win), so a
 * rule changes in one place: the order of the standings (score, then the tie-break, then participant id)
 * is `rankKey` and `ranksBefore`, every ranking is `rankCounts` ordering by them, and nothing else in the
 * project (the server, its SQL, the scripts, the web app) sorts or ranks entries by their score. Read from
 * the sources: every project file but tests and the migrations (which are history, frozen as they ran).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const RULES = ['shared/src/scoring.ts', 'shared/src/contention.ts'];

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!['node_modules', 'dist', 'migrations'].includes(entry.name)) sources(rel, out);
    } else if (/\.(ts|tsx|mts|mjs)$/.test(entry.name) && !/\.(test|e2e)\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

const files = ['server/src', 'shared/src', 'client/src', 'scripts'].flatMap((dir) => sources(dir));
const text = new Map(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
/** Files (outside the rules) with a line matching `pattern`, as `file: line`. */
const linesMatching = (pattern: RegExp) =>
  [...text]
    .filter(([file]) => !RULES.includes(file))
    .flatMap(([file, source]) => source.split('\n').filter((line) => pattern.test(line)).map((line) => `${file}: ${line.trim()}`));

describe('the rules, once', () => {
  it('the order is one key and one comparator, and the one ranking function orders by them', () => {
    const scoring = text.get('shared/src/scoring.ts')!;
    for (const name of ['rankKey', 'ranksBefore', 'sameRank']) expect(scoring).toMatch(new RegExp(`export function ${name}\\(`));
    // rankCounts scores with rankKey, orders with ranksBefore (the sort of moved entries and the merge) and
    // shares ranks with sameRank; rankEntries is rankCounts on objects.
    const body = (fn: string) => scoring.slice(scoring.indexOf(`function ${fn}(`), scoring.indexOf('\n}\n', scoring.indexOf(`function ${fn}(`)));
    expect(body('rankCounts')).toMatch(/rankKey\(/);
    expect(body('rankCounts')).toMatch(/sameRank\(/);
    expect(body('sortedMoved')).toMatch(/ranksBefore\(/);
    expect(body('merged')).toMatch(/ranksBefore\(/);
    expect(body('rankEntries')).toMatch(/rankCounts\(/);
  });

  it('every standings is ranked by rankCounts: the global one, every group, the season archive, rankEntries', () => {
    const callers = [...text].filter(([, source]) => /\brankCounts\(/.test(source)).map(([file]) => file);
    expect(callers.sort()).toEqual(['server/src/modules/leaderboard/ranking.ts', 'shared/src/scoring.ts']);
    const ranking = text.get('server/src/modules/leaderboard/ranking.ts')!;
    expect(ranking).toMatch(/export function rankGlobal\(/);
    expect(ranking).toMatch(/export function rankGroup\(/);
    // Standings rows come from a Ranking (its rows made from a RankedOrder), made there alone.
    expect(linesMatching(/new Ranking\(/).every((line) => line.startsWith('server/src/modules/leaderboard/ranking.ts:'))).toBe(true);
    for (const [file, uses] of [
      ['server/src/modules/leaderboard/global-standings.ts', /rankGlobal\(/],
      ['server/src/modules/leaderboard/leaderboard.cache.ts', /rankGroup\(/],
      ['server/src/modules/seasons/seasons.service.ts', /rankGlobal\(book\) : rankGroup\(/],
    ] as const) {
      expect(text.get(file), file).toMatch(uses);
    }
  });

  it('nothing else restates the order: no SQL orders or ranks by score, no comparator on scores or tie-breaks', () => {
    expect(linesMatching(/order by[^`'"]*\b(correct_picks|tiebreak_rank|hits)\b/i)).toEqual([]);
    expect(linesMatching(/\b(rank|dense_rank)\(\)\s*over/i)).toEqual([]);
    expect(linesMatching(/\b(correct_?[pP]icks|tiebreak_?[rR]ank)\b[^;]*\s[-<>]=?\s/)).toEqual([]);
    expect(linesMatching(/\.sort\([^)]*\b(correct_?[pP]icks|tiebreak_?[rR]ank)\b/)).toEqual([]);
  });
});
