import { BASE_URL } from './env';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  /** Null for a mail without a code (to an address without an account that asked to sign in). */
  code: string | null;
  sent_at: string;
}

/** The newest mail to the address that `wanted` accepts (the development outbox), waiting up to 20 s (a loaded machine). */
export async function readMail(email: string, wanted: (mail: OutboxMail) => boolean, what = 'mail'): Promise<OutboxMail> {
  let mails: OutboxMail[] = [];
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${BASE_URL}/idp/dev/outbox?email=${encodeURIComponent(email)}`);
    if (res.ok) {
      mails = (await res.json()) as OutboxMail[];
      const found = mails.find(wanted);
      if (found) return found;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const sent = mails.map((m) => m.sent_at).join(', ') || 'nothing';
  throw new Error(`No ${what} mailed to ${email}; its outbox holds mail sent at: ${sent}`);
}

/** The newest code mailed to the address after `since`, waiting up to 20 s. */
export async function readCode(email: string, since = 0): Promise<string> {
  // No leeway before `since`: the server and its database share the test's clock (scripts/run-e2e.mjs),
  // and a code mailed just before it (a sign-up's, a replaced one) no longer works; returning it while
  // the new mail is still being written made sign-ins fail now and then.
  const mail = await readMail(email, (m) => m.code !== null && new Date(m.sent_at).getTime() >= since, `code since ${new Date(since).toISOString()}`);
  return mail.code!;
}

async function post<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; data: T; cookie?: string }> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body ?? {}),
  });
  const data = (await res.json().catch(() => null)) as T;
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') || undefined;
  return { status: res.status, data, cookie };
}

/**
 * A session through the identity provider's HTTP interface (no browser): a sign-up, which for an address
 * that has an account mails a code that signs it in (its username is then the account's own); a taken
 * username (409) signs in instead.
 */
export async function apiSession(email: string, username: string) {
  const since = Date.now();
  const up = await post<{ message?: string }>('/idp/sign-up', { email, username });
  if (up.status >= 400) {
    const inn = await post<{ message?: string }>('/idp/sign-in', { email });
    if (inn.status >= 400) throw new Error(`Sign-in failed: ${inn.data?.message}`);
  }
  const code = await readCode(email, since);
  const verified = await post<{ token: string; status: string }>('/idp/verify', { email, code, username });
  if (verified.status >= 400 || verified.data.status !== 'complete') throw new Error(`Verify failed for ${email}`);
  let token = verified.data.token;
  let issued = Date.now();
  const cookie = verified.cookie ?? '';
  return {
    /** A bearer token, refreshed with the session cookie before the 60-second JWT runs out. */
    async token(): Promise<string> {
      if (Date.now() - issued > 40_000) {
        const fresh = await post<{ token: string }>('/idp/token', {}, { cookie });
        token = fresh.data.token;
        issued = Date.now();
      }
      return token;
    },
  };
}
