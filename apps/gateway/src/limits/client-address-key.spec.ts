import { clientAddressKey } from './client-address-key';

describe('clientAddressKey', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address, however it is written', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:CB00:7107')).toBe('203.0.113.7');
    expect(clientAddressKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('[::ffff:203.0.113.7]')).toBe('203.0.113.7');
  });

  it('keys an IPv6 address by its /64', () => {
    expect(clientAddressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('writes one /64 one way whatever the spelling (case, leading zeros, ::, brackets, zone)', () => {
    const spellings = [
      '2001:DB8:0:A::1',
      '2001:0db8:0000:000a:0000:0000:0000:0001',
      '2001:db8::a:0:0:0:99',
      '[2001:db8:0:a::1]',
      '2001:db8:0:a::1%eth0',
    ];
    expect(new Set(spellings.map(clientAddressKey))).toEqual(new Set(['2001:db8:0:a::/64']));
  });

  it('keys loopback and link-local IPv6 by their /64 too', () => {
    expect(clientAddressKey('::1')).toBe('::/64');
    expect(clientAddressKey('fe80::1%lo0')).toBe('fe80::/64');
  });

  it('drops the port a proxy may have written with the address', () => {
    expect(clientAddressKey('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientAddressKey('[2001:db8:1:2::1]:443')).toBe('2001:db8:1:2::/64');
  });

  it('puts everything that is no IP address under one key, so junk cannot mint keys', () => {
    for (const junk of [undefined, '', 'unknown', 'a'.repeat(5_000), '999.1.1.1', '1.2.3', '::g']) {
      expect(clientAddressKey(junk)).toBe('invalid');
    }
  });
});
