/** One HTTP exchange as a test saw it: what was asked, and everything that came back. */
export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  /** The body exactly as received. */
  text: string;
}

/** Called synchronously with each response, before the test sees it. */
export type ResponseObserver = (response: ObservedResponse) => void;

let observer: ResponseObserver | null = null;

/**
 * `fetch` as the runtime provides it, captured before `observeGlobalFetch` wraps it; the
 * helpers of this library call it and report their responses themselves.
 */
export const unobservedFetch: typeof fetch = globalThis.fetch.bind(globalThis);

/**
 * Registers the process-wide observer of HTTP responses (the end-to-end suite's contract check);
 * `null` removes it. Returns the observer it replaces.
 */
export function setResponseObserver(next: ResponseObserver | null): ResponseObserver | null {
  const previous = observer;
  observer = next;
  return previous;
}

/** Hands a response to the observer, if there is one. */
export function reportResponse(response: ObservedResponse): void {
  observer?.(response);
}

/**
 * Wraps the global `fetch` so that responses a test fetches directly (not through
 * `httpRequest`) reach the observer too; their body is read from a clone before the caller gets
 * the response. Returns a function that restores the original.
 */
export function observeGlobalFetch(): () => void {
  const original = globalThis.fetch;
  const observed = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await original(input, init);
    if (observer) {
      reportResponse({
        method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
        url: response.url || urlOf(input),
        status: response.status,
        headers: response.headers,
        text: await response.clone().text(),
      });
    }
    return response;
  };
  globalThis.fetch = observed;
  return () => {
    globalThis.fetch = original;
  };
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}
