/**
 * The share card's chips as laid out (its layout inputs, no picture drawn): every chip it draws is whole,
 * in the rows the card has room for, and the ones that do not fit are counted in '+N more' exactly.
 */
import { describe, expect, it } from 'vitest';
import { cardElement, cardText, chipLabel, chipLayout, type CardChip, type ShareCard } from '../../src/modules/share/share-card';

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
    const layout = chipLayout(entry, 2);
    expect(layout.shown + layout.more).toBe(32);
    expect(layout.more).toBeGreaterThan(0);
    // The rows used fit the height left with two lines of stats (a busted headline, its badge and place).
    expect(layout.rows * (layout.size.height + 10) - 10).toBeLessThanOrEqual(ROOM - 80);
    const text = cardText(cardElement(entry));
    const drawn = chips.filter((c) => text.includes(chipLabel(c))).length;
    expect(text).toContain(`+${layout.more} more`);
    // Chips of the same label count once in `drawn`: check the first `shown` labels are all there and the next is not.
    expect(chips.slice(0, layout.shown).every((c) => text.includes(chipLabel(c)))).toBe(true);
    expect(drawn).toBeGreaterThan(0);
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
