/**
 * The share card's chips as laid out (its layout inputs, no picture drawn): every chip it draws is whole,
 * in the rows the card has room for, and the ones that do not fit are counted in '+N more' exactly.
 */
import { describe, expect, it } from 'vitest';
import { cardChipLayout, cardElement, cardText, chipLabel, chipLayout, type CardChip, type ShareCard } from '../../src/modules/share/share-card';

type LiveCard = Extract<ShareCard, { phase: 'live' }>;

const NAMES = ['Tetairoa McMillan', 'Shedeur Sanders', 'Nick Scourton', 'Mykel Williams', 'Walter Nolen', 'Jahdae Barron', 'Kelvin Banks Jr.', 'Omarion Hampton'];

function card(chips: CardChip[], busted = false): LiveCard {
  return { phase: 'live', name: 'BigEntry', group: 'Global', picks: chips.length, hits: chips.filter((c) => c.outcome === 'hit').length, busted, rank: 12, final: true, entries: 302, chips };
}

/** Rows the card has room for, as its fixed parts leave them (kept in step with share-card.ts). */
const ROOM = 226;

describe('share card chips', () => {
  it('a large entry (32 picks, long hit labels) draws only whole chips in the rows it has, and counts the rest exactly', () => {
    const chips: CardChip[] = Array.from({ length: 32 }, (_, i) => (i % 3 === 2 ? { name: NAMES[i % NAMES.length]!, outcome: 'miss' as const } : { name: NAMES[i % NAMES.length]!, outcome: 'hit' as const, slot: i + 1, team: 'SEA' }));
    const entry = card(chips, true);
    // With two lines of stats (a long headline, its badge and place) fewer rows are left; with one, more.
    const tight = chipLayout(entry, 2);
    expect(tight.rows * (tight.size.height + 10) - 10).toBeLessThanOrEqual(ROOM - 80);
    const layout = cardChipLayout(entry);
    expect(layout.shown + layout.more).toBe(32);
    expect(layout.more).toBeGreaterThan(0);
    expect(layout.shown).toBeGreaterThanOrEqual(tight.shown);
    // The rows used fit the height the card leaves them.
    expect(layout.rows * (layout.size.height + 10) - 10).toBeLessThanOrEqual(layout.height);
    expect(layout.height).toBeLessThanOrEqual(ROOM);
    const text = cardText(cardElement(entry));
    // Drawn: the first `shown` chips whole, then the count of the rest.
    expect(text).toContain(`+${layout.more} more`);
    expect(chips.slice(0, layout.shown).every((c) => text.includes(chipLabel(c)))).toBe(true);
    expect(text.filter((t) => chips.some((c) => chipLabel(c) === t)).length).toBe(layout.shown);
  });

  it('a small entry shows every chip and no "+N"', () => {
    const chips: CardChip[] = NAMES.slice(0, 5).map((name, i) => ({ name, outcome: 'hit', slot: i + 1, team: 'NYG' }));
    const layout = chipLayout(card(chips));
    expect(layout).toMatchObject({ shown: 5, more: 0 });
    expect(cardText(cardElement(card(chips))).some((t) => /^\+\d+ more$/.test(t))).toBe(false);
  });

  it('12 hits of the longest labels, drawn large, still fit or fold', () => {
    const chips: CardChip[] = Array.from({ length: 12 }, (_, i) => ({ name: 'Tetairoa McMillan Jr.', outcome: 'hit', slot: i + 20, team: 'SEA' }));
    const layout = chipLayout(card(chips));
    expect(layout.rows * (layout.size.height + 10) - 10).toBeLessThanOrEqual(ROOM);
    expect(layout.shown + layout.more).toBe(12);
  });
});
