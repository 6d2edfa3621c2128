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
 * Compares in constant time and refuses stale or future timestamps.
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
  if (!signatureHeader || !/^sha256=[0-9a-f]{64}$/.test(signatureHeader)) {
    return { ok: false, reason: 'malformed' };
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestampHeader)) > tolerance) {
    return { ok: false, reason: 'timestamp_out_of_tolerance' };
  }
  const expected = Buffer.from(sign(secret, timestampHeader, rawBody), 'utf8');
  const given = Buffer.from(signatureHeader, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'signature_mismatch' };
  }
  return { ok: true };
}
