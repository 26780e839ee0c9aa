import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import satori, { type SatoriOptions } from 'satori';
import { renderAsync } from '@resvg/resvg-js';
import { CappedCache } from '../../cache/capped.js';
import { CARD_FONT, CARD_FONT_EXT, CARD_SIZE, cardElement, type ShareCard } from './share-card.js';

/**
 * Share cards drawn here, with no service outside the process: satori lays the card out and turns its
 * text into outlines (an SVG that needs no font), resvg draws that SVG into a PNG. The font is the web
 * app's own, Barlow Condensed, from its npm package (satori reads WOFF; WOFF2 it cannot).
 */

type Fonts = SatoriOptions['fonts'];
const WEIGHTS = [500, 700, 800] as const;
/** Latin and Latin Extended (names like Łukasz or Dvořák); glyphs outside them are drawn as boxes. */
const SUBSETS = ['latin', 'latin-ext'] as const;

let fonts: Promise<Fonts> | undefined;

/** The font files, read once. The package's entry is its CSS, beside which `files/` holds the fonts. */
function loadFonts(): Promise<Fonts> {
  fonts ??= (async () => {
    const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@fontsource/barlow-condensed')), 'files');
    const files = SUBSETS.flatMap((subset) => WEIGHTS.map((weight) => ({ subset, weight })));
    return Promise.all(
      files.map(async ({ subset, weight }) => ({
        name: subset === 'latin' ? CARD_FONT : CARD_FONT_EXT,
        weight,
        style: 'normal' as const,
        data: await fs.readFile(path.join(dir, `barlow-condensed-${subset}-${weight}-normal.woff`)),
      })),
    );
  })();
  fonts.catch(() => (fonts = undefined));
  return fonts;
}

/** The card as SVG (text as outlines). */
export async function cardSvg(card: ShareCard): Promise<string> {
  return satori(cardElement(card) as unknown as Parameters<typeof satori>[0], { ...CARD_SIZE, fonts: await loadFonts() });
}

/** The card as a 1200×630 PNG. resvg draws on libuv's thread pool, not on the event loop. */
export async function renderCardPng(card: ShareCard): Promise<Buffer> {
  const svg = await cardSvg(card);
  const image = await renderAsync(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } });
  return image.asPng();
}

/** What a card draws, as a short hash: the PNG's cache key and ETag. */
export function cardHash(card: ShareCard): string {
  return crypto.createHash('sha256').update(JSON.stringify(card)).digest('base64url').slice(0, 27);
}

/**
 * The PNGs drawn lately, by what they draw (so a token whose card has not changed is never drawn twice,
 * and a pick, a rename or a draft change draws it anew: a new card is a new key, so nothing here is ever
 * invalidated). A pasted link is fetched by every chat preview at once: concurrent requests for the same
 * card share one drawing. At most `max` (64 by default), least recently used evicted first.
 */
export class ShareImageCache {
  private readonly images: CappedCache<string, Promise<Buffer>>;

  constructor(
    max = 64,
    private readonly render: (card: ShareCard) => Promise<Buffer> = renderCardPng,
  ) {
    this.images = new CappedCache(max);
  }

  get size() {
    return this.images.size;
  }

  png(card: ShareCard, hash = cardHash(card)): Promise<Buffer> {
    const hit = this.images.get(hash);
    if (hit) return hit;
    const drawing = this.render(card);
    this.images.set(hash, drawing);
    drawing.catch(() => {
      // A failed drawing is not kept: the next request draws again.
      if (this.images.peek(hash) === drawing) this.images.delete(hash);
    });
    return drawing;
  }
}
