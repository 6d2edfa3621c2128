import { PLAN_NAMES, type EffectiveLimits, type PlanName } from '@custodian/contracts';
import { PLAN_CATALOG } from './catalog';

/**
 * The plan table of the product decisions (DECISIONS.md, "Plans"), transcribed: `-` and
 * `unlimited` are both `null` (no limit applies).
 *
 * | plan | API and webhooks | requests / minute / key | requests / month / key | assets | people | member seats |
 * | free | no | - | - | 100 | 50 | 3 |
 * | pro | yes | 120 | 100,000 | 5,000 | 1,000 | 25 |
 * | business | yes | 600 | 1,000,000 | 50,000 | 10,000 | 200 |
 * | enterprise | yes | 3,000 | unlimited | unlimited | unlimited | unlimited |
 */
const DECIDED: Record<PlanName, { apiAccess: boolean; limits: EffectiveLimits }> = {
  free: {
    apiAccess: false,
    limits: { ratePerMinute: null, monthlyQuota: null, assets: 100, people: 50, seats: 3 },
  },
  pro: {
    apiAccess: true,
    limits: { ratePerMinute: 120, monthlyQuota: 100_000, assets: 5_000, people: 1_000, seats: 25 },
  },
  business: {
    apiAccess: true,
    limits: {
      ratePerMinute: 600,
      monthlyQuota: 1_000_000,
      assets: 50_000,
      people: 10_000,
      seats: 200,
    },
  },
  enterprise: {
    apiAccess: true,
    limits: { ratePerMinute: 3_000, monthlyQuota: null, assets: null, people: null, seats: null },
  },
};

describe('PLAN_CATALOG', () => {
  it('has exactly the four decided plans', () => {
    expect(Object.keys(PLAN_CATALOG).sort()).toEqual([...PLAN_NAMES].sort());
    expect(Object.keys(PLAN_CATALOG).sort()).toEqual(
      ['business', 'enterprise', 'free', 'pro'].sort(),
    );
  });

  it.each(PLAN_NAMES)('%s matches the plan table of DECISIONS.md', (name) => {
    const plan = PLAN_CATALOG[name];
    expect(plan.name).toBe(name);
    expect(plan.apiAccess).toBe(DECIDED[name].apiAccess);
    expect(plan.limits).toEqual(DECIDED[name].limits);
  });

  it('gives API access to every plan but free', () => {
    expect(PLAN_NAMES.filter((name) => !PLAN_CATALOG[name].apiAccess)).toEqual(['free']);
  });

  it('grows (or stays unlimited) from one plan to the next for every limit', () => {
    const order: PlanName[] = ['pro', 'business', 'enterprise'];
    const limitNames = Object.keys(PLAN_CATALOG.pro.limits) as Array<keyof EffectiveLimits>;
    for (const limit of limitNames) {
      for (let i = 1; i < order.length; i++) {
        const lower = PLAN_CATALOG[order[i - 1]!].limits[limit];
        const higher = PLAN_CATALOG[order[i]!].limits[limit];
        if (higher !== null) expect(higher).toBeGreaterThan(lower ?? Infinity);
      }
    }
  });
});
