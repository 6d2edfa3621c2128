import ipaddr from 'ipaddr.js';
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
