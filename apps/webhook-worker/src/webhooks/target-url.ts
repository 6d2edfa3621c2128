import { DomainError } from '@custodian/contracts';
import { isIP } from 'node:net';
import { isForbiddenAddress, isPrivateAddress } from './forbidden-address';
import { resolveAll, type ResolveAll } from './ssrf-guard';

/**
 * Checks a webhook target's form. Only http(s); with private targets not allowed
 * (production), only https and no literal private/loopback address or `localhost`.
 * Names are resolved by vetTargetUrl, and addresses checked again at connect time
 * (DNS rebinding) by the SSRF guard (ssrf-guard.ts).
 */
export function checkTargetUrl(raw: string, allowPrivate: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DomainError('invalid_input', 'url must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DomainError(
      'invalid_input',
      `url scheme ${url.protocol.slice(0, -1)} is not allowed; use https`,
    );
  }
  if (url.username || url.password) {
    throw new DomainError('invalid_input', 'url must not carry credentials');
  }
  if (!allowPrivate) {
    if (url.protocol !== 'https:') {
      throw new DomainError('invalid_input', 'url must use https');
    }
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
      throw new DomainError(
        'invalid_input',
        `url targets a private or loopback address (${host}); webhooks must reach a public host`,
      );
    }
  }
  return url.toString();
}

/**
 * checkTargetUrl, then (private targets not allowed) resolves the host and refuses the URL if
 * ANY of its addresses is forbidden, or if it does not resolve.
 */
export async function vetTargetUrl(
  raw: string,
  allowPrivate: boolean,
  resolve: ResolveAll = resolveAll,
): Promise<string> {
  const url = checkTargetUrl(raw, allowPrivate);
  if (allowPrivate) return url;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return url;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await resolve(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) {
    throw new DomainError('invalid_input', `url ${url} does not resolve (${host})`);
  }
  for (const { address } of addresses) {
    if (isForbiddenAddress(address)) {
      throw new DomainError(
        'invalid_input',
        `url targets a private or loopback address (${host} resolves to ${address}); webhooks must reach a public host`,
      );
    }
  }
  return url;
}
