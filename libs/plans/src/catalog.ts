import type { EffectiveLimits, PlanName } from '@custodian/contracts';

export interface PlanDefinition {
  name: PlanName;
  apiAccess: boolean;
  limits: EffectiveLimits;
}

/**
 * The plan catalog of DECISIONS.md. The gateway seeds its `plans` table from this in a
 * migration; code reads limits from the table so that a catalog change is a data change.
 */
export const PLAN_CATALOG: Readonly<Record<PlanName, PlanDefinition>> = {
  free: {
    name: 'free',
    apiAccess: false,
    limits: { ratePerMinute: null, monthlyQuota: null, assets: 100, people: 50, seats: 3 },
  },
  pro: {
    name: 'pro',
    apiAccess: true,
    limits: { ratePerMinute: 120, monthlyQuota: 100_000, assets: 5_000, people: 1_000, seats: 25 },
  },
  business: {
    name: 'business',
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
    name: 'enterprise',
    apiAccess: true,
    limits: { ratePerMinute: 3_000, monthlyQuota: null, assets: null, people: null, seats: null },
  },
};
