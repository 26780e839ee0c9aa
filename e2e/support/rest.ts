import { BASE_URL } from './env';

/** A REST call as a signed-in player (a session's bearer token), for the set-up a test needs; throws on any non-2xx. */
export async function rest(session: { token(): Promise<string> }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${BASE_URL}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await session.token()}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}
