import { forbiddenReason, isForbiddenAddress, isPrivateAddress } from './forbidden-address';

describe('forbidden webhook addresses', () => {
  it('classifies addresses', () => {
    expect(isPrivateAddress('8.8.8.8')).toBe(false);
    expect(isPrivateAddress('2001:4860:4860::8888')).toBe(false);
    expect(isPrivateAddress('127.0.0.2')).toBe(true);
    expect(isPrivateAddress('example.com')).toBe(false);
  });

  it('refuses every forbidden range, as IPv4 and in IPv6 forms', () => {
    const cases: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.254', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.0.1', 'linkLocal'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['100.127.255.254', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['255.255.255.255', 'broadcast'],
      ['192.0.2.1', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456:789a::1', 'uniqueLocal'],
      ['fe80::1', 'linkLocal'],
      ['fe80::1%eth0', 'linkLocal'],
      ['febf:ffff::1', 'linkLocal'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'reserved'],
    ];
    for (const [address, range] of cases) {
      expect([address, forbiddenReason(address)]).toEqual([address, range]);
    }
    const embedded: Array<[string, string]> = [
      ['::ffff:127.0.0.1', 'loopback (in ipv4Mapped)'],
      ['::ffff:7f00:1', 'loopback (in ipv4Mapped)'],
      ['[::ffff:7f00:1]', 'loopback (in ipv4Mapped)'],
      ['::ffff:10.0.0.1', 'private (in ipv4Mapped)'],
      ['::ffff:169.254.169.254', 'linkLocal (in ipv4Mapped)'],
      ['::ffff:a9fe:a9fe', 'linkLocal (in ipv4Mapped)'],
      ['::ffff:100.64.0.1', 'carrierGradeNat (in ipv4Mapped)'],
      ['::ffff:0.0.0.0', 'unspecified (in ipv4Mapped)'],
      ['::ffff:0:192.168.1.1', 'private (in ipv4Translated)'],
      // ipaddr.js reads the dotted ::a.b.c.d as mapped; refused either way.
      ['::127.0.0.1', 'loopback (in ipv4Mapped)'],
      ['::7f00:1', 'loopback (in ipv4Compatible)'],
      ['::a00:1', 'private (in ipv4Compatible)'],
      ['64:ff9b::127.0.0.1', 'loopback (in nat64)'],
      ['64:ff9b::a9fe:a9fe', 'linkLocal (in nat64)'],
      ['64:ff9b::192.168.0.1', 'private (in nat64)'],
      ['2002:7f00:1::', 'loopback (in 6to4)'],
      ['2002:c0a8:101::1', 'private (in 6to4)'],
    ];
    for (const [address, reason] of embedded) {
      expect([address, forbiddenReason(address)]).toEqual([address, reason]);
      expect(isPrivateAddress(address)).toBe(true);
    }
    // Local-use NAT64 (RFC 8215) is not global.
    expect(isForbiddenAddress('64:ff9b:1::a00:1')).toBe(true);
  });

  it('allows public unicast addresses, also in IPv6 forms that carry one', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '100.63.255.255',
      '100.128.0.1',
      '172.15.255.255',
      '172.32.0.1',
      '169.253.255.255',
      '11.0.0.1',
      '223.255.255.254',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::8.8.8.8',
      '2002:808:808::1',
    ]) {
      expect([address, forbiddenReason(address)]).toEqual([address, null]);
    }
    expect(isForbiddenAddress('not-an-ip')).toBe(true);
  });
});
