/**
 * Keeps secrets out of logged URLs: invite and share tokens keep their first 4 characters
 * (`/join-links/abcd…`, `/s/abcd…`); SSE `connectionParams` (which carry the session token) are dropped whole.
 * The game's request log uses it (app.ts), and the deployment test for the lines of nginx's error log it prints.
 */
export function redactUrl(url: string): string {
  return url
    .replace(/(join-links\/|join-with-link\/|groups\/join\/)([^/?#]{4})[^/?#]*/g, '$1$2…')
    .replace(/^(\/s\/|\/api\/share\/)([^/?#.]{4})[^/?#.]*/, '$1$2…')
    .replace(/([?&]connectionParams=)[^&#]*/g, '$1[redacted]')
    // A reminder's unsubscribe link: the signature is what lets it switch that player's reminders off.
    .replace(/([?&]sig=)[^&#]*/g, '$1[redacted]');
}
