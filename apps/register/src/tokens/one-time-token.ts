import { createHash, randomBytes } from 'node:crypto';

/**
 * The credentials of e-mailed links (invitations, sign-in): 32 random bytes, base64url. Only
 * their SHA-256 is stored (no salt: the token is random), and a presented token is looked up
 * by it, so a database dump opens nothing.
 */

const TOKEN_BYTES = 32;
/** base64url of 32 bytes, unpadded: 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** Whether `token` could have been made by {@link newToken} (no lookup for what cannot). */
export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * A console screen's link carrying a token in its fragment: a browser never sends the
 * fragment, so the token stays out of every server's and proxy's access log; the screen reads
 * it and POSTs it.
 */
export function consoleLink(publicBaseUrl: string, screen: string, token: string): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/console/${screen}#token=${encodeURIComponent(token)}`;
}
