/**
 * A typed client of First Round in Node (docs/typed-api.md): signs in with the built-in sign-in (the code
 * read from the development outbox, so a server on this machine without SMTP), saves picks, then prints the
 * draft's live changes until round one is complete, and exits 0.
 *
 *   npx tsx examples/typed-client.ts http://localhost:3000 [you@example.com]
 *   FIRST_ROUND_URL=http://localhost:3000 FIRST_ROUND_EMAIL=you@example.com npx tsx examples/typed-client.ts
 *
 * With Clerk instead of the built-in sign-in, give a Clerk session token in FIRST_ROUND_TOKEN (it lives 60
 * seconds: enough to try; a long-running client asks Clerk for a fresh one, docs/typed-api.md).
 * examples/typed-client.test.ts runs it against a real server, so it keeps working.
 */
import { EventSource } from 'eventsource';
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, isTRPCClientError, splitLink } from '@trpc/client';
import type { AppRouter } from '@first-round/server/router';

const baseUrl = (process.argv[2] ?? process.env.FIRST_ROUND_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const email = process.argv[3] ?? process.env.FIRST_ROUND_EMAIL ?? `typed-client-${process.pid}@example.com`;
/** How many of the big board's best players to pick. */
const PICKS = 3;
/** A token with fewer seconds left than this is refreshed before use (60 refreshes before every call). */
const MARGIN_SECONDS = Number(process.env.TOKEN_MARGIN_SECONDS ?? 15);

/**
 * A built-in session: the session cookie (`fr_session`, from /idp/verify) is what /idp/token turns into
 * a fresh bearer token; tokens live 60 seconds. `token()` is what the links ask for on every request and
 * every (re)connect of the live stream.
 */
class Session {
  private refreshing: Promise<string> | undefined;
  constructor(
    private readonly cookie: string,
    private current: string,
  ) {}

  /**
   * Signs in (or up, for a new address) with a code read from the development outbox. A sign-up without a
   * username: for an address with an account its code signs that account in; for a new one verify asks for
   * the username (`missing_requirements`), and the same code with one completes it. (The server answers
   * every address alike, so a client cannot ask first whether it has an account.)
   */
  static async signIn(address: string): Promise<{ session: Session; userId: string }> {
    await expectOk(await post('/idp/sign-up', { email: address }));
    const outbox = await fetch(`${baseUrl}/idp/dev/outbox?email=${encodeURIComponent(address)}`);
    const [mail] = (await expectOk(outbox)) as { code: string | null }[]; // newest first
    type Verified = { status: 'complete' | 'missing_requirements'; user_id: string; token: string };
    const verify = (username?: string) => post('/idp/verify', { email: address, code: mail?.code, ...(username ? { username } : {}) });
    let verified = await verify();
    let answer = (await expectOk(verified)) as Verified;
    if (answer.status === 'missing_requirements') answer = (await expectOk((verified = await verify(usernameFrom(address))))) as Verified;
    const { user_id, token } = answer;
    const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('fr_session='))!.split(';')[0]!;
    return { session: new Session(cookie, token), userId: user_id };
  }

  /** A token good for a while longer: the one held, or a fresh one (one refresh at a time). */
  async token(): Promise<string> {
    if (secondsLeft(this.current) > MARGIN_SECONDS) return this.current;
    this.refreshing ??= this.refresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async refresh(): Promise<string> {
    const answer = await fetch(`${baseUrl}/idp/token`, { method: 'POST', headers: { cookie: this.cookie } });
    this.current = ((await expectOk(answer)) as { token: string }).token;
    console.log(`token refreshed (${Math.round(secondsLeft(this.current))} s left)`);
    return this.current;
  }
}

/** The links: queries and mutations batched over HTTP with the bearer token, `draft.changes` over SSE. */
function makeClient(getToken: () => Promise<string>) {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        // EventSource cannot send headers: the token travels in connectionParams, asked on every (re)connect.
        true: httpSubscriptionLink({ url: `${baseUrl}/trpc`, EventSource, connectionParams: async () => ({ token: await getToken() }) }),
        false: httpBatchLink({ url: `${baseUrl}/trpc`, headers: async () => ({ authorization: `Bearer ${await getToken()}` }) }),
      }),
    ],
  });
}

async function main() {
  let getToken: () => Promise<string>;
  if (process.env.FIRST_ROUND_TOKEN) {
    const token = process.env.FIRST_ROUND_TOKEN;
    getToken = async () => token;
  } else {
    const { session, userId } = await Session.signIn(email);
    getToken = () => session.token();
    console.log(`signed in as ${email} (${userId})`);
  }
  const client = makeClient(getToken);

  // Three queries at once: one HTTP request (httpBatchLink).
  const [me, board, status] = await Promise.all([client.auth.me.query(), client.players.list.query(), client.draft.status.query()]);
  console.log(`hello ${me.screen_name}: ${board.length} players on the board, round one has ${status.round_one_picks} picks`);
  if (status.round_one_complete) {
    console.log('round one is already complete');
    return;
  }

  const mine = board.slice(0, PICKS);
  try {
    await client.picks.save.mutate({ picks: mine.map((p) => p.id) });
    console.log(`saved ${mine.length} picks: ${mine.map((p) => p.player_name).join(', ')}`);
  } catch (error) {
    // Branch on the kind (error.data.kind, typed as the server's ErrorKind), never on the message's wording.
    if (!isTRPCClientError<AppRouter>(error) || error.data?.kind !== 'DRAFT_LOCKED') throw error;
    console.log(`picks are locked (${error.data.kind}): ${error.message}`);
  }
  const picked = new Set(mine.map((p) => p.id));

  // Every change after the status read: the stream replays from lastEventId, so nothing falls between.
  await new Promise<void>((resolve, reject) => {
    const subscription = client.draft.changes.subscribe(
      { lastEventId: String(status.last_event_id) },
      {
        onStarted: () => console.log(`watching the draft from event ${status.last_event_id}`),
        onData: ({ data: change }) => {
          if (change.kind === 'standings_page' || change.kind === 'standings_me') return; // only sent when the input names a standings page
          if (change.kind === 'pick' && change.player) {
            const yours = picked.has(change.player.id) ? ' (one of your picks)' : '';
            console.log(`pick ${change.slot}: ${change.player.player_name}${yours}`);
          } else {
            console.log(`${change.kind.replaceAll('_', ' ')}${change.slot ? ` (slot ${change.slot})` : ''}`);
          }
          if (change.kind === 'complete_round') {
            subscription.unsubscribe();
            resolve();
          }
        },
        onError: (error) => {
          subscription.unsubscribe();
          reject(error);
        },
      },
    );
  });

  const standings = await client.leaderboard.group.query({ group_id: 1, limit: 1, offset: 0 });
  const row = standings.me;
  console.log(`round one complete: ${row ? `rank ${row.rank} of ${standings.entries}, ${row.correct_picks} points${row.busted ? ' (busted)' : ''}` : 'no entry'}`);
}

function post(path: string, body: unknown) {
  return fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** The JSON of a 2xx answer; otherwise an error with the REST error's kind (`code`) and message. */
async function expectOk(answer: Response): Promise<unknown> {
  const body = (await answer.json()) as { code?: string; message?: string };
  if (!answer.ok) throw new Error(`${answer.url}: ${answer.status} ${body.code}: ${body.message}`);
  return body;
}

function secondsLeft(token: string): number {
  const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return exp - Date.now() / 1000;
}

/** A username (2 to 32 characters) from the address's local part. */
function usernameFrom(address: string): string {
  return address.split('@')[0]!.slice(0, 32).padEnd(2, '_');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
