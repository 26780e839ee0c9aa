/**
 * `npx tsx scripts/render-og-image.ts`: draws the picture an invite link previews with
 * (client/public/og-invite.png, 1200×630, what Open Graph and Twitter cards show) from the HTML below,
 * with the Debian Chromium the browser tests use. Run again after changing the design; the PNG is committed.
 */
import path from 'node:path';
import { chromium } from 'playwright-core';

const OUT = path.resolve(import.meta.dirname, '..', 'client', 'public', 'og-invite.png');

const football = `<svg width="120" height="120" viewBox="0 0 24 24" fill="none" stroke="#ffc53d" stroke-width="1.8" stroke-linecap="round">
  <ellipse cx="12" cy="12" rx="10" ry="6" transform="rotate(-45 12 12)" /><line x1="9" y1="15" x2="15" y2="9" />
  <line x1="10.5" y1="10.5" x2="11.7" y2="11.7" /><line x1="12.3" y1="12.3" x2="13.5" y2="13.5" /></svg>`;

const chip = (mark: string, name: string, hit: boolean) =>
  `<div class="chip ${hit ? 'hit' : 'miss'}"><span class="mark">${mark}</span>${name}</div>`;

const html = `<!doctype html><html><head><style>
  * { box-sizing: border-box; margin: 0; }
  body { width: 1200px; height: 630px; font-family: 'DejaVu Sans', 'Liberation Sans', sans-serif; color: white;
         background: radial-gradient(circle at 85% 20%, #1d4078 0, #0b1f3a 55%, #071428 100%); overflow: hidden; position: relative; }
  .stripes { position: absolute; inset: 0; background: repeating-linear-gradient(90deg, transparent 0 118px, rgba(255,255,255,0.05) 118px 120px); }
  .wrap { position: absolute; inset: 70px 80px; display: flex; flex-direction: column; justify-content: space-between; }
  .brand { display: flex; align-items: center; gap: 22px; font-size: 44px; font-weight: 900; letter-spacing: 6px; }
  h1 { font-size: 74px; line-height: 1.05; font-weight: 900; letter-spacing: -1px; max-width: 900px; }
  h1 em { color: #ffc53d; font-style: normal; }
  p { font-size: 30px; color: #d5e0f2; margin-top: 18px; }
  .chips { display: flex; gap: 18px; }
  .chip { font-size: 28px; font-weight: 700; padding: 14px 24px; border-radius: 14px; display: flex; gap: 14px; align-items: center; }
  .hit { background: #178046; } .miss { background: #b42318; }
  .mark { font-size: 30px; }
</style></head><body><div class="stripes"></div><div class="wrap">
  <div class="brand">${football}<span>FIRST ROUND</span></div>
  <div><h1>You're invited to the <em>draft-night</em> pick'em</h1>
  <p>Pick who goes in round one. One miss and you're out.</p></div>
  <div class="chips">${chip('✓', 'PICK 1', true)}${chip('✓', 'PICK 7', true)}${chip('✓', 'PICK 14', true)}${chip('✗', 'MISSED', false)}</div>
</div></body></html>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  await page.setContent(html);
  await page.screenshot({ path: OUT });
  console.log(`Wrote ${OUT}`);
} finally {
  await browser.close();
}
