import fs from 'node:fs';
import path from 'node:path';
import { parseBoardCsv } from '../../shared/src/players-csv.js';

/** The bundled 2025 board's ranks and its round one's picks as board ranks, in slot order. */
export function roundOne2025Ranks(root: string): { boardRanks: number[]; pickRanks: number[] } {
  const parsed = parseBoardCsv(fs.readFileSync(path.join(root, 'shared/data/players-2025.csv'), 'utf8'));
  if (!parsed.ok) throw new Error('the bundled board does not parse');
  const rankOf = new Map(parsed.rows.map((r) => [r.player_name.toLowerCase(), r.rank]));
  const round = JSON.parse(fs.readFileSync(path.join(root, 'shared/data/round-one-2025.json'), 'utf8')) as { picks: { slot: number; player_name: string }[] };
  const pickRanks = [...round.picks].sort((a, b) => a.slot - b.slot).map((p) => {
    const rank = rankOf.get(p.player_name.toLowerCase());
    if (rank === undefined) throw new Error(`${p.player_name} is not on the bundled board`);
    return rank;
  });
  return { boardRanks: parsed.rows.map((r) => r.rank), pickRanks };
}
