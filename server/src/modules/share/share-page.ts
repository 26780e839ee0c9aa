import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { shareTokenSchema } from '@first-round/shared/schemas';
import { MESSAGES } from '@first-round/shared/messages';
import { teamName } from '@first-round/shared/teams';
import type { AppDeps } from '../../deps.js';
import { DomainError, errorAnswer, notFound } from '../../errors.js';
import { escapeHtml, withInviteTags } from '../join-links/invite-page.js';
import { cardDescription, cardLines, CARD_SIZE, type ShareCard } from './share-card.js';
import { cardHash, ShareImageCache } from './share-render.js';
import { shareCardOf } from './share.service.js';

/**
 * How long a browser or a chat's preview fetcher may keep a card before asking again (then the ETag
 * answers 304 while nothing changed). Short: the card follows the draft.
 */
export const SHARE_CACHE_CONTROL = 'public, max-age=60';

/** `<token>.png` → the token; anything else finds no card. */
const tokenOfImage = (file: string) => {
  const match = /^(.+)\.png$/.exec(file);
  return match && shareTokenSchema.safeParse(match[1]).success ? match[1]! : null;
};

/**
 * The hits written out under the picture: 'Pick 18 · SEA · Grey Zabel', the team's full name behind its
 * abbreviation (a title, also what assistive technology can read). Only a live card has hits.
 */
function hitsHtml(card: ShareCard | null): string {
  const hits = card?.phase === 'live' ? card.chips.filter((c) => c.slot !== undefined) : [];
  if (hits.length === 0) return '';
  const team = (abbreviation: string | null | undefined) => {
    const name = teamName(abbreviation);
    return abbreviation ? ` · ${name ? `<abbr title="${escapeHtml(name)}">${escapeHtml(abbreviation)}</abbr>` : escapeHtml(abbreviation)}` : '';
  };
  const items = hits.map((c) => `<li>Pick ${c.slot}${team(c.team)} · ${escapeHtml(c.name)}</li>`).join('');
  return `<ul class="hits" aria-label="Hits">${items}</ul>`;
}

/**
 * A live card's line of picks and odds, written out under the picture ('3 picks · 1 pending · 37 % to
 * survive after pick 12'): the description leaves it out, and the page says what the picture says. A card
 * before the start has it in its description already.
 */
function detailHtml(card: ShareCard | null): string {
  return card?.phase === 'live' ? `<p class="detail">${escapeHtml(cardLines(card).detail)}</p>` : '';
}

/** The page around a card: no script, styles inline (the CSP allows inline styles, never inline scripts). */
export function sharePageHtml(content: { title: string; description: string; image: string | null; imageAlt: string; card?: ShareCard }): string {
  const img = content.image
    ? `<img src="${escapeHtml(content.image)}" width="${CARD_SIZE.width}" height="${CARD_SIZE.height}" alt="${escapeHtml(content.imageAlt)}">`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(content.title)}</title>
    <style>
      * { box-sizing: border-box; }
      body { margin: 0; min-height: 100vh; background: #0b1f3a; color: #fff; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
             display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 24px; padding: 24px; }
      .brand { color: #ffc53d; font-weight: 900; letter-spacing: 0.3em; text-decoration: none; font-size: 20px; }
      img { width: 100%; max-width: 960px; height: auto; border-radius: 16px; box-shadow: 0 12px 40px rgba(0, 0, 0, 0.45); }
      p { margin: 0; max-width: 640px; text-align: center; color: #d5e0f2; font-size: 18px; line-height: 1.5; }
      .cta { display: inline-block; background: #ffc53d; color: #0b1f3a; font-weight: 800; font-size: 20px; padding: 14px 28px;
             border-radius: 12px; text-decoration: none; }
      .cta:hover, .cta:focus-visible { background: #ffd76e; }
      main { display: contents; }
      .hits { margin: 0; padding: 0; list-style: none; display: flex; flex-wrap: wrap; justify-content: center; gap: 8px 16px;
              max-width: 960px; color: #d5e0f2; font-size: 16px; }
      abbr { text-decoration: none; }
    </style>
  </head>
  <body>
    <main>
      <a class="brand" href="/">FIRST ROUND</a>
      ${img}
      <p>${escapeHtml(content.description)}</p>
      ${detailHtml(content.card ?? null)}
      ${hitsHtml(content.card ?? null)}
      <p>Pick the players you think go in the NFL Draft's first round. One miss and you're out.</p>
      <a class="cta" href="/sign-up">Play First Round</a>
    </main>
  </body>
</html>
`;
}

/**
 * The public side of share links (anyone holding one, no sign-in):
 * - `GET /api/share/{token}.png`: the card, 1200×630, drawn at most once per thing it draws
 *   (ShareImageCache), with an ETag and a short Cache-Control;
 * - `GET /s/{token}`: a page with the card and Open Graph / Twitter tags, so a pasted link previews as
 *   the card, and a way into the game.
 * A token that finds no entry answers 404 (JSON for the picture, a page for the page).
 */
export function registerSharePages(app: FastifyInstance, deps: AppDeps, images = new ShareImageCache()) {
  const cardOf = async (token: string | null): Promise<ShareCard> => {
    if (token === null) throw notFound(MESSAGES.shareLinkInvalid);
    return shareCardOf(deps, deps.orm.em.fork(), token);
  };

  app.get<{ Params: { file: string } }>('/api/share/:file', async (req, reply) => {
    try {
      const card = await cardOf(tokenOfImage(req.params.file));
      const hash = cardHash(card);
      const etag = `"${hash}"`;
      reply
        .header('cache-control', SHARE_CACHE_CONTROL)
        .header('etag', etag)
        // Anyone may show the picture (a forum post, a chat): it is what the link is for.
        .header('cross-origin-resource-policy', 'cross-origin');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type('image/png').send(await images.png(card, hash));
    } catch (error) {
      return sendError(req, reply, error);
    }
  });

  app.get<{ Params: { token: string } }>('/s/:token', async (req, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    const token = shareTokenSchema.safeParse(req.params.token);
    let card: ShareCard;
    try {
      card = await cardOf(token.success ? token.data : null);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const html = sharePageHtml({ title: 'First Round', description: MESSAGES.shareLinkInvalid, image: null, imageAlt: '' });
      return reply.code(errorAnswer(error).status).send(html);
    }
    const lines = cardLines(card);
    const description = cardDescription(card);
    const image = `/api/share/${token.data}.png`;
    // The configured address, never the request's Host (config.ts, publicOrigin).
    const origin = deps.config.publicOrigin;
    const html = sharePageHtml({ title: lines.title, description, image, imageAlt: description, card });
    return reply.send(
      withInviteTags(html, { title: lines.title, description, imageAlt: description }, { page: `${origin}/s/${token.data}`, image: `${origin}${image}` }),
    );
  });
}

function sendError(req: FastifyRequest, reply: FastifyReply, error: unknown) {
  const { status, body, fault } = errorAnswer(error);
  if (fault) req.log.error({ err: error }, 'share card failed');
  return reply.code(status).type('application/json').send(body);
}
