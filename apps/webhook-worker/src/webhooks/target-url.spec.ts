import { DomainError } from '@custodian/contracts';
import type { ResolveAll } from './ssrf-guard';
import { checkTargetUrl, vetTargetUrl } from './target-url';

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
