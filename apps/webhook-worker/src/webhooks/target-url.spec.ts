import { DomainError } from '@custodian/contracts';
import { checkTargetUrl, isPrivateAddress } from './target-url';

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
});
