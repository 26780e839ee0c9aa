import { createTRPCReact, type inferReactQueryProcedureOptions } from '@trpc/react-query';
import { httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
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

export function createTrpcClient() {
  return trpc.createClient({
    links: [
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
        false: httpBatchLink({
          url: '/trpc',
          maxItems: 10,
          async headers() {
            const token = await tokenSource();
            return token ? { authorization: `Bearer ${token}` } : {};
          },
          fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }),
        }),
      }),
    ],
  });
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
