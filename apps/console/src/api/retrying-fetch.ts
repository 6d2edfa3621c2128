/** How long the console waits before each retry of a write that got no answer, 503 or 504. */
export const WRITE_RETRY_DELAYS_MS = [500, 1_500];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The console's fetch: a write that carries an Idempotency-Key (every write does: client.ts)
 * and gets no answer, a 503 or a 504 is sent again with the same key, twice at most. The API
 * applies a write once per key, so a retry of one that did go through gets its first answer
 * instead of applying it again (two assets, a second rotation); before, a dropped answer
 * left the person to guess and click again. Reads and writes without a key go once.
 */
export function retryingFetch(
  base: (request: Request) => Promise<Response> = (request) => globalThis.fetch(request),
  delaysMs: readonly number[] = WRITE_RETRY_DELAYS_MS,
  wait: (ms: number) => Promise<void> = sleep,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (!request.headers.has('idempotency-key')) return base(request);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= delaysMs.length;
      try {
        // A clone each time: a body can be read once per Request.
        const response = await base(last ? request : request.clone());
        if (last || (response.status !== 503 && response.status !== 504)) return response;
      } catch (error) {
        if (last) throw error;
      }
      await wait(delaysMs[attempt] ?? 0);
    }
  };
}
