import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a delivery's timestamp may differ from the receiver's clock (spec 6.2). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * The `X-Custodian-Signature` value for a body sent at `timestamp` (Unix seconds):
 * `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint secret.
 */
export function sign(secret: string, timestamp: number | string, rawBody: string | Buffer): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return `sha256=${hmac.digest('hex')}`;
}

/** The most signatures one header carries (a rotation's overlap has two). */
export const MAX_SIGNATURES = 5;

const SIGNATURE = /^sha256=[0-9a-f]{64}$/;

/**
 * The header for a delivery signed with each of `secrets`, current first: during a secret
 * rotation's overlap `sha256=<new>, sha256=<old>`, so a receiver that holds either secret
 * finds its signature in the list; outside one, a single value as before.
 */
export function signatureHeader(
  secrets: readonly string[],
  timestamp: number | string,
  rawBody: string | Buffer,
): string {
  return secrets.map((secret) => sign(secret, timestamp, rawBody)).join(', ');
}

/**
 * The `sha256=` signatures a header lists (comma-separated, spaces allowed, as HTTP joins a
 * repeated header); entries of another scheme are skipped, so one added later breaks no
 * receiver. null when there is none, or more than MAX_SIGNATURES entries.
 */
export function parseSignatures(header: string | undefined): string[] | null {
  if (!header) return null;
  const entries = header.split(',').map((entry) => entry.trim());
  if (entries.length > MAX_SIGNATURES) return null;
  const signatures = entries.filter((entry) => SIGNATURE.test(entry));
  return signatures.length > 0 ? signatures : null;
}

export interface VerifyOptions {
  /** Seconds; a timestamp further than this from `now` is refused. */
  toleranceSeconds?: number;
  /** The receiver's clock in Unix seconds (for tests). */
  now?: number;
}

export type VerifyResult =
  | { ok: true }
  | { ok: false; reason: 'malformed' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/**
 * What a receiver runs before parsing the body: the raw bytes as received, the
 * `X-Custodian-Timestamp` and `X-Custodian-Signature` headers, and the endpoint secret.
 * Accepts the delivery when any signature the header lists matches (each compared in
 * constant time), and refuses stale or future timestamps.
 */
export function verify(
  secret: string,
  rawBody: string | Buffer,
  timestampHeader: string | undefined,
  signatureHeader: string | undefined,
  options: VerifyOptions = {},
): VerifyResult {
  if (!timestampHeader || !/^\d{1,12}$/.test(timestampHeader)) {
    return { ok: false, reason: 'malformed' };
  }
  const signatures = parseSignatures(signatureHeader);
  if (!signatures) return { ok: false, reason: 'malformed' };
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestampHeader)) > tolerance) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  const expected = Buffer.from(sign(secret, timestampHeader, rawBody), 'utf8');
  // Every entry is compared (no early exit): the time taken says nothing of which matched.
  let matched = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature, 'utf8');
    if (given.length === expected.length && timingSafeEqual(expected, given)) matched = true;
  }
  return matched ? { ok: true } : { ok: false, reason: 'signature_mismatch' };
}
