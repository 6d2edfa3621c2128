import { QueryClient } from '@tanstack/react-query';
import { ApiFailure } from '../api/failure';

/**
 * How long an answer counts as fresh: a screen shown again within it (Back, a tab of the same
 * record) uses it without asking; after it, the cached answer shows while it is read again.
 */
export const STALE_MS = 5_000;

/** Tries after the first failure of a read; each waits longer (1 s, then 2 s). */
const RETRIES = 2;

/**
 * Whether a failed read is worth another try: only when no answer came (the network) or the
 * server failed (5xx). A 4xx says the same the next time (not found, refused, invalid), and a
 * 401 or 403 already makes the session be read again (api/client.ts).
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= RETRIES) return false;
  return error instanceof ApiFailure && (error.status === null || error.status >= 500);
}

/**
 * The console's one query cache (docs/adr/0013-console-stack.md). A window getting the focus
 * back reads again only the stale queries on screen, and reconnecting the same; writes are never
 * retried (a POST sent twice may do its work twice).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_MS, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
