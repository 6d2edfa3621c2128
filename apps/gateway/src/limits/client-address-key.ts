import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** The one key of every string that is no IP address (only a misbehaving proxy sends one). */
const INVALID = 'invalid';

/**
 * The client a per-address limit counts, as its Redis key part: an IPv4 address as it is, an
 * IPv6 address as its /64 (`2001:db8:1:2::/64`), because one subscriber or host holds a whole
 * /64 and could otherwise take a fresh address for every few guesses. An IPv4-mapped address
 * (`::ffff:203.0.113.7`, what a dual-stack socket reports for IPv4) is its IPv4 address.
 * Spelling does not matter (case, leading zeros, `::`, brackets, a zone, a port a proxy
 * appended), so one client is one key; and the key's length is bounded whatever the header
 * said.
 */
export function clientAddressKey(address: string | undefined): string {
  const bare = withoutDecoration(address ?? '');
  if (isIP(bare) === 0) return INVALID;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}

/** `[v6]`, `[v6]:port`, `v4:port` and a `%zone` reduced to the bare address. */
function withoutDecoration(address: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(address);
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  const bare = bracketed?.[1] ?? v4WithPort?.[1] ?? address;
  return bare.replace(/%.*$/, '');
}
