import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { escapeHtml } from '../join-links/invite-page.js';
import { unsubscribeWithLink } from './reminders.service.js';

/**
 * What mail programs send for RFC 8058's one-click unsubscribe: `List-Unsubscribe=One-Click` as a form
 * (Gmail, Apple Mail: urlencoded; some: multipart). Parsed on this route only: a form parser for the whole
 * app would let any web page post forms to the API cross-site without a preflight.
 */
const ONE_CLICK_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
/** The field is 26 bytes; a multipart body with its boundaries a few hundred. */
const ONE_CLICK_BODY_LIMIT = 16 * 1024;
const ONE_CLICK_TYPE_MESSAGE =
  'Unsupported content type for one-click unsubscribe: send application/x-www-form-urlencoded (List-Unsubscribe=One-Click) or multipart/form-data';

function page(title: string, text: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(title)} · First Round</title>
    <style>
      body { margin: 0; min-height: 100vh; background: #0b1f3a; color: #fff; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
             display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 20px; padding: 24px; text-align: center; }
      .brand { color: #ffc53d; font-weight: 900; letter-spacing: 0.3em; text-decoration: none; font-size: 20px; }
      h1 { margin: 0; font-size: 28px; }
      p { margin: 0; max-width: 560px; color: #d5e0f2; font-size: 18px; line-height: 1.5; }
      a { color: #ffc53d; }
    </style>
  </head>
  <body>
    <main>
      <a class="brand" href="/">FIRST ROUND</a>
      <h1>${escapeHtml(title)}</h1>
      <p>${escapeHtml(text)}</p>
    </main>
  </body>
</html>
`;
}

/**
 * `GET /api/reminders/unsubscribe?p=<participant>&sig=<hmac>`: the link in every reminder, clicked; `POST`, a
 * mail program's one-click unsubscribe (RFC 8058: the mail's List-Unsubscribe and List-Unsubscribe-Post
 * headers), with a form body or none. No sign-in: the signature proves the link was ours and names that
 * player; any other answers 403 and changes nothing. The body is not read: the URL is the request.
 */
export function registerReminderRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'orm' | 'keys'>) {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const participantId = typeof query.p === 'string' ? query.p : '';
    const sig = typeof query.sig === 'string' ? query.sig : '';
    reply.asDocument().header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if (!(await unsubscribeWithLink(deps.orm.em.fork(), deps.keys.hmacSecret, { participantId, sig }))) {
      return reply.code(403).send(page('This link is not valid', 'Use the link from your latest reminder, or switch reminders off in Settings.'));
    }
    return reply.send(
      page('You will not get reminders any more', 'No more e-mails before picks lock. You can switch them back on in Settings: "E-mail me before picks lock".'),
    );
  };
  app.get('/api/reminders/unsubscribe', handle);
  // A scope of its own: its content-type parsers apply to this route only.
  void app.register(async (scope) => {
    scope.addContentTypeParser(ONE_CLICK_TYPES, { parseAs: 'string', bodyLimit: ONE_CLICK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    // Any other type (JSON and plain text still have the app's parsers): a 415 that says what to send.
    scope.addContentTypeParser('*', (_request, _payload, done) => done(Object.assign(new Error(ONE_CLICK_TYPE_MESSAGE), { statusCode: 415 }), undefined));
    scope.post('/api/reminders/unsubscribe', handle);
  });
}
