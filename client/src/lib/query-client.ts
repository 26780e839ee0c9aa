import { QueryClient } from '@tanstack/react-query';
import { httpStatusOf } from './trpc';

/** Client errors (4xx) are answers, not hiccups: retrying them only delays the message. */
export function shouldRetry(maxRetries: number) {
  return (failureCount: number, error: unknown) => {
    const status = httpStatusOf(error);
    if (status !== undefined && status >= 400 && status < 500) return false;
    return failureCount < maxRetries;
  };
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry(3), refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}
