import type { CookieSerializeOptions } from '@fastify/cookie';
import type { GatewayConfig } from '../../config/gateway-config';

export const SESSION_COOKIE = 'custodian_session';
export const CONSOLE_PATH = '/console';

/** Secure outside development and test, where the console is opened over plain http. */
export function secureCookies(config: GatewayConfig): boolean {
  if (config.COOKIE_SECURE !== 'auto') return config.COOKIE_SECURE === 'true';
  return !['development', 'test'].includes(process.env.NODE_ENV ?? 'production');
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * subrequests), scoped to /console so it never rides along to /api/v1. No Max-Age: the
 * session's life is kept in Redis, and a browser session cookie adds nothing to it.
 */
export function sessionCookieOptions(config: GatewayConfig): CookieSerializeOptions {
  return { path: CONSOLE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookies(config) };
}
