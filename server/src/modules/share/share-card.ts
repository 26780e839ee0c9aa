/**
 * The share card: what it says (a pure model, built by share.service.ts) and how it is laid out (a tree of
 * elements satori lays out and draws, share-render.ts). No I/O here, so tests can read every word a card
 * will show before anything is drawn.
 */
import type { PickOutcome } from '@first-round/shared/scoring';
import { BUST_RULE, hitsText, placeText } from '@first-round/shared/entry-words';
import { survivalAfterPickText } from '@first-round/shared/odds-words';
import { plural, possessive } from '@first-round/shared/words';
import { pickLabel } from '@first-round/shared/teams';

export { ordinal } from '@first-round/shared/words';

export const CARD_SIZE = { width: 1200, height: 630 } as const;
export const BRAND = { navy: '#0b1f3a', gold: '#ffc53d', text: '#ffffff', muted: '#c9d6ea', hit: '#178046', miss: '#b42318', pending: '#1d3a63' } as const;
export const CARD_FONT = 'Barlow Condensed';
/** The same face's Latin Extended file under its own name: satori falls back to it glyph by glyph. */
export const CARD_FONT_EXT = 'Barlow Condensed Ext';
const CARD_FONTS = `${CARD_FONT}, ${CARD_FONT_EXT}`;

/**
 * Before the start a card holds how many picks are in and when they lock, and nothing that could name a
 * player; after it, the picks themselves and how the entry stands.
 */
export type ShareCard =
  | { phase: 'before'; name: string; group: string; picks: number; locks: string }
  | {
      phase: 'live';
      name: string;
      group: string;
      picks: number;
      hits: number;
      busted: boolean;
      /** null: the entry has no picks, so it is on no standings. */
      rank: number | null;
      /** Round one is over: the card says a result ('FINAL · 1st of 3'), never 'ALIVE'. */
      final: boolean;
      /** While round one runs and the entry is alive: its chance to survive (docs/rules.md, "Odds") and the picks made so far. */
      odds?: { survive: number; picksMade: number } | null;
      entries: number;
      chips: CardChip[];
    };

/** The badge beside the hits: while round one runs 'ALIVE' or 'BUSTED'; once it is final 'WINNER', 'SURVIVED' or 'BUSTED'. */
export type CardStatus = 'ALIVE' | 'BUSTED' | 'WINNER' | 'SURVIVED';
const BADGE_COLORS: Record<CardStatus, { bg: string; fg: string }> = {
  ALIVE: { bg: BRAND.hit, fg: BRAND.text },
  SURVIVED: { bg: BRAND.hit, fg: BRAND.text },
  WINNER: { bg: BRAND.gold, fg: BRAND.navy },
  BUSTED: { bg: BRAND.miss, fg: BRAND.text },
};
/** A pick on the card; a hit also says where he went and to whom (slot and team, null: not known). */
export interface CardChip {
  name: string;
  outcome: PickOutcome;
  slot?: number;
  team?: string | null;
}

/** A chip's words: a hit as every screen writes a pick ('Pick 18 · SEA · Grey Zabel'), else the name. */
export const chipLabel = (chip: CardChip) => (chip.slot === undefined ? chip.name : pickLabel(chip.slot, chip.team, chip.name));

/** The card's lines, as the picture and the page say them. */
export function cardLines(card: ShareCard) {
  if (card.phase === 'before') {
    return {
      headline: card.picks === 0 ? 'No picks yet' : `${plural(card.picks, 'pick')} in`,
      detail: `picks lock ${card.locks}`,
      title: `${card.name} · ${card.picks === 0 ? 'no picks yet' : `${plural(card.picks, 'pick')} in`} · First Round`,
      status: null as CardStatus | null,
      standing: null as string | null,
    };
  }
  const status: CardStatus | null = card.picks === 0 ? null : card.busted ? 'BUSTED' : !card.final ? 'ALIVE' : card.rank === 1 ? 'WINNER' : 'SURVIVED';
  const standing = card.rank === null ? null : placeText(card.rank, card.entries, card.final);
  const pending = card.chips.filter((c) => c.outcome === 'pending').length;
  return {
    headline: card.picks === 0 ? 'No picks' : hitsText(card),
    detail:
      card.picks === 0
        ? 'made no picks before the draft'
        : `${plural(card.picks, 'pick')}${pending ? ` · ${pending} pending` : ''}${card.odds && !card.busted && !card.final ? ` · ${survivalAfterPickText(card.odds.survive, card.odds.picksMade)}` : ''}`,
    title: `${card.name} · ${card.picks === 0 ? 'no picks' : hitsText(card)} · First Round`,
    status,
    standing,
  };
}

/** A sentence for the page and the picture's alt text. */
export function cardDescription(card: ShareCard): string {
  const lines = cardLines(card);
  const where = card.group === 'Global' ? 'on the global leaderboard' : `in ${card.group}`;
  if (card.phase === 'before') return `${possessive(card.name)} First Round entry ${where}: ${lines.headline}, ${lines.detail}.`;
  // A busted entry's headline says it already ('busted · had 9 hits'); the rule follows, in its one wording.
  const parts = [lines.headline, !card.busted && lines.status?.toLowerCase(), lines.standing].filter(Boolean);
  return `${possessive(card.name)} First Round entry ${where}: ${parts.join(', ')}.${card.busted ? ` ${BUST_RULE}` : ''}`;
}

// ------------------------------------------------------------------ layout (satori's element tree)

/** An element as satori takes it (React's shape, without React). */
export interface CardNode {
  type: string;
  props: { style?: Record<string, unknown>; children?: CardNode | string | (CardNode | string)[]; [attr: string]: unknown };
}

function h(type: string, style: Record<string, unknown>, ...children: (CardNode | string)[]): CardNode {
  return { type, props: { style, children: children.length === 1 ? children[0] : children } };
}
const svg = (size: number, children: CardNode[], viewBox = '0 0 24 24'): CardNode => ({
  type: 'svg',
  props: { width: size, height: size, viewBox, fill: 'none', children },
});
const path = (d: string, stroke: string, width = 3): CardNode => ({
  type: 'path',
  props: { d, stroke, 'stroke-width': width, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' },
});

/** The wordmark's football, as in the invite picture (scripts/render-og-image.ts). */
const football = (size: number): CardNode =>
  svg(size, [
    { type: 'ellipse', props: { cx: 12, cy: 12, rx: 10, ry: 6, transform: 'rotate(-45 12 12)', stroke: BRAND.gold, 'stroke-width': 1.8 } },
    path('M9 15 L15 9', BRAND.gold, 1.8),
    path('M10.5 10.5 L11.7 11.7', BRAND.gold, 1.8),
    path('M12.3 12.3 L13.5 13.5', BRAND.gold, 1.8),
  ]);

const MARKS: Record<PickOutcome, (size: number) => CardNode> = {
  hit: (size) => svg(size, [path('M5 12.5 L10 17.5 L19 7', BRAND.text)]),
  miss: (size) => svg(size, [path('M6 6 L18 18', BRAND.text), path('M18 6 L6 18', BRAND.text)]),
  pending: (size) => svg(size, [{ type: 'circle', props: { cx: 12, cy: 12, r: 4, fill: BRAND.muted } }]),
};
const CHIP_BG: Record<PickOutcome, string> = { hit: BRAND.hit, miss: BRAND.miss, pending: BRAND.pending };

/**
 * Where the chips go: the card's inner width, and the height left between the stats and the footer (the
 * 630 px card less its margins, the header, the name, one line of stats, the footer and the gaps between).
 * A second line of stats (a long headline with its badge and place) takes one more line from it.
 */
const CHIP_AREA = { width: 1072, height: 226, statsLine: 80 };
const CHIP_GAP = 10;
/**
 * A text's width in the card's condensed bold face, rounded up: a space 0.22 em, a capital 0.5, the rest
 * 0.4 (drawn, a chip's label measured ~12 % and a headline ~3 % narrower than this says).
 */
function textWidth(text: string, fontSize: number): number {
  let em = 0;
  for (const ch of text) em += ch === ' ' ? 0.22 : /[A-Z@#%&]/.test(ch) ? 0.5 : 0.4;
  return Math.ceil(em * fontSize);
}

interface ChipSize {
  small: boolean;
  fontSize: number;
  /** Padding and mark beside the label. */
  chrome: number;
  height: number;
}
const chipSize = (small: boolean): ChipSize =>
  small ? { small, fontSize: 21, chrome: 8 + 12 + 20 + 6, height: 35 } : { small, fontSize: 26, chrome: 10 + 16 + 24 + 6, height: 47 };

const labelMax = (chip: CardChip) => (chip.slot === undefined ? 300 : 460);
/** A chip's width as laid out (its label cut at its maximum, as the chip itself cuts it). */
const chipWidth = (label: string, max: number, size: ChipSize) => size.chrome + Math.min(max, textWidth(label, size.fontSize));
const moreLabel = (n: number) => `+${n} more`;

/**
 * How many chips the card shows, the rest folded into '+N more': packed in rows as flex-wrap lays them out,
 * as many rows as the height left holds. Every chip shown is whole; none is hidden under the footer.
 */
export function chipLayout(card: Extract<ShareCard, { phase: 'live' }>, statsLines = 1): { shown: number; more: number; rows: number; size: ChipSize; height: number } {
  const size = chipSize(card.chips.length > 12);
  const height = CHIP_AREA.height - (statsLines - 1) * CHIP_AREA.statsLine;
  const maxRows = Math.max(1, Math.floor((height + CHIP_GAP) / (size.height + CHIP_GAP)));
  const widths = card.chips.map((chip) => chipWidth(chipLabel(chip), labelMax(chip), size));
  /** Rows used by the first `n` chips (and a '+N more' chip after them when `more` > 0). */
  const rowsFor = (n: number, more: number) => {
    let rows = 1;
    let used = 0;
    for (const w of [...widths.slice(0, n), ...(more > 0 ? [chipWidth(moreLabel(more), 300, size)] : [])]) {
      const next = used === 0 ? w : used + CHIP_GAP + w;
      if (next > CHIP_AREA.width && used > 0) {
        rows += 1;
        used = w;
      } else used = next;
    }
    return rows;
  };
  let shown = card.chips.length;
  while (shown > 0 && rowsFor(shown, card.chips.length - shown) > maxRows) shown -= 1;
  return { shown, more: card.chips.length - shown, rows: rowsFor(shown, card.chips.length - shown), size, height };
}

/** The chips' layout as the card draws them (its stats taking one line or two). */
export const cardChipLayout = (card: Extract<ShareCard, { phase: 'live' }>) => chipLayout(card, statsLines(cardLines(card)));

/** Lines the stats take: the headline, the badge, the place and the detail, wrapped at the card's width. */
function statsLines(lines: ReturnType<typeof cardLines>): number {
  const widths = [
    textWidth(lines.headline, 58),
    ...(lines.status ? [textWidth(lines.status, 34) + 36 + 3 * lines.status.length] : []),
    ...(lines.standing ? [textWidth(lines.standing, 42)] : []),
    textWidth(lines.detail, 30),
  ];
  let rows = 1;
  let used = 0;
  for (const w of widths) {
    const next = used === 0 ? w : used + 22 + w;
    if (next > CHIP_AREA.width && used > 0) {
      rows += 1;
      used = w;
    } else used = next;
  }
  return rows;
}

function chipsOf(card: ShareCard): CardNode[] {
  if (card.phase === 'before') {
    // One blank tile per pick: how many, never which.
    return Array.from({ length: card.picks }, () =>
      h('div', { display: 'flex', width: 44, height: 44, borderRadius: 10, border: `2px solid ${BRAND.gold}`, alignItems: 'center', justifyContent: 'center', color: BRAND.gold, fontSize: 26, fontWeight: 700 }, '?'),
    );
  }
  const { shown, more, size } = cardChipLayout(card);
  const { small, fontSize } = size;
  const chips = card.chips.slice(0, shown).map((chip) =>
    h(
      'div',
      { display: 'flex', alignItems: 'center', gap: 6, padding: small ? '5px 12px 5px 8px' : '8px 16px 8px 10px', borderRadius: 10, backgroundColor: CHIP_BG[chip.outcome], color: BRAND.text, fontSize, fontWeight: 700 },
      MARKS[chip.outcome](small ? 20 : 24),
      // A hit's label is longer (slot and team before the name): it gets more room before it is cut.
      h('div', { display: 'flex', maxWidth: labelMax(chip), overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }, chipLabel(chip)),
    ),
  );
  if (more > 0) {
    chips.push(h('div', { display: 'flex', alignItems: 'center', padding: '5px 12px', borderRadius: 10, border: `2px solid ${BRAND.muted}`, color: BRAND.muted, fontSize, fontWeight: 700 }, moreLabel(more)));
  }
  return chips;
}

function badge(status: CardStatus): CardNode {
  const colors = BADGE_COLORS[status];
  return h(
    'div',
    { display: 'flex', padding: '6px 18px', borderRadius: 10, backgroundColor: colors.bg, color: colors.fg, fontSize: 34, fontWeight: 800, letterSpacing: 3 },
    status,
  );
}

/** The card laid out: 1200×630, navy with gold accents, the wordmark on top. */
export function cardElement(card: ShareCard): CardNode {
  const lines = cardLines(card);
  const header = h(
    'div',
    { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 24 },
    h('div', { display: 'flex', alignItems: 'center', gap: 16, fontSize: 38, fontWeight: 800, letterSpacing: 6, color: BRAND.text }, football(54), 'FIRST ROUND'),
    h(
      'div',
      { display: 'flex', flexShrink: 1, minWidth: 0, maxWidth: 560, padding: '6px 18px', borderRadius: 999, border: `2px solid ${BRAND.gold}`, color: BRAND.gold, fontSize: 28, fontWeight: 700, letterSpacing: 2, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' },
      card.group.toUpperCase(),
    ),
  );
  const name = h('div', { display: 'flex', fontSize: 80, fontWeight: 800, color: BRAND.text, lineHeight: 1, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis', maxWidth: 1072 }, card.name);
  const stats: CardNode[] = [h('div', { display: 'flex', fontSize: 58, fontWeight: 800, color: BRAND.gold, lineHeight: 1 }, lines.headline)];
  if (lines.status) stats.push(badge(lines.status));
  if (lines.standing) stats.push(h('div', { display: 'flex', fontSize: 42, fontWeight: 700, color: BRAND.text }, lines.standing));
  stats.push(h('div', { display: 'flex', fontSize: 30, fontWeight: 500, color: BRAND.muted }, lines.detail));
  const footer = h(
    'div',
    { display: 'flex', justifyContent: 'space-between', fontSize: 26, fontWeight: 500, color: BRAND.muted },
    h('div', { display: 'flex' }, 'Pick who goes in round one. One miss and you’re out.'),
    h('div', { display: 'flex', color: BRAND.gold, fontWeight: 700 }, 'Play First Round'),
  );
  // satori sizes boxes without their padding: the content is a margin's width inside the 1200×630 card.
  return h(
    'div',
    { display: 'flex', position: 'relative', width: CARD_SIZE.width, height: CARD_SIZE.height, backgroundColor: BRAND.navy, fontFamily: CARD_FONTS, color: BRAND.text },
    h(
      'div',
      { display: 'flex', flexDirection: 'column', flexGrow: 1, margin: '44px 64px 40px', gap: 24, minWidth: 0 },
      header,
      name,
      h('div', { display: 'flex', alignItems: 'center', gap: 22, flexWrap: 'wrap' }, ...stats),
      h('div', { display: 'flex', flexWrap: 'wrap', gap: 10, overflow: 'hidden', flexGrow: 1, flexShrink: 1, alignContent: 'flex-start' }, ...chipsOf(card)),
      footer,
    ),
    h('div', { display: 'flex', position: 'absolute', left: 0, bottom: 0, width: CARD_SIZE.width, height: 10, backgroundColor: BRAND.gold }),
  );
}

/** Every piece of text the card draws, in order (what tests read). */
export function cardText(node: CardNode | string): string[] {
  if (typeof node === 'string') return [node];
  const children = node.props.children;
  if (children === undefined) return [];
  return (Array.isArray(children) ? children : [children]).flatMap(cardText);
}
