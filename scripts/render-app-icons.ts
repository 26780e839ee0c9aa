/**
 * `npx tsx scripts/render-app-icons.ts`: draws the installed app's icons (client/public/icons/) from the
 * brand mark, the football of the header (client/src/components/icons.tsx, `FootballIcon`): gold on the
 * header's navy, with the Debian Chromium the browser tests use. Run again after changing the mark; the
 * PNGs are committed. The manifest (client/public/manifest.webmanifest) and index.html name them.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';

const OUT = path.resolve(import.meta.dirname, '..', 'client', 'public', 'icons');
const NAVY = '#0b1f3a';
const GOLD = '#ffc53d';

const football = (size: number) => `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="${GOLD}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
  <ellipse cx="12" cy="12" rx="10" ry="6" transform="rotate(-45 12 12)" /><line x1="9" y1="15" x2="15" y2="9" />
  <line x1="10.5" y1="10.5" x2="11.7" y2="11.7" /><line x1="12.3" y1="12.3" x2="13.5" y2="13.5" /></svg>`;

interface Icon {
  file: string;
  size: number;
  /** The mark's share of the side: a maskable icon keeps it inside the 80 % safe circle the platform may crop to. */
  mark: number;
  /** Rounded corners for the plain icons (browsers show them as they are); none where the platform masks. */
  radius: number;
}

const ICONS: Icon[] = [
  { file: 'icon-192.png', size: 192, mark: 0.72, radius: 0.18 },
  { file: 'icon-512.png', size: 512, mark: 0.72, radius: 0.18 },
  { file: 'icon-maskable-512.png', size: 512, mark: 0.56, radius: 0 },
  // iOS rounds the corners itself and shows transparency as black: a full square.
  { file: 'apple-touch-icon-180.png', size: 180, mark: 0.68, radius: 0 },
];

const html = ({ size, mark, radius }: Icon) => `<!doctype html><html><head><style>
  * { margin: 0; } html, body { width: ${size}px; height: ${size}px; background: transparent; }
  .tile { width: ${size}px; height: ${size}px; background: ${NAVY}; border-radius: ${radius * size}px;
          display: flex; align-items: center; justify-content: center; }
</style></head><body><div class="tile">${football(Math.round(size * mark))}</div></body></html>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(html(icon));
    await page.screenshot({ path: path.join(OUT, icon.file), omitBackground: true });
    await page.close();
    console.log(`Wrote ${path.join(OUT, icon.file)}`);
  }
} finally {
  await browser.close();
}
