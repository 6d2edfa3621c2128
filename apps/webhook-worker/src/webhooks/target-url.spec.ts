import { DomainError } from '@custodian/contracts';
import {
  checkTargetUrl,
  forbiddenReason,
  isForbiddenAddress,
  isPrivateAddress,
  vetTargetUrl,
  type ResolveAll,
} from './target-url';

function refused(url: string, allowPrivate: boolean): string {
  try {
    checkTargetUrl(url, allowPrivate);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return (error as DomainError).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('webhook target URL', () => {
  it('accepts public https targets everywhere', () => {
    expect(checkTargetUrl('https://hooks.example.com/in', false)).toBe(
      'https://hooks.example.com/in',
    );
    expect(checkTargetUrl('https://93.184.216.34/x', false)).toBe('https://93.184.216.34/x');
  });

  it('refuses schemes other than http(s), always', () => {
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://x', 'not a url']) {
      refused(url, true);
      refused(url, false);
    }
    expect(refused('ftp://example.com/', true)).toContain('ftp');
  });

  it('in production refuses http, localhost and literal private addresses', () => {
    expect(refused('http://hooks.example.com/', false)).toBe('url must use https');
    for (const url of [
      'https://localhost/',
      'https://api.localhost:8443/',
      'https://127.0.0.1/',
      'https://10.1.2.3/',
      'https://172.20.0.1/',
      'https://192.168.1.1/',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://0.0.0.0/',
    ]) {
      expect(refused(url, false)).toContain('private or loopback');
    }
  });

  it('allows loopback and http when private targets are allowed (dev, tests)', () => {
    expect(checkTargetUrl('http://127.0.0.1:4000/hook', true)).toBe('http://127.0.0.1:4000/hook');
    expect(checkTargetUrl('http://localhost:4000/', true)).toBe('http://localhost:4000/');
  });

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

  describe('vetTargetUrl (names resolved; no real DNS here)', () => {
    const resolver =
      (table: Record<string, string[]>): ResolveAll =>
      (host) => {
        const addresses = table[host];
        if (!addresses) {
          return Promise.reject(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }),
          );
        }
        return Promise.resolve(
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
      };
    const dns = resolver({
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
      'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
      'rebind.example.com': ['::ffff:127.0.0.1'],
      'meta.example.com': ['169.254.169.254'],
    });

    async function vetRefused(url: string): Promise<string> {
      try {
        await vetTargetUrl(url, false, dns);
      } catch (error) {
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).code).toBe('invalid_input');
        return (error as DomainError).message;
      }
      throw new Error(`${url} was accepted`);
    }

    it('accepts a name whose every address is public', async () => {
      await expect(vetTargetUrl('https://hooks.example.com/in', false, dns)).resolves.toBe(
        'https://hooks.example.com/in',
      );
    });

    it('refuses a name if any address is forbidden', async () => {
      expect(await vetRefused('https://mixed.example.com/')).toContain('10.0.0.5');
      expect(await vetRefused('https://rebind.example.com/')).toContain('::ffff:127.0.0.1');
      expect(await vetRefused('https://meta.example.com/')).toContain('169.254.169.254');
    });

    it('refuses a name that does not resolve, naming the url', async () => {
      expect(await vetRefused('https://nowhere.example.com/x')).toBe(
        'url https://nowhere.example.com/x does not resolve (nowhere.example.com)',
      );
    });

    it('does not resolve when private targets are allowed, nor for literal addresses', async () => {
      const never: ResolveAll = () => Promise.reject(new Error('resolved'));
      await expect(vetTargetUrl('http://anything.test/', true, never)).resolves.toBe(
        'http://anything.test/',
      );
      await expect(vetTargetUrl('https://93.184.216.34/', false, never)).resolves.toBe(
        'https://93.184.216.34/',
      );
    });
  });
});
