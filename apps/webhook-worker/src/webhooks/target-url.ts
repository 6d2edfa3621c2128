import { DomainError } from '@custodian/contracts';
import ipaddr from 'ipaddr.js';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** IPv6 prefixes whose last 32 bits carry an IPv4 address, judged as that address. */
const EMBEDS_IPV4_AT_END: Array<[string, ipaddr.IPv6, number]> = [
  ['ipv4Mapped', ipaddr.IPv6.parse('::ffff:0:0'), 96],
  ['ipv4Translated', ipaddr.IPv6.parse('::ffff:0:0:0'), 96],
  ['nat64', ipaddr.IPv6.parse('64:ff9b::'), 96],
  // IPv4-compatible (deprecated); :: and ::1 are matched first, as themselves.
  ['ipv4Compatible', ipaddr.IPv6.parse('::'), 96],
];

/**
 * Why a production webhook may not connect to `address`, or null when it may. Only ordinary
 * public unicast is allowed: loopback, private, link-local (so the 169.254.169.254 metadata
 * service), CGNAT, unspecified, multicast, broadcast, reserved and documentation ranges are
 * refused, in IPv4 and IPv6 (unique-local, link-local, site-local, ...). IPv6 addresses that
 * embed an IPv4 address (mapped ::ffff:0:0/96, compatible ::/96, NAT64 64:ff9b::/96, 6to4
 * 2002::/16) are judged by the IPv4 address they carry. A string that is no IP address is
 * refused too.
 */
export function forbiddenReason(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIP(bare)) return 'not an IP address';
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    if (range === 'unspecified' || range === 'loopback') return range;
    const bytes = v6.toByteArray();
    for (const [name, prefix, bits] of EMBEDS_IPV4_AT_END) {
      if (v6.match(prefix, bits)) return embedded(bytes.slice(12), name);
    }
    if (range === '6to4') return embedded(bytes.slice(2, 6), '6to4');
    return range === 'unicast' ? null : range;
  }
  const range = (parsed as ipaddr.IPv4).range();
  return range === 'unicast' ? null : range;
}

function embedded(bytes: number[], form: string): string | null {
  const reason = forbiddenReason(new ipaddr.IPv4(bytes).toString());
  return reason && `${reason} (in ${form})`;
}

/** Whether a production webhook may not connect to `address` (see forbiddenReason). */
export function isForbiddenAddress(address: string): boolean {
  return forbiddenReason(address) !== null;
}

/** Whether `address` is an IP address a production webhook may not reach; names are not. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 && isForbiddenAddress(bare);
}

/**
 * Checks a webhook target's form. Only http(s); with private targets not allowed
 * (production), only https and no literal private/loopback address or `localhost`.
 * Names are resolved by vetTargetUrl, and addresses checked again at connect time
 * (DNS rebinding) by the sender.
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

export type ResolveAll = (host: string) => Promise<Array<{ address: string; family: number }>>;

const resolveAll: ResolveAll = (host) => dnsLookup(host, { all: true, verbatim: true });

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
