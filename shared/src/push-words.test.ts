import { describe, expect, it } from 'vitest';
import { bestPlace, finalText, pickText, reminderHeadline, type EntryAtPick, type FinalPlace } from './push-words.js';

const after = (filledSlots: number) => ({ roundOnePicks: 32, filledSlots, roundOneCompleteMarked: false });
const entry = (e: Partial<EntryAtPick>): EntryAtPick => ({ groupId: null, holds: false, picks: 3, hits: 0, laterRound: 0, maxHitRank: null, ...e });
const ward = { slot: 1, team: 'TEN', playerName: 'Cam Ward' };

describe('what a pick tells a player', () => {
  it('tells a pick of theirs taken, with the hits and the state of the entry after it', () => {
    expect(pickText(ward, [entry({ holds: true, hits: 1, maxHitRank: 1 })], after(1))).toEqual({
      title: '✓ Cam Ward — Pick 1 · TEN',
      body: '1 hit · Alive',
      tag: 'first-round-picks',
      url: '/my-picks',
    });
  });

  it('speaks for the set holding him with the most hits, an alive one before a busted one', () => {
    const text = pickText({ ...ward, slot: 30 }, [entry({ holds: true, hits: 1, picks: 5 }), entry({ groupId: 7, holds: true, hits: 2, picks: 2 })], after(30));
    // The global entry (5 picks, 4 waiting, 2 slots left) is busted; the group's is alive with 2 hits.
    expect(text).toMatchObject({ body: '2 hits · Alive', url: '/groups/7/picks' });
    expect(pickText({ ...ward, slot: 30 }, [entry({ holds: true, hits: 1, picks: 5 })], after(30))).toMatchObject({ body: 'busted · had 1 hit' });
  });

  it('tells an entry busted by this pick: more picks waiting than slots left', () => {
    // 3 picks waiting: 3 slots were left before pick 30, 2 after it.
    expect(pickText({ slot: 30, team: 'BUF', playerName: 'Someone Else' }, [entry({ groupId: 4 })], after(30))).toEqual({
      title: '✗ Busted at Pick 30 · BUF — Someone Else',
      body: '3 picks still pending, only 2 slots left in round one.',
      tag: 'first-round-picks',
      url: '/groups/4/picks',
    });
    // Busted before this pick already: nothing new to say.
    expect(pickText({ slot: 31, team: 'BUF', playerName: 'Someone Else' }, [entry({ groupId: 4 })], after(31))).toBeNull();
    // Still possible: nothing.
    expect(pickText({ slot: 2, team: 'CLE', playerName: 'Travis Hunter' }, [entry({})], after(2))).toBeNull();
  });
});

describe('the final result', () => {
  const place = (p: Partial<FinalPlace>): FinalPlace => ({ groupId: 3, groupName: 'Sunday Squad', rank: 2, entries: 12, hits: 9, picks: 9, busted: false, missed: [], ...p });

  it('says the hits and the place in the group, and a tap opens the group', () => {
    expect(finalText(place({}))).toEqual({ title: 'Final: 9 of 9 hit · 2nd of 12 in Sunday Squad', body: 'Round one is complete: see the final standings.', tag: 'first-round-picks', url: '/groups/3' });
    expect(finalText(place({ groupId: null, groupName: null, rank: 40, entries: 5000 }))).toMatchObject({ title: 'Final: 9 of 9 hit · 40th of 5000 on the global leaderboard', url: '/leaderboard' });
  });

  it('names the picks round one ended without for a busted entry', () => {
    expect(finalText(place({ busted: true, hits: 3, picks: 5, missed: ['Shedeur Sanders', 'A', 'B'] }))).toMatchObject({
      title: 'Final · busted · had 3 hits · 2nd of 12 in Sunday Squad',
      body: 'Round one ended without Shedeur Sanders and 2 more.',
    });
  });

  it('tells the best placement: surviving first, then rank, then the bigger field', () => {
    const busted = place({ groupId: 1, busted: true, rank: 1 });
    const second = place({ groupId: 2, rank: 2, entries: 12 });
    const firstOfThree = place({ groupId: 3, rank: 1, entries: 3 });
    const firstOfTen = place({ groupId: 4, rank: 1, entries: 10 });
    expect(bestPlace([busted, second, firstOfThree, firstOfTen])?.groupId).toBe(4);
    expect(bestPlace([busted, second])?.groupId).toBe(2);
  });
});

describe('the reminder', () => {
  it('names the one group missing, else the game', () => {
    expect(reminderHeadline('1 hour left', [{ groupId: 5, groupName: 'Sunday Squad' }])).toBe('Your picks for Sunday Squad are not in: 1 hour left');
    expect(reminderHeadline('1 hour left', [{ groupId: null, groupName: null }, { groupId: 5, groupName: 'Sunday Squad' }])).toBe('Your First Round picks are not in: 1 hour left');
  });
});
