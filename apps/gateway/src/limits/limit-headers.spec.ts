import { limitHeaders, type LimitState } from './limit-headers';

const state: LimitState = {
  plan: 'pro',
  ratePerMinute: 120,
  windowUsed: 7,
  windowResetAt: 1_800_000_060,
  monthlyQuota: 100_000,
  monthUsed: 250,
  monthEndsAt: 1_801_000_000,
};

describe('limit headers (spec section 8)', () => {
  it('counts down what is left of the window and the month', () => {
    expect(limitHeaders(state)).toEqual({
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '113',
      'x-ratelimit-reset': '1800000060',
      'x-quota-limit': '100000',
      'x-quota-used': '250',
      'x-quota-remaining': '99750',
    });
  });

  it('says unlimited, never 0, for a workspace without a rate limit or a quota', () => {
    const headers = limitHeaders({ ...state, ratePerMinute: null, monthlyQuota: null });
    expect(headers).toMatchObject({
      'x-ratelimit-limit': 'unlimited',
      'x-ratelimit-remaining': 'unlimited',
      'x-quota-limit': 'unlimited',
      'x-quota-used': '250',
      'x-quota-remaining': 'unlimited',
    });
  });
});
