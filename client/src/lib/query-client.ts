import { QueryClient } from '@tanstack/react-query';
import { errorKind } from './trpc';
import { connectCache, DRAFT_READS } from './hold-gate';
import { keptShown } from './persisted-queries';

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

/**
 * The page's query cache, which the read gate (lib/hold-gate.ts) asks whether it shows answers kept by an
 * earlier page (lib/persisted-queries.ts) and tells when a load's hold is over after answers as of an
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
  connectCache({
    kept: keptShown,
    readAgain: () => void client.invalidateQueries({ predicate: (q) => DRAFT_READS.test((q.queryKey[0] as string[]).join?.('.') ?? '') }),
  });
  return client;
}
