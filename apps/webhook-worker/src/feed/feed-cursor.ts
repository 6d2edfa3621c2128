import { DomainError } from '@custodian/contracts';

/**
 * A feed cursor: a position, opaque to clients (base64url of `feed:<position>`), so the feed
 * may one day carry more in it without breaking the clients that keep one.
 */
export function encodeFeedCursor(position: bigint): string {
  return Buffer.from(`feed:${position}`, 'utf8').toString('base64url');
}

const CURSOR = /^feed:(\d{1,19})$/;

/** The position `after` names, or invalid_input naming it. */
export function decodeFeedCursor(raw: string): bigint {
  const match = CURSOR.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!match?.[1] || BigInt(match[1]) > 9_223_372_036_854_775_807n) {
    throw new DomainError(
      'invalid_input',
      'after must be the `next` of a previous page of the feed, or `now`',
    );
  }
  return BigInt(match[1]);
}
