import { createHash } from 'node:crypto';
import { consoleLink, hashToken, isWellFormedToken, newToken } from './one-time-token';

describe('one-time tokens', () => {
  it('are 43 base64url characters, different each time, and well formed', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(isWellFormedToken(token)).toBe(true);
    }
  });

  it('refuses what newToken cannot make, without a lookup', () => {
    const token = newToken();
    for (const malformed of ['', 'nope', `${token}A`, token.slice(1), `${token.slice(1)}=`]) {
      expect(isWellFormedToken(malformed)).toBe(false);
    }
    expect(isWellFormedToken(`${token.slice(0, 42)}+`)).toBe(false);
    expect(isWellFormedToken(`${token.slice(0, 42)}\n`)).toBe(false);
  });

  it('are stored as their SHA-256 (32 bytes)', () => {
    const token = newToken();
    const hash = hashToken(token);
    expect(hash).toHaveLength(32);
    expect(hash.equals(createHash('sha256').update(token, 'utf8').digest())).toBe(true);
  });
});

describe('consoleLink', () => {
  it('puts the token in the fragment of the console screen, whatever the trailing slashes', () => {
    expect(consoleLink('https://custodian.example//', 'sign-in/link', 'abc_-1')).toBe(
      'https://custodian.example/console/sign-in/link#token=abc_-1',
    );
    const link = new URL(consoleLink('http://127.0.0.1:3000', 'invitations/accept', 'x'));
    expect(link.pathname).toBe('/console/invitations/accept');
    expect(link.search).toBe('');
    expect(new URLSearchParams(link.hash.slice(1)).get('token')).toBe('x');
  });
});
