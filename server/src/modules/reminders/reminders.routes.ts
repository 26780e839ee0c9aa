import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { escapeHtml } from '../join-links/invite-page.js';
import { setReminders } from '../users/participants.repository.js';
import { isUnsubscribeSignature } from './reminders.service.js';

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
 * `GET /api/reminders/unsubscribe?p=<participant>&sig=<hmac>`: the one-click link in every reminder (and
 * `POST`, for mail programs' List-Unsubscribe-Post). No sign-in: the signature proves the link was ours and
 * names that player; any other answers 403 and changes nothing.
 */
export function registerReminderRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'orm' | 'keys'>) {
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const participantId = typeof query.p === 'string' ? query.p : '';
    const sig = typeof query.sig === 'string' ? query.sig : '';
    reply.asDocument().header('cache-control', 'no-store').type('text/html; charset=utf-8');
    if (!participantId || !sig || !isUnsubscribeSignature(deps.keys.hmacSecret, participantId, sig)) {
      return reply.code(403).send(page('This link is not valid', 'Use the link from your latest reminder, or switch reminders off in Settings.'));
    }
    await setReminders(deps.orm.em.fork(), participantId, false);
    return reply.send(
      page('You will not get reminders any more', 'No more e-mails before picks lock. You can switch them back on in Settings: "E-mail me before picks lock".'),
    );
  };
  app.get('/api/reminders/unsubscribe', handle);
  app.post('/api/reminders/unsubscribe', handle);
}
