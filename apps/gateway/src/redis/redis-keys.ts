/**
 * Every key the gateway keeps in Redis, in one place. Names are relative to REDIS_PREFIX:
 * ioredis adds the prefix to the keys of every command, and the access-gate script, which
 * builds the counter keys itself once it knows the key id, gets the prefixed stems as
 * arguments from `scriptStems`.
 */
export const RedisKeys = {
  /** The resolved access record of an API key, by the SHA-256 of the raw key. */
  accessRecord: (keyHash: string) => `key:${keyHash}`,
  /**
   * Requests counted this month for a key (`2026-11`): a hash of `gen`, `floor` and `n`
   * (access-gate.script.ts); flushed to Postgres.
   */
  monthUsage: (keyId: string, month: string) => `${MONTH_USAGE}${keyId}:${month}`,
  /** Requests in one minute window of a key. */
  minuteWindow: (keyId: string, window: string) => `${MINUTE_WINDOW}${keyId}:${window}`,
  /** Set of `<keyId>:<month>` whose month counter changed since the last flush. */
  dirtyUsage: 'quota:dirty',
  /**
   * Failed authentications of one client in one minute window, by its address as
   * clientAddressKey keys it (limits/client-address-key.ts: an IPv6 client by its /64), so
   * one client is one key.
   */
  failedAuthentications: (clientKey: string, window: string) => `unauth:${clientKey}:${window}`,
  /** A console session, by the SHA-256 of its cookie value (console/session/session-store.ts). */
  consoleSession: (idDigest: string) => `console:session:${idDigest}`,
  /** The session digests of one e-mail (its digest): the member's list of sessions. */
  consoleSessionsOf: (emailDigest: string) => `console:sessions-of:${emailDigest}`,
  /** Failed console sign-ins of one account (lower-cased e-mail digest) in one window. */
  consoleSignInFailures: (accountDigest: string, window: string) =>
    `console:signin-fail:${accountDigest}:${window}`,
  /** Sign-in links mailed to one account in one window. */
  consoleSignInLinks: (accountDigest: string, window: string) =>
    `console:signin-link:${accountDigest}:${window}`,
  /**
   * Console writes in one minute window of one scope: `session:<id digest>`,
   * `workspace:<id>`, or `ping:<endpoint id>` (Test pings).
   */
  consoleWrites: (scope: string, window: string) => `console:writes:${scope}:${window}`,
  /** Fetches of one calendar feed URL (its token's digest) in one minute window. */
  calendarFeedFetches: (tokenDigest: string, window: string) =>
    `calendar:fetch:${tokenDigest}:${window}`,
} as const;

// Not `quota:`, where the month counters were plain strings before they had generations.
const MONTH_USAGE = 'usage:';
const MINUTE_WINDOW = 'rate:';

/** The stems the access-gate script completes with a key id, prefixed as ioredis would. */
export function scriptStems(prefix: string): {
  monthUsage: string;
  minuteWindow: string;
  dirtyUsage: string;
} {
  return {
    monthUsage: prefix + MONTH_USAGE,
    minuteWindow: prefix + MINUTE_WINDOW,
    dirtyUsage: prefix + RedisKeys.dirtyUsage,
  };
}
