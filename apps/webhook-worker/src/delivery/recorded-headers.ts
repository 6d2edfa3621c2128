/** What the delivery log shows in place of a sensitive response header's value. */
export const HIDDEN = '[hidden]';

/** Response headers that carry credentials or session state, by exact name. */
const SENSITIVE = new Set([
  'set-cookie',
  'cookie',
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'x-api-key',
]);

/** Any name with one of these in it: `x-auth-token`, `x-client-secret`, `api-key`, ... */
const SENSITIVE_PART = /token|secret|key|session|auth|password|credential/i;

/** The most headers kept per response: a receiver answering thousands should not fill the log. */
export const MAX_RESPONSE_HEADERS = 100;

/**
 * The receiver's headers as the delivery log keeps them: names lower-cased, repeated values
 * joined with ", ", the value of anything that looks like a credential replaced by "[hidden]"
 * (the log is shown to every member who may see webhooks; what a receiver sends back is its
 * own business). At most MAX_RESPONSE_HEADERS, each value at most 1,000 characters.
 */
export function recordedResponseHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers).slice(0, MAX_RESPONSE_HEADERS)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : rawValue;
    recorded[name] = isSensitive(name) ? HIDDEN : value.slice(0, 1000).replaceAll('\u0000', '');
  }
  return recorded;
}

export function isSensitive(name: string): boolean {
  const lower = name.toLowerCase();
  return SENSITIVE.has(lower) || SENSITIVE_PART.test(lower);
}
