import { QueryClient } from '@tanstack/react-query';
import { errorKind } from './trpc';

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

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry(3), refetchOnWindowFocus: true },
      // A save offline fails at once and says so, rather than waiting unseen to be sent when back (docs/decisions.md, "Installable and offline").
      mutations: { retry: false, networkMode: 'always' },
    },
  });
}
