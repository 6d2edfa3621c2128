import { DomainError } from '@custodian/contracts';
import { createHash } from 'node:crypto';

/**
 * The strong entity tag of a record's representation (RFC 9110 8.8.3): a hash of its JSON
 * with keys in a fixed order, so the gateway (hashing the body it sends) and the register
 * (hashing the record it has just locked, for If-Match) agree on the same value. Any change
 * to what the record shows changes it; the same record read twice gives the same one.
 */
export function etagOf(representation: unknown): string {
  // Through JSON first: dates become their ISO strings and undefined fields go, as on the wire.
  const wire: unknown = JSON.parse(JSON.stringify(representation ?? null));
  const digest = createHash('sha256').update(canonicalJson(wire)).digest('base64url');
  return `"${digest.slice(0, 27)}"`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The most entity tags one If-Match may list. */
export const IF_MATCH_TAGS_MAX = 20;

/**
 * An If-Match header's tags (RFC 9110 13.1.1): `*`, or entity tags in quotes, comma-separated,
 * weak ones (`W/"..."`) kept as sent (the strong comparison never matches them). Null when
 * the header is malformed.
 */
export function parseIfMatch(header: string): string[] | null {
  const trimmed = header.trim();
  if (trimmed === '*') return ['*'];
  const tags = trimmed.split(',').map((tag) => tag.trim());
  if (tags.length === 0 || tags.length > IF_MATCH_TAGS_MAX) return null;
  return tags.every((tag) => /^(W\/)?"[\x21\x23-\x7e]{1,100}"$/.test(tag)) ? tags : null;
}

/**
 * If-Match, checked against the record as it is now (read under its row lock, so no write can
 * come between this check and the change it guards): a 412 naming the record unless one of
 * `ifMatch` is its current entity tag, or `*`. No If-Match: nothing to check.
 */
export function assertIfMatch(
  ifMatch: readonly string[] | undefined,
  current: unknown,
  what: string,
): void {
  if (ifMatch === undefined || ifMatch.includes('*')) return;
  const etag = etagOf(current);
  if (ifMatch.includes(etag)) return;
  throw new DomainError(
    'precondition_failed',
    `${what} changed since you read it (If-Match ${ifMatch.join(', ')}; it is now ${etag}): ` +
      'read it again and send your change again if it still holds',
  );
}
