import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { errorKind } from './trpc';
import { isDraftRead, onLoadCaughtUp, setKeptAnswers } from './hold-gate';

/**
 * Refusals (anything but the server's own fault or the database being away) are answers, not hiccups:
 * retrying them only delays the message. Failures with no answer (the network) are retried too.
 */
export function shouldRetry(maxRetries: number) {
  return (failureCount: number, error: unknown) => {
    const kind = errorKind(error);
    if (kind !== undefined && kind !== 'INTERNAL' && kind !== 'UNAVAILABLE') return false;
    return failureCount < maxRetries;
  };
}

/** A tRPC query's path in its cache key ([['draft', 'status'], { input, type }]). */
const pathOf = (key: QueryKey) => (Array.isArray(key[0]) ? (key[0] as string[]).join('.') : '');
const inputOf = (key: QueryKey) => (key[1] as { input?: unknown } | undefined)?.input;
let disconnect: (() => void) | undefined;

/**
 * The page's query cache, which the read gate (lib/hold-gate.ts) asks whether a read already has an answer
 * to show (kept by lib/persisted-queries.ts) and tells when a load's hold is over after answers as of an
 * earlier moment were shown: then every draft read is read again (the held changes show on time).
 */
export function createQueryClient() {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry(3), refetchOnWindowFocus: true },
      // A save offline fails at once and says so, rather than waiting unseen to be sent when back (docs/decisions.md, "Installable and offline").
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  setKeptAnswers((path, input) =>
    client
      .getQueryCache()
      .findAll({ queryKey: [path.split('.')] })
      .some((q) => q.state.data !== undefined && JSON.stringify(inputOf(q.queryKey)) === JSON.stringify(input)),
  );
  disconnect?.();
  disconnect = onLoadCaughtUp(() => void client.invalidateQueries({ predicate: (q) => isDraftRead(pathOf(q.queryKey)) }));
  return client;
}
