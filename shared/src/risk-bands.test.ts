import { describe, expect, it } from 'vitest';
import { bandForRank, bandRanges, formatBandRange, parseBand, riskiestPick, type RiskBand } from './risk-bands.js';

const board = (bands: RiskBand[]) => bands.map((band, i) => ({ rank: i + 1, band }));

describe('risk bands', () => {
  it('puts ranks 1–20 in safe, 21–40 in bubble and 41 on in long shot by default', () => {
    expect([1, 20, 21, 40, 41, 200].map(bandForRank)).toEqual(['safe', 'safe', 'bubble', 'bubble', 'long_shot', 'long_shot']);
  });

  it('reads the bands a board file may write, and nothing else', () => {
    expect(['safe', ' Bubble ', 'long shot', 'LONG_SHOT', 'long-shot', 'longshot'].map(parseBand)).toEqual(['safe', 'bubble', 'long_shot', 'long_shot', 'long_shot', 'long_shot']);
    expect(parseBand('risky')).toBeNull();
    expect(parseBand('')).toBeNull();
  });

  it('names the riskiest pick: the one lowest on the board', () => {
    expect(riskiestPick([{ rank: 3, n: 'a' }, { rank: 35, n: 'b' }, { rank: 12, n: 'c' }])?.n).toBe('b');
    expect(riskiestPick([])).toBeNull();
  });

  it('gives each band its range when the bands run in order, the last one open-ended', () => {
    const ranges = bandRanges(board([...Array(20).fill('safe'), ...Array(20).fill('bubble'), ...Array(5).fill('long_shot')]));
    expect(ranges?.map(formatBandRange)).toEqual(['#1–20', '#21–40', '#41+']);
  });

  it('follows limits moved by the board, and leaves out an empty band', () => {
    const ranges = bandRanges(board(['safe', 'safe', 'long_shot', 'long_shot']));
    expect(ranges).toEqual([
      { band: 'safe', from: 1, to: 2 },
      { band: 'long_shot', from: 3, to: null },
    ]);
    expect(formatBandRange({ band: 'safe', from: 7, to: 7 })).toBe('#7');
  });

  it('gives no ranges for a board that mixes the bands', () => {
    expect(bandRanges(board(['safe', 'bubble', 'safe', 'long_shot']))).toBeNull();
    expect(bandRanges(board(['bubble', 'safe']))).toBeNull();
  });
});
