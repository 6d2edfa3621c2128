export const PLAN_NAMES = ['free', 'pro', 'business', 'enterprise'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

/** Limits after applying a workspace's overrides to its plan; `null` means unlimited. */
export interface EffectiveLimits {
  ratePerMinute: number | null;
  monthlyQuota: number | null;
  assets: number | null;
  people: number | null;
  seats: number | null;
}

export type LimitName = keyof EffectiveLimits;
