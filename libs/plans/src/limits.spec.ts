import type { EffectiveLimits } from '@custodian/contracts';
import { effectiveLimits, limitNearMessage, limitReachedMessage, wouldExceed } from './limits';

const PRO: EffectiveLimits = {
  ratePerMinute: 120,
  monthlyQuota: 100_000,
  assets: 5_000,
  people: 1_000,
  seats: 25,
};

describe('effectiveLimits', () => {
  it('keeps every plan value when there are no overrides', () => {
    expect(effectiveLimits(PRO, {})).toEqual(PRO);
  });

  it('takes a numeric override instead of the plan value, limit by limit', () => {
    expect(effectiveLimits(PRO, { assets: 7, ratePerMinute: 1_000 })).toEqual({
      ...PRO,
      assets: 7,
      ratePerMinute: 1_000,
    });
  });

  it('treats an override of 0 as a limit of zero, not as absent', () => {
    expect(effectiveLimits(PRO, { people: 0 }).people).toBe(0);
  });

  it('treats an override of null as unlimited', () => {
    const limits = effectiveLimits(PRO, { monthlyQuota: null, seats: null });
    expect(limits.monthlyQuota).toBeNull();
    expect(limits.seats).toBeNull();
    expect(limits.assets).toBe(5_000);
  });

  it('can put a limit on a plan value that is unlimited', () => {
    const enterprise: EffectiveLimits = { ...PRO, assets: null };
    expect(effectiveLimits(enterprise, { assets: 10 }).assets).toBe(10);
    expect(effectiveLimits(enterprise, {}).assets).toBeNull();
  });

  it('overrides every limit at once', () => {
    const all: EffectiveLimits = {
      ratePerMinute: 1,
      monthlyQuota: 2,
      assets: 3,
      people: 4,
      seats: 5,
    };
    expect(effectiveLimits(PRO, all)).toEqual(all);
  });

  it('does not change the plan object it is given', () => {
    const plan = { ...PRO };
    effectiveLimits(plan, { assets: 1, seats: null });
    expect(plan).toEqual(PRO);
  });
});

describe('wouldExceed', () => {
  it('is false while one more item still fits', () => {
    expect(wouldExceed(5, 0)).toBe(false);
    expect(wouldExceed(5, 4)).toBe(false);
  });

  it('is true when the limit is already reached', () => {
    expect(wouldExceed(5, 5)).toBe(true);
    expect(wouldExceed(5, 6)).toBe(true);
  });

  it('is true for any item under a limit of zero', () => {
    expect(wouldExceed(0, 0)).toBe(true);
  });

  it('is never true when the limit is null (unlimited)', () => {
    expect(wouldExceed(null, 0)).toBe(false);
    expect(wouldExceed(null, Number.MAX_SAFE_INTEGER - 1)).toBe(false);
  });
});

describe('limitReachedMessage', () => {
  it('gives the exact message of DECISIONS.md for the asset limit', () => {
    expect(limitReachedMessage('assets', 5000, 'pro')).toBe(
      'Asset limit of 5000 reached on the pro plan',
    );
  });

  it('names each limit and the plan', () => {
    expect(limitReachedMessage('people', 50, 'free')).toBe(
      'People limit of 50 reached on the free plan',
    );
    expect(limitReachedMessage('seats', 3, 'free')).toBe(
      'Seat limit of 3 reached on the free plan',
    );
    expect(limitReachedMessage('ratePerMinute', 600, 'business')).toBe(
      'Rate limit of 600 reached on the business plan',
    );
    expect(limitReachedMessage('monthlyQuota', 100000, 'pro')).toBe(
      'Monthly quota of 100000 reached on the pro plan',
    );
  });
});

describe('limitNearMessage', () => {
  it('names the limit, the plan and what is used, as the reached message does', () => {
    expect(limitNearMessage('assets', 5000, 'pro', 4100)).toBe(
      'Asset limit of 5000 nearly reached on the pro plan: 4100 used',
    );
    expect(limitNearMessage('monthlyQuota', 100000, 'business', 80000)).toBe(
      'Monthly quota of 100000 nearly reached on the business plan: 80000 used',
    );
  });
});
