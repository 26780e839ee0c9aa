import { createTRPCReact, type inferReactQueryProcedureOptions } from '@trpc/react-query';
import { httpBatchLink, httpLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import { isErrorKind, type ErrorKind } from '@first-round/shared/errors';
import { isHotRead } from '@first-round/shared/hot-reads';
import type { JoinRefusalData } from '@first-round/shared/schemas';
import type { AppRouter } from '@first-round/server/router';
import { fetchNotingConnectivity } from './connectivity';
import { pageClockSkew } from './hold-back';
import { holdBackLink } from './hold-gate';

export const trpc = createTRPCReact<AppRouter>();
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ReactQueryOptions = inferReactQueryProcedureOptions<AppRouter>;

/** How the links get the current bearer token (null when signed out): asked on every request. */
export interface LinkOptions {
  getToken: () => Promise<string | null>;
}

/**
 * With the cookies, and noting whether an answer came (lib/connectivity.ts: the offline banner). Each
 * answer's Date (whole seconds, at or before the server's time) is a sample of this device's clock skew
 * that can only over-estimate it: a page loaded with a viewing delay places the draft's last change on this
 * device's clock with it before any live change came (lib/hold-gate.ts), and never too early.
 */
const withCookies: typeof fetch = async (url, init) => {
  const res = await fetchNotingConnectivity(url, { ...init, credentials: 'include' });
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isFinite(date)) pageClockSkew.sample(date, Date.now());
  return res;
};

export function createLinks({ getToken }: LinkOptions): TRPCLink<AppRouter>[] {
  const authorization = async (): Promise<Record<string, string>> => {
    const token = await getToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  };
  return [
    // No spoilers: the answers of draft reads wait while this device's viewing delay holds picks back.
    holdBackLink(),
    splitLink({
      condition: (op) => op.type === 'subscription',
      // Server push (draft.changes) over SSE. A browser's EventSource cannot send headers, so the token
      // travels in connectionParams, which the link evaluates on every (re)connect: always a fresh token.
      true: httpSubscriptionLink({
        url: '/trpc',
        async connectionParams() {
          const token = await getToken();
          return token ? { token } : {};
        },
      }),
      // The hot reads (shared/src/hot-reads.ts) each alone as a GET with a stable URL, which the browser's
      // HTTP cache keeps and revalidates (an unchanged answer is an empty 304); a batch URL names whichever
      // calls happened to go together, so it would rarely be the same twice.
      false: splitLink({
        condition: (op) => op.type === 'query' && isHotRead(op.path),
        true: httpLink({ url: '/trpc', headers: authorization, fetch: withCookies }),
        false: httpBatchLink({ url: '/trpc', maxItems: 10, headers: authorization, fetch: withCookies }),
      }),
    }),
  ];
}

/** Built once by the auth layer (auth-provider.tsx), which knows how to get a token. */
export function createTrpcClient(options: LinkOptions) {
  return trpc.createClient({ links: createLinks(options) });
}

/**
 * What went wrong in a failed call, as the server names it (`error.data.kind`, shared/src/errors.ts):
 * what the client branches on, never the message's wording. Undefined for a failure that is no answer
 * (the network, an unparseable response).
 */
export function errorKind(error: unknown): ErrorKind | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const kind = (error.data as { kind?: unknown } | undefined)?.kind;
  return isErrorKind(kind) ? kind : undefined;
}

/**
 * The numbers a refused join by id carries beside its words (tries left, when a lock lifts: shared's
 * `joinRefusalData`); undefined for other errors. Read field by field, not with the zod schema: this
 * module is in every first load, and zod is not.
 */
export function errorData(error: unknown): JoinRefusalData | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { tries_left?: unknown; lockout?: unknown; retry_at?: unknown } | undefined;
  if (typeof data?.tries_left !== 'number') return undefined;
  return {
    tries_left: data.tries_left,
    ...(data.lockout === 'group' || data.lockout === 'player' ? { lockout: data.lockout } : {}),
    ...(typeof data.retry_at === 'string' ? { retry_at: data.retry_at } : {}),
  };
}

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
