import { createTRPCReact, type inferReactQueryProcedureOptions } from '@trpc/react-query';
import { httpBatchLink, httpLink, httpSubscriptionLink, splitLink, TRPCClientError, type TRPCLink } from '@trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/src/trpc/root';

export const trpc = createTRPCReact<AppRouter>();
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type ReactQueryOptions = inferReactQueryProcedureOptions<AppRouter>;

/** The auth layer registers how to get a bearer token; the tRPC link asks it on every request. */
let tokenSource: () => Promise<string | null> = async () => null;
export function setTokenSource(source: () => Promise<string | null>) {
  tokenSource = source;
}

/**
 * The hot reads of draft night, each sent alone as a GET with a stable URL (/trpc/draft.status, …) so the
 * browser's HTTP cache keeps the answer and revalidates it with If-None-Match: an unchanged answer comes
 * back as an empty 304, which fetch hands over as the cached 200. A batch URL names whichever calls
 * happened to go together, so it would rarely be the same twice.
 */
export const HOT_READS: ReadonlySet<string> = new Set(['draft.status', 'players.list', 'leaderboard.group', 'auth.me']);

async function authorization(): Promise<Record<string, string>> {
  const token = await tokenSource();
  return token ? { authorization: `Bearer ${token}` } : {};
}
const withCookies: typeof fetch = (url, init) => fetch(url, { ...init, credentials: 'include' });

export function createLinks(): TRPCLink<AppRouter>[] {
  return [
    splitLink({
      condition: (op) => op.type === 'subscription',
      // Server push (draft.changes) over SSE. A browser's EventSource cannot send headers, so the token
      // travels in connectionParams, which the link evaluates on every (re)connect: always a fresh token.
      true: httpSubscriptionLink({
        url: '/trpc',
        async connectionParams() {
          const token = await tokenSource();
          return token ? { token } : {};
        },
      }),
      false: splitLink({
        condition: (op) => op.type === 'query' && HOT_READS.has(op.path),
        true: httpLink({ url: '/trpc', headers: authorization, fetch: withCookies }),
        false: httpBatchLink({ url: '/trpc', maxItems: 10, headers: authorization, fetch: withCookies }),
      }),
    }),
  ];
}

export function createTrpcClient() {
  return trpc.createClient({ links: createLinks() });
}

/** The HTTP status of a failed call, when there is one. */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof TRPCClientError) {
    const data = error.data as { httpStatus?: number } | undefined;
    return data?.httpStatus;
  }
  return undefined;
}

export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
