import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { espnAdapter, genericAdapter } from '../../server/src/modules/feed/feed.adapters.js';
import { matchPlayer } from '../../server/src/modules/feed/feed.match.js';
import { FEED_SPELLINGS, fixtureFeed, picksMadeAt, type RoundOnePick } from './fixture-feed.js';

const picks = (
  JSON.parse(fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/round-one-2025.json'), 'utf8')) as { picks: RoundOnePick[] }
).picks;

describe('the fixture feed (npm run feed:fixture)', () => {
  it('shows one more pick every interval, up to the whole round', () => {
    expect(picksMadeAt(32, 0, 1000)).toBe(1);
    expect(picksMadeAt(32, 2500, 1000)).toBe(3);
    expect(picksMadeAt(32, 10_000_000, 1000)).toBe(32);
  });

  it('is read back by both adapters, each pick with the team that made it', () => {
    expect(genericAdapter(fixtureFeed(picks, 3, 'generic')).map((p) => [p.playerName, p.team])).toEqual([
      ['Cam Ward', 'TEN'],
      ['Travis Hunter', 'JAX'],
      ['Abdul Carter', 'NYG'],
    ]);
    const espn = espnAdapter(fixtureFeed(picks, 2, 'espn'));
    expect(espn).toEqual([
      { overall: 1, round: 1, playerName: 'Cam Ward', school: 'Miami', position: 'QB', team: 'TEN' },
      { overall: 2, round: 1, playerName: 'Travis Hunter', school: 'Colorado', position: 'CB', team: 'JAX' },
    ]);
    // Every team of the round, traded picks included, read back as the order has it.
    expect(espnAdapter(fixtureFeed(picks, 32, 'espn')).map((p) => p.team)).toEqual(picks.map((p) => p.team));
  });

  it('spells two picks as a real feed might, which the server queues for the operator with the right player suggested', () => {
    // The default big board (rank,player_name,position,school), as the server matches against it.
    const csv = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/players-2025.csv'), 'utf8');
    const board = csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','))
      .map(([rank, playerName, , school]) => ({ id: Number(rank), playerName: playerName!, school: school! }));
    const feed = genericAdapter(fixtureFeed(picks, 32, 'generic'));
    const matches = feed.map((f) => ({ feed: f.playerName, match: matchPlayer(f, board) }));
    const queued = matches.filter((m) => m.match.kind !== 'exact' && m.match.kind !== 'normalised');
    expect(queued.map((m) => [m.feed, m.match.kind, m.match.player?.playerName])).toEqual(
      Object.entries(FEED_SPELLINGS).map(([real, spelt]) => [spelt, 'fuzzy', real]),
    );
  });
});
