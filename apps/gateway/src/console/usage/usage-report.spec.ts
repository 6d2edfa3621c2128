import type { KeyUsage } from '@custodian/contracts';
import { PLAN_CATALOG } from '@custodian/plans';
import { usageReport, usageState, type UsageFacts } from './usage-report';

/** 2026-11-30T23:59:15.500Z: the last minute of a month. */
const NOW = Date.UTC(2026, 10, 30, 23, 59, 15, 500);

function key(id: string, overrides: Partial<KeyUsage> = {}): KeyUsage {
  return {
    id,
    name: id.toUpperCase(),
    prefix: `cus_${id}`,
    revoked: false,
    month_requests: 0,
    minute_requests: 0,
    ...overrides,
  };
}

function facts(overrides: Partial<UsageFacts> = {}): UsageFacts {
  return {
    plan: 'pro',
    apiAccess: true,
    limits: PLAN_CATALOG.pro.limits,
    counts: { assets: 0, people: 0, seats: 1 },
    keys: [],
    keysShown: true,
    nowMs: NOW,
    ...overrides,
  };
}

describe('usageState', () => {
  it('is reached at the limit, near from 80% of it, ok below and for unlimited', () => {
    expect(usageState(5, 5)).toBe('reached');
    expect(usageState(5, 6)).toBe('reached');
    expect(usageState(5, 4)).toBe('near');
    expect(usageState(5, 3)).toBe('ok');
    expect(usageState(null, 1_000_000)).toBe('ok');
    expect(usageState(120, null)).toBe('ok');
    // A limit of zero is reached before anything is used: nothing more may be added.
    expect(usageState(0, 0)).toBe('reached');
  });
});

describe('usageReport', () => {
  it('gives each limit with what is used, the month and the minute window', () => {
    const report = usageReport(
      facts({
        counts: { assets: 12, people: 3, seats: 2 },
        keys: [
          key('a', { month_requests: 40, minute_requests: 4 }),
          key('b', { month_requests: 7, minute_requests: 9 }),
        ],
      }),
    );
    expect(report.meters).toEqual([
      { name: 'assets', limit: 5000, used: 12, per_key: false, state: 'ok' },
      { name: 'people', limit: 1000, used: 3, per_key: false, state: 'ok' },
      { name: 'seats', limit: 25, used: 2, per_key: false, state: 'ok' },
      // The per-key limits meet the busiest key first.
      { name: 'monthly_quota', limit: 100_000, used: 40, per_key: true, state: 'ok' },
      { name: 'rate_per_minute', limit: 120, used: 9, per_key: true, state: 'ok' },
    ]);
    expect(report.month).toEqual({
      month: '2026-11',
      quota_per_key: 100_000,
      used: 47,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
    expect(report.minute_window).toEqual({
      limit_per_key: 120,
      used: 13,
      resets_in_seconds: 45,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
    expect(report.notices).toEqual([]);
    expect(report.as_of).toBe('2026-11-30T23:59:15.500Z');
  });

  it('gives a notice per limit reached, then per limit nearly reached, in words', () => {
    const report = usageReport(
      facts({
        plan: 'free',
        apiAccess: false,
        limits: { ...PLAN_CATALOG.free.limits, assets: 5 },
        counts: { assets: 4, people: 50, seats: 1 },
      }),
    );
    expect(report.notices).toEqual([
      {
        limit: 'people',
        level: 'reached',
        message: 'People limit of 50 reached on the free plan',
        key: null,
      },
      {
        limit: 'assets',
        level: 'near',
        message: 'Asset limit of 5 nearly reached on the free plan: 4 used',
        key: null,
      },
    ]);
    expect(report.meters.map((meter) => meter.state)).toEqual([
      'near',
      'reached',
      'ok',
      'ok',
      'ok',
    ]);
  });

  it('names the key at its quota or rate limit, ignoring revoked keys', () => {
    const report = usageReport(
      facts({
        limits: { ...PLAN_CATALOG.pro.limits, monthlyQuota: 100, ratePerMinute: 10 },
        keys: [
          key('ci', { month_requests: 100, minute_requests: 8 }),
          key('old', { revoked: true, month_requests: 500, minute_requests: 0 }),
          key('app', { name: null, month_requests: 10, minute_requests: 10 }),
        ],
      }),
    );
    expect(report.notices).toEqual([
      {
        limit: 'monthly_quota',
        level: 'reached',
        message: 'Key “CI” (cus_ci…): Monthly quota of 100 reached on the pro plan',
        key: { id: 'ci', name: 'CI', prefix: 'cus_ci' },
      },
      {
        limit: 'rate_per_minute',
        level: 'reached',
        message: 'Key cus_app…: Rate limit of 10 reached on the pro plan this minute',
        key: { id: 'app', name: null, prefix: 'cus_app' },
      },
      {
        limit: 'rate_per_minute',
        level: 'near',
        message:
          'Key “CI” (cus_ci…): Rate limit of 10 nearly reached on the pro plan: 8 used this minute',
        key: { id: 'ci', name: 'CI', prefix: 'cus_ci' },
      },
    ]);
    // The revoked key still counts in the month's total, not against the quota.
    expect(report.month.used).toBe(610);
    expect(report.meters[3]).toMatchObject({ used: 100, state: 'reached' });
  });

  it('lists no keys, and names none, for a role that may not see them', () => {
    const report = usageReport(
      facts({
        limits: { ...PLAN_CATALOG.pro.limits, monthlyQuota: 100 },
        keys: [key('ci', { month_requests: 100, minute_requests: 1 })],
        keysShown: false,
      }),
    );
    expect(report.keys).toEqual([]);
    expect(report.keys_shown).toBe(false);
    expect(report.month.used).toBe(100);
    expect(report.notices).toEqual([
      {
        limit: 'monthly_quota',
        level: 'reached',
        message: 'An API key: Monthly quota of 100 reached on the pro plan',
        key: null,
      },
    ]);
  });

  it('says nothing of request limits on a plan without API access, and null minutes without Redis', () => {
    const withoutApi = usageReport(
      facts({
        apiAccess: false,
        limits: { ...PLAN_CATALOG.pro.limits, monthlyQuota: 1 },
        keys: [key('a', { month_requests: 5 })],
      }),
    );
    expect(withoutApi.notices).toEqual([]);

    const withoutRedis = usageReport(facts({ keys: [key('a', { minute_requests: null })] }));
    expect(withoutRedis.minute_window.used).toBeNull();
    expect(withoutRedis.meters[4]).toMatchObject({ used: null, state: 'ok' });
  });
});
