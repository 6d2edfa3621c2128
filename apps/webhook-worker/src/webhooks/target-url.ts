import { DomainError } from '@custodian/contracts';
import { BlockList, isIP } from 'node:net';

/** Addresses a production webhook may not target: loopback, private, link-local, and such. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // An IPv4-mapped address (::ffff:127.0.0.1) is judged as the IPv4 address it carries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
    return PRIVATE.check(address, 'ipv6');
  }
  return PRIVATE.check(address, 'ipv4');
}

/**
 * Checks a webhook target at creation. Only http(s); with private targets not allowed
 * (production), only https and no literal private/loopback address or `localhost`.
 * Resolving names and checking again at connect time (DNS rebinding) is a later step.
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
