import type { FastifyInstance } from 'fastify';
import { formatDeadline } from '@first-round/shared/deadline';
import { joinLinkTokenInput, type ResolvedJoinLink } from '@first-round/shared/schemas';
import type { AppDeps } from '../../deps.js';
import { DomainError } from '../../errors.js';
import { resolveJoinLink, type InviteDraftState } from './join-links.service.js';

/** The branded picture a pasted invite link previews with (client/public/og-invite.png, 1200×630). */
export const INVITE_IMAGE_PATH = '/og-invite.png';
const IMAGE_SIZE = { width: 1200, height: 630 };

/** Text for an HTML attribute or element: nothing a group or user name holds can open a tag or end an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** What a link preview says about an invitation. */
export function invitePreview(invite: ResolvedJoinLink) {
  const who = invite.invited_by ?? 'A friend';
  const members = invite.member_count === 1 ? '1 member' : `${invite.member_count} members`;
  const when = invite.round_one_complete ? 'Round one is complete' : invite.draft_started ? 'The draft is live' : `Picks lock ${formatDeadline(invite.pick_deadline)}`;
  return {
    title: `${who} invited you to ${invite.group_name} · First Round`,
    description: `Pick the players you think go in the NFL Draft's first round. One miss and you're out. ${members} · ${when}.`,
  };
}

/**
 * The SPA's page with the invitation's Open Graph and Twitter tags added to its <head> (and its <title>
 * set to the same line). Tags only: no script and no style, so the content security policy is the page's
 * own; every value is escaped.
 */
export function withInviteTags(
  html: string,
  preview: { title: string; description: string; imageAlt?: string },
  urls: { page: string; image: string },
): string {
  const tags: [string, string, string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'First Round'],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ['property', 'og:url', urls.page],
    ['property', 'og:image', urls.image],
    ['property', 'og:image:width', String(IMAGE_SIZE.width)],
    ['property', 'og:image:height', String(IMAGE_SIZE.height)],
    ['property', 'og:image:alt', preview.imageAlt ?? 'First Round: NFL Draft first-round pick’em'],
    ['name', 'twitter:card', 'summary_large_image'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ['name', 'twitter:image', urls.image],
    ['name', 'description', preview.description],
  ];
  const head = tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`).join('\n    ');
  const titled = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(preview.title)}</title>`);
  return titled.replace('</head>', () => `    ${head}\n  </head>`);
}

/**
 * `GET /groups/join/{token}`: the invite landing page, served with the invitation's preview tags so a
 * link pasted into a chat shows '<owner> invited you to <group> · First Round' and the picture. A link
 * that leads nowhere gets the plain page (the app then says the link is invalid or has expired).
 */
export function registerInvitePage(app: FastifyInstance, deps: AppDeps, page: { html: () => Promise<string>; draft: InviteDraftState }) {
  app.get<{ Params: { token: string } }>('/groups/join/:token', async (req, reply) => {
    const html = await page.html();
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    const token = joinLinkTokenInput.safeParse({ token: req.params.token });
    if (!token.success) return reply.send(html);
    let invite: ResolvedJoinLink;
    try {
      invite = await resolveJoinLink({ em: deps.orm.em.fork(), now: deps.draft.now(), draft: page.draft }, token.data.token);
    } catch (error) {
      if (error instanceof DomainError) return reply.send(html);
      throw error;
    }
    // The configured address, never the request's Host (config.ts, publicOrigin).
    const origin = deps.config.publicOrigin;
    const urls = { page: `${origin}/groups/join/${encodeURIComponent(token.data.token)}`, image: `${origin}${INVITE_IMAGE_PATH}` };
    return reply.send(withInviteTags(html, invitePreview(invite), urls));
  });
}
