import crypto from 'node:crypto';
import type { Page } from 'playwright-core';
import { hmac, loadSigningKeys, type SigningKeys } from '../../server/src/modules/auth/keys';
import { SESSION_COOKIE, SESSION_HINT_COOKIE } from '../../server/src/modules/auth/idp.routes';
import { serverDatabase } from './database';
import { BASE_URL } from './env';
import { waitForPath } from './ui';

let keys: Promise<SigningKeys> | undefined;

/**
 * Signs the page's browser in the way a finished sign-in leaves it: a session of the built-in identity
 * provider, made straight in the server's database (the account too, if the address has none), and its
 * cookies set in the browser context. No code is mailed, so no test waits out the provider's one-code-a-
 * minute limit; only the specs about signing in go through the form (signInThroughUi). Ends on /groups.
 */
export async function signInWithSession(page: Page, email: string, username = email.split('@')[0]!.replace(/[^A-Za-z0-9_]/g, '').slice(0, 20)) {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser specs with npm run test:e2e');
  keys ??= loadSigningKeys({ dataDir });
  const { hmacSecret } = await keys;
  const secret = crypto.randomBytes(32).toString('base64url');
  const db = await serverDatabase();
  try {
    await db.query(
      `insert into idp_user (id, email, username) values ($1, $2, $3)
       on conflict do nothing`,
      [`user_${crypto.randomBytes(12).toString('hex')}`, email, username],
    );
    const { rows } = await db.query<{ id: string }>('select id from idp_user where lower(email) = lower($1)', [email]);
    if (!rows[0]) throw new Error(`No account for ${email} (is the username ${username} taken?)`);
    await db.query('insert into idp_session (id, user_id, secret_hash) values ($1, $2, $3)', [`sess_${crypto.randomBytes(12).toString('hex')}`, rows[0].id, hmac(hmacSecret, secret)]);
  } finally {
    await db.end();
  }
  const { hostname } = new URL(BASE_URL);
  await page.context().addCookies([
    { name: SESSION_COOKIE, value: secret, domain: hostname, path: '/idp', httpOnly: true, sameSite: 'Lax' },
    { name: SESSION_HINT_COOKIE, value: '1', domain: hostname, path: '/', sameSite: 'Lax' },
  ]);
  await page.goto('/groups');
  await waitForPath(page, '/groups');
}
