import { reportResponse, unobservedFetch } from './response-observer';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is (for malformed bodies). */
  body?: unknown;
}

/**
 * Real HTTP to a running app, with the body parsed when it is JSON. Every response is reported
 * to the response observer (see `setResponseObserver`), if one is set.
 */
export async function httpRequest<T = unknown>(
  url: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const method = options.method ?? 'GET';
  const response = await unobservedFetch(url, { method, headers, body });
  const text = await response.text();
  // Before parsing, so that a response the contract check refuses is reported even if it is
  // not the JSON it claims to be.
  reportResponse({ method, url, status: response.status, headers: response.headers, text });
  let parsed: unknown = text;
  if (response.headers.get('content-type')?.includes('application/json')) {
    parsed = JSON.parse(text);
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Polls until the check passes or the time is up; for effects that land asynchronously. */
export async function eventually<T>(
  check: () => Promise<T>,
  { timeoutMs = 5_000, intervalMs = 25 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
