import { tokenFromHash } from './token-from-hash';

describe('tokenFromHash', () => {
  it('reads the token of the fragment', () => {
    expect(tokenFromHash('#token=abc_DEF-123')).toBe('abc_DEF-123');
    expect(tokenFromHash('#other=1&token=t%2B1')).toBe('t+1');
  });

  it('is null without a token', () => {
    expect(tokenFromHash('')).toBeNull();
    expect(tokenFromHash('#token=')).toBeNull();
    expect(tokenFromHash('#tokens=abc')).toBeNull();
  });
});
